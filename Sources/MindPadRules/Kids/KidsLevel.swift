/// The ladder every kids' game shares: six levels named after animals,
/// Ant to Fox, each with its own ranges (docs/rules.md, "Kids' exercises").
/// A level is one Normal race of ten questions; eight right answers pass it
/// and open the next (`LevelLadder`).
public enum KidsLevel {
    /// The levels' names, level 1 first.
    public static let names: [LocalizedName] = [
        LocalizedName(en: "Ant", zh: "蚂蚁"),
        LocalizedName(en: "Bee", zh: "蜜蜂"),
        LocalizedName(en: "Cat", zh: "小猫"),
        LocalizedName(en: "Dog", zh: "小狗"),
        LocalizedName(en: "Elephant", zh: "大象"),
        LocalizedName(en: "Fox", zh: "狐狸"),
    ]

    /// Every level, 1-based.
    public static let levels: ClosedRange<Int> = 1...6

    /// Questions in a level.
    public static let questionCount = 10

    /// Right answers out of `questionCount` that pass a level.
    public static let passMark = 8

    /// How many options a question of `level` offers: three for the
    /// youngest (Ant, Bee), four from Cat on. (Comparing always has its two
    /// boxes.)
    public static func optionCount(level: Int) -> Int {
        level <= 2 ? 3 : 4
    }

    /// The entry of `table` for `level` (1-based, clamped to the ladder), so
    /// that each exercise states its ranges as one array, Ant first.
    static func pick<T>(_ table: [T], level: Int) -> T {
        precondition(table.count == levels.count, "a table needs one entry per level")
        return table[min(max(level, 1), table.count) - 1]
    }
}
