import MindPadRules
import MindPadStorage

/// JSON shapes of a player's path-finder rounds (docs/openapi.yaml,
/// `GET /api/players/{name}/path_rounds`) and the path finder's share of
/// the boards.
enum PathRoundsJSON {
    /// The path finder's game id (its kind's `identifier`): its boards'
    /// entries carry `rank_value`.
    static let game = PathFinder().identifier

    /// The rank value a path-finder score stands for: the kind scores a
    /// round as its rank value × 1000, rounded.
    static func rankValue(score: Int) -> Double { Double(score) / 1000 }

    /// The rank value a round shows: of a finished round, its score's (the
    /// seed's value rounded to thousandths, `PathFinder.points`), so the
    /// last five say what the round's result and the boards said, to the
    /// digit; of a round never finished, the seed's value itself (far
    /// beyond any score). The order of the last five is the seed's, on the
    /// unrounded values.
    static func rankValue(of round: PathRoundRecord) -> Double {
        guard let end = round.endedAtMs else { return round.ranking.rankValue }
        return rankValue(score: PathFinder.points(steps: round.steps, steering: .milliseconds(end - round.startedAtMs),
                                                  gridSize: round.gridSize))
    }

    struct Round: Encodable {
        let rank: Int
        let round: PathRoundRecord

        private enum Keys: String, CodingKey {
            case rank, started_at, ended_at, steps, best_steps, tries, rows, columns, grid_size, seconds, rank_value
        }

        /// `ended_at` and `seconds` are written as null for a round never
        /// finished, never left out.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(rank, forKey: .rank)
            try c.encode(ScoresJSON.timestamp(round.startedAtMs), forKey: .started_at)
            if let end = round.endedAtMs {
                try c.encode(ScoresJSON.timestamp(end), forKey: .ended_at)
            } else {
                try c.encodeNil(forKey: .ended_at)
            }
            try c.encode(round.steps, forKey: .steps)
            try c.encode(round.bestSteps, forKey: .best_steps)
            try c.encode(round.tries, forKey: .tries)
            try c.encode(round.rows, forKey: .rows)
            try c.encode(round.columns, forKey: .columns)
            try c.encode(round.gridSize, forKey: .grid_size)
            if let end = round.endedAtMs {
                try c.encode(Double(end - round.startedAtMs) / 1000, forKey: .seconds)
            } else {
                try c.encodeNil(forKey: .seconds)
            }
            try c.encode(PathRoundsJSON.rankValue(of: round), forKey: .rank_value)
        }
    }

    struct Rounds: Encodable {
        let player: String
        let rounds: [Round]

        /// The seed's leader board: of `recent` (the player's most recent
        /// rounds, as storage read them), the five most recent ranked best
        /// first by `PathRanking`.
        init(player: String, recent: [PathRoundRecord]) {
            self.player = player
            rounds = PathRanking.rank(recent, round: \.ranking).enumerated().map { Round(rank: $0.offset + 1, round: $0.element) }
        }
    }
}

extension PathRoundRecord {
    /// The round as the seed's ranking sees it (seconds since 1970).
    var ranking: PathRanking.Round {
        PathRanking.Round(startTime: Double(startedAtMs) / 1000, endTime: endedAtMs.map { Double($0) / 1000 },
                          stepCount: steps, gridSize: gridSize)
    }
}
