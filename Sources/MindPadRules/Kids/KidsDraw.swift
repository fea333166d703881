/// The draws every kids' generator shares, so each exercise states only
/// what is particular to it. Everything goes through `SeededGenerator`, so
/// a question is a pure function of (seed, index, level).
enum KidsDraw {
    /// `items` in a random order (Fisher–Yates).
    static func shuffled<T>(_ items: [T], using generator: inout SeededGenerator) -> [T] {
        var items = items
        guard items.count > 1 else { return items }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(i, generator.int(in: 0...i))
        }
        return items
    }

    /// `count` distinct elements of `items` (which must have that many), in a random order.
    static func pick<T>(_ count: Int, from items: [T], using generator: inout SeededGenerator) -> [T] {
        precondition(count <= items.count, "cannot pick \(count) of \(items.count)")
        return Array(shuffled(items, using: &generator).prefix(count))
    }

    /// One element of `items`.
    static func one<T>(of items: [T], using generator: inout SeededGenerator) -> T {
        items[generator.int(in: 0...(items.count - 1))]
    }

    /// `count` number options around `right`: the wrong ones are distinct
    /// values within 3 of it (never below `lowest`, never negative), so a
    /// child cannot pick the answer by its size alone; the order is random.
    static func numberOptions(right: Int, count: Int, lowest: Int = 0,
                              using generator: inout SeededGenerator) -> [KidsOption] {
        let floor = max(lowest, 0)
        let near = (right - 3...right + 3).filter { $0 >= floor && $0 != right }
        let wrong = pick(count - 1, from: near, using: &generator)
        return shuffled(wrong + [right], using: &generator).map(KidsOption.init(number:))
    }

    /// A question whose rules the generator itself guarantees; a broken
    /// one is a bug in the generator, caught by the property tests.
    static func question(ask: String, level: Int, picture: KidsPicture, options: [KidsOption], answer: String,
                         isNumeric: Bool = false) -> KidsQuestion {
        guard let question = KidsQuestion(ask: ask, level: level, picture: picture, options: options,
                                          answer: answer, isNumeric: isNumeric) else {
            preconditionFailure("kids generator broke a rule: \(ask) L\(level) \(options) = \(answer)")
        }
        return question
    }
}
