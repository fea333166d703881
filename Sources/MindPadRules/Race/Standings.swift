/// Final standings of a round, best first, with every tie broken.
///
/// Order per mode (first difference decides):
/// - Normal: higher score; completed before abandoned; more correct
///   answers; shorter duration; earlier seat.
/// - Survival: higher score; more questions answered; completed before
///   abandoned; shorter duration; earlier seat.
/// - Time Attack: more correct answers; reached that score earlier;
///   completed before abandoned; earlier seat.
/// For a kind whose boards put lower scores first (`BoardOrder.lowerFirst`),
/// a completed run ranks before an abandoned one, then the lower score wins,
/// then the mode's other keys.
/// Ranks are 1, 2, 3… with no shared places, because the last key (seat)
/// is unique.
public struct Standings: Sendable, Hashable, Codable {
    public let round: Int
    public let mode: GameMode
    public let entries: [Entry]

    public struct Entry: Sendable, Hashable, Codable {
        public let rank: Int
        public let result: PlayerResult
    }

    public init(round: Int, mode: GameMode, results: [PlayerResult], order: BoardOrder = .higherFirst) {
        self.round = round
        self.mode = mode
        let sorted = results.sorted { Self.ranksBefore($0, $1, mode: mode, order: order) }
        entries = sorted.enumerated().map { Entry(rank: $0.offset + 1, result: $0.element) }
    }

    /// The winner, if anyone raced.
    public var winner: PlayerResult? { entries.first?.result }

    /// Whether `a` places above `b` in `mode`.
    public static func ranksBefore(_ a: PlayerResult, _ b: PlayerResult, mode: GameMode,
                                   order: BoardOrder = .higherFirst) -> Bool {
        for key in keys(a, b, mode: mode, order: order) where key != .same {
            return key == .first
        }
        return false
    }

    private enum Preference { case first, second, same }

    private static func keys(_ a: PlayerResult, _ b: PlayerResult, mode: GameMode, order: BoardOrder) -> [Preference] {
        switch order {
        case .higherFirst:
            return keys(a, b, mode: mode)
        case .lowerFirst:
            var rest = keys(a, b, mode: mode)
            rest[0] = lower(a.score, b.score)
            return [completedFirst(a, b)] + rest
        }
    }

    private static func keys(_ a: PlayerResult, _ b: PlayerResult, mode: GameMode) -> [Preference] {
        switch mode {
        case .normal:
            return [
                higher(a.score, b.score), completedFirst(a, b), higher(a.correct, b.correct),
                lower(a.duration, b.duration), lower(a.seat, b.seat),
            ]
        case .survival:
            return [
                higher(a.score, b.score), higher(a.answered, b.answered), completedFirst(a, b),
                lower(a.duration, b.duration), lower(a.seat, b.seat),
            ]
        case .timeAttack:
            return [
                higher(a.score, b.score), lower(a.scoreReachedAfter, b.scoreReachedAfter),
                completedFirst(a, b), lower(a.seat, b.seat),
            ]
        }
    }

    private static func higher<T: Comparable>(_ a: T, _ b: T) -> Preference {
        a > b ? .first : (a < b ? .second : .same)
    }

    private static func lower<T: Comparable>(_ a: T, _ b: T) -> Preference {
        a < b ? .first : (a > b ? .second : .same)
    }

    private static func completedFirst(_ a: PlayerResult, _ b: PlayerResult) -> Preference {
        a.completed == b.completed ? .same : (a.completed ? .first : .second)
    }
}
