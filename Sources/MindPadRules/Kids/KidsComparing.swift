/// Comparing: two boxes of things, "which has more?" or "which has less?"
/// (a coin flip), never equal; the options are the boxes, `"a"` and `"b"`.
/// The counts grow and their difference shrinks with the level; from Dog on
/// the two boxes hold different things, so size of a picture is no clue.
///
/// | level | counts | difference at least | things |
/// |-------|--------|---------------------|--------|
/// | Ant   | 1–4    | 2 | the same |
/// | Bee   | 1–5    | 2 | the same |
/// | Cat   | 1–9    | 2 | the same |
/// | Dog   | 1–10   | 1 | different |
/// | Elephant | 5–15 | 1 | different |
/// | Fox   | 10–20  | 1 | different |
public enum KidsComparing {
    public static let ranges: [ClosedRange<Int>] = [1...4, 1...5, 1...9, 1...10, 5...15, 10...20]
    public static let minimumDifference = [2, 2, 2, 1, 1, 1]

    static func question(level: Int, using generator: inout SeededGenerator) -> KidsQuestion {
        let range = KidsLevel.pick(ranges, level: level)
        let gap = KidsLevel.pick(minimumDifference, level: level)
        let a = generator.int(in: range)
        let b = KidsDraw.one(of: range.filter { abs($0 - a) >= gap }, using: &generator)
        let things = KidsDraw.pick(2, from: KidsThing.countable, using: &generator)
        let second = level >= 4 ? things[1] : things[0]
        let asksMore = generator.bool()
        let answer = (a > b) == asksMore ? "a" : "b"
        return KidsDraw.question(
            ask: asksMore ? "more" : "less", level: level,
            picture: KidsPicture(scene: .compare, groups: [KidsItem(thing: things[0], count: a), KidsItem(thing: second, count: b)]),
            options: [KidsOption(value: "a"), KidsOption(value: "b")], answer: answer)
    }
}
