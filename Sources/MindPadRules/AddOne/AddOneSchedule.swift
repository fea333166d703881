/// How long (how many digits) the `index`-th Add-One question is, per
/// mode. Longer numbers are harder: more to read, more to write.
///
/// - Normal: 2, 2, 2, 3, 3, 3, 4, 4, 5, 6; any question past the tenth is 6.
/// - Survival: drawn from the seed within a window that climbs as the run
///   goes on (as MindPad's `DifficultySchedule`):
///
///   | questions | digits |
///   |-----------|--------|
///   | 1–5       | 2–3    |
///   | 6–15      | 2–4    |
///   | 16–30     | 3–5    |
///   | 31 on     | 4–6    |
///
/// - Time Attack: drawn from the seed within a window that climbs faster,
///   starting easy (the solo fish game counts its first correct answers):
///
///   | questions | digits |
///   |-----------|--------|
///   | 1–3       | 2      |
///   | 4–8       | 2–3    |
///   | 9–15      | 3–4    |
///   | 16–25     | 3–5    |
///   | 26 on     | 4–6    |
public enum AddOneSchedule {
    /// Every length a question may have.
    public static let lengths: ClosedRange<Int> = 2...6

    public static let normal: [Int] = [2, 2, 2, 3, 3, 3, 4, 4, 5, 6]

    /// The range a Survival question at 0-based `index` is drawn from.
    public static func survivalRange(index: Int) -> ClosedRange<Int> {
        if index < 5 { return 2...3 }
        if index < 15 { return 2...4 }
        if index < 30 { return 3...5 }
        return 4...6
    }

    /// The range a Time Attack question at 0-based `index` is drawn from.
    public static func timeAttackRange(index: Int) -> ClosedRange<Int> {
        if index < 3 { return 2...2 }
        if index < 8 { return 2...3 }
        if index < 15 { return 3...4 }
        if index < 25 { return 3...5 }
        return 4...6
    }

    /// The range question `index` is drawn from in `mode` (a single length in Normal).
    public static func range(mode: GameMode, index: Int) -> ClosedRange<Int> {
        precondition(index >= 0, "question index must not be negative")
        switch mode {
        case .normal:
            let length = index < normal.count ? normal[index] : lengths.upperBound
            return length...length
        case .survival: return survivalRange(index: index)
        case .timeAttack: return timeAttackRange(index: index)
        }
    }

    /// The length of question `index`, drawn from `generator` (Normal draws
    /// nothing, so the digits that follow use the same stream either way).
    public static func length(mode: GameMode, index: Int, using generator: inout SeededGenerator) -> Int {
        let range = range(mode: mode, index: index)
        return range.count == 1 ? range.lowerBound : generator.int(in: range)
    }
}
