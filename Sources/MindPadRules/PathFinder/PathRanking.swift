/// The seed's ranking of path-finder rounds (`../shared/seeds/003_*`),
/// kept exactly: of a player's rounds, the five most recent by start time,
/// ordered by `steps × |end − start| in seconds / gridSize`, lower first.
/// A round without an end counts its end as the epoch (0), as the seed's
/// `endTime?.timeIntervalSince1970 ?? 0` does, so it ranks last. The seed
/// leaves equal values to an unstable sort; here the earlier start goes
/// first, then the earlier entry of `history`.
public enum PathRanking {
    /// One round as the ranking sees it. Times are seconds since 1970.
    public struct Round: Sendable, Hashable, Codable {
        public var startTime: Double
        public var endTime: Double?
        public var stepCount: Int
        public var gridSize: Int

        public init(startTime: Double, endTime: Double?, stepCount: Int, gridSize: Int) {
            precondition(gridSize > 0, "a grid has cells")
            self.startTime = startTime
            self.endTime = endTime
            self.stepCount = stepCount
            self.gridSize = gridSize
        }

        /// The seed's `getRankValue`: lower is better.
        public var rankValue: Double {
            let timeDiff = abs((endTime ?? 0) - startTime)
            return Double(stepCount) * timeDiff / Double(gridSize)
        }
    }

    /// How many recent rounds the seed ranks.
    public static let recentCount = 5

    /// The seed's `rankGameHistory`: the five most recent rounds by start
    /// time, best (lowest rank value) first.
    public static func rank<R>(_ history: [R], round: (R) -> Round) -> [R] {
        let rounds = history.map(round)
        let recent = history.indices
            .sorted { (rounds[$0].startTime, $1) > (rounds[$1].startTime, $0) }
            .prefix(recentCount)
        return recent
            .sorted { (rounds[$0].rankValue, rounds[$0].startTime, $0) < (rounds[$1].rankValue, rounds[$1].startTime, $1) }
            .map { history[$0] }
    }

    public static func rank(_ history: [Round]) -> [Round] { rank(history) { $0 } }
}
