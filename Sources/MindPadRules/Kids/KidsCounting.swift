/// Counting: a picture of N of one thing, "how many?". N grows with the
/// level; the wrong options are within 3 of N and never below 1.
///
/// | level | N    |
/// |-------|------|
/// | Ant   | 1–3  |
/// | Bee   | 1–5  |
/// | Cat   | 1–9  |
/// | Dog   | 5–12 |
/// | Elephant | 8–15 |
/// | Fox   | 10–20 |
public enum KidsCounting {
    public static let ranges: [ClosedRange<Int>] = [1...3, 1...5, 1...9, 5...12, 8...15, 10...20]

    static func question(level: Int, using generator: inout SeededGenerator) -> KidsQuestion {
        let n = generator.int(in: KidsLevel.pick(ranges, level: level))
        let thing = KidsDraw.one(of: KidsThing.countable, using: &generator)
        let options = KidsDraw.numberOptions(right: n, count: KidsLevel.optionCount(level: level), lowest: 1, using: &generator)
        return KidsDraw.question(ask: "count", level: level,
                                 picture: KidsPicture(scene: .count, items: [KidsItem(thing: thing, count: n)]),
                                 options: options, answer: String(n), isNumeric: true)
    }
}
