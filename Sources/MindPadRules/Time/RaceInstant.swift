/// A point on the server's monotonic clock, in milliseconds.
///
/// The rules never read a clock: the owner passes `now` with every event, so
/// tests drive a manual clock and never sleep. Only differences between
/// instants mean anything; the origin is whatever the owner chose.
public struct RaceInstant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static let zero = RaceInstant(milliseconds: 0)

    public static func < (lhs: RaceInstant, rhs: RaceInstant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    public static func + (lhs: RaceInstant, rhs: RaceDuration) -> RaceInstant {
        RaceInstant(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }

    public static func - (lhs: RaceInstant, rhs: RaceInstant) -> RaceDuration {
        RaceDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }

    public var description: String { "\(milliseconds)ms" }
}
