/// A span of server time, in milliseconds.
public struct RaceDuration: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static func milliseconds(_ value: Int64) -> RaceDuration {
        RaceDuration(milliseconds: value)
    }

    public static func seconds(_ value: Int64) -> RaceDuration {
        RaceDuration(milliseconds: value * 1000)
    }

    public static let zero = RaceDuration(milliseconds: 0)

    /// Whole seconds, rounded down: the unit of the original scoring formula.
    public var wholeSeconds: Int64 {
        milliseconds >= 0 ? milliseconds / 1000 : -((-milliseconds + 999) / 1000)
    }

    public static func < (lhs: RaceDuration, rhs: RaceDuration) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    public static func + (lhs: RaceDuration, rhs: RaceDuration) -> RaceDuration {
        RaceDuration(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }

    public static func - (lhs: RaceDuration, rhs: RaceDuration) -> RaceDuration {
        RaceDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }

    public var description: String { "\(milliseconds)ms" }
}
