/// The nine kids' exercises. Each is a game of its own (`KidsGame`) with its
/// own generator file; what they share (the ladder, the options, the
/// prompt, scoring one point per right answer) is written once.
public enum KidsExercise: String, Sendable, Hashable, CaseIterable {
    case counting, comparing, colours, positions, classifying
    case addition, subtraction, multiplication, division

    /// The game's identifier: `kids_` and the exercise.
    public var identifier: String { "kids_\(rawValue)" }

    public var names: LocalizedName {
        switch self {
        case .counting: LocalizedName(en: "Counting", zh: "数一数")
        case .comparing: LocalizedName(en: "More or less", zh: "比多少")
        case .colours: LocalizedName(en: "Colours", zh: "颜色")
        case .positions: LocalizedName(en: "Positions", zh: "位置")
        case .classifying: LocalizedName(en: "Odd one out", zh: "找不同")
        case .addition: LocalizedName(en: "Addition", zh: "加法")
        case .subtraction: LocalizedName(en: "Subtraction", zh: "减法")
        case .multiplication: LocalizedName(en: "Multiplication", zh: "乘法")
        case .division: LocalizedName(en: "Division", zh: "除法")
        }
    }

    /// Draws one question of `level` from `generator`.
    func question(level: Int, using generator: inout SeededGenerator) -> KidsQuestion {
        switch self {
        case .counting: KidsCounting.question(level: level, using: &generator)
        case .comparing: KidsComparing.question(level: level, using: &generator)
        case .colours: KidsColours.question(level: level, using: &generator)
        case .positions: KidsPositions.question(level: level, using: &generator)
        case .classifying: KidsClassifying.question(level: level, using: &generator)
        case .addition: KidsArithmetic.question(.add, level: level, using: &generator)
        case .subtraction: KidsArithmetic.question(.subtract, level: level, using: &generator)
        case .multiplication: KidsArithmetic.question(.multiply, level: level, using: &generator)
        case .division: KidsArithmetic.question(.divide, level: level, using: &generator)
        }
    }
}
