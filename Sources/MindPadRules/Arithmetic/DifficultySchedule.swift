/// Which difficulty (digits of the result) the `index`-th question of a race
/// has, per mode.
///
/// - Normal: 1, 1, 1, 1, 2, 2, 2, 2, 2, 3 (the original app's schedule);
///   any question past the tenth is 3.
/// - Time Attack: uniform in 1...3, drawn from the seed.
/// - Survival: drawn from the seed within a window that climbs as the run
///   goes on, so a long run gets harder:
///
///   | questions | difficulty |
///   |-----------|------------|
///   | 1–5       | 1–2        |
///   | 6–15      | 1–3        |
///   | 16–30     | 2–3        |
///   | 31 on     | 3          |
public enum DifficultySchedule {
    public static let normal: [Int] = [1, 1, 1, 1, 2, 2, 2, 2, 2, 3]

    /// The range a Survival question at 0-based `index` is drawn from.
    public static func survivalRange(index: Int) -> ClosedRange<Int> {
        if index < 5 { return 1...2 }
        if index < 15 { return 1...3 }
        if index < 30 { return 2...3 }
        return 3...3
    }

    public static func difficulty(mode: GameMode, index: Int, using generator: inout SeededGenerator) -> Int {
        precondition(index >= 0, "question index must not be negative")
        switch mode {
        case .normal:
            return index < normal.count ? normal[index] : 3
        case .survival:
            return generator.int(in: survivalRange(index: index))
        case .timeAttack:
            return generator.int(in: 1...3)
        }
    }
}
