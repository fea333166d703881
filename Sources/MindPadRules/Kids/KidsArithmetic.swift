/// The four operations for kids: pictures at Ant and Bee (things to put
/// together, take away, group and share), numbers from Cat on. Results are
/// never negative and division is always exact with a divisor of at least
/// 1; the wrong options are within 3 of the result and never negative.
///
/// | level | + (a, b ≥ 1) | − (a − b, b ≥ 1) | × (a × b) | ÷ (a ÷ b = q) | shown as |
/// |-------|---------------|------------------|-----------|----------------|----------|
/// | Ant   | sum ≤ 5       | a ≤ 5            | 1–3 groups of 1–2 | b 1–2, q 1–3 | pictures |
/// | Bee   | sum ≤ 10      | a ≤ 10           | 2–3 groups of 1–3 | b 2–3, q 1–3 | pictures |
/// | Cat   | sum ≤ 10      | a ≤ 10           | 1–5 × 1–5 | b 1–5, q 1–5 | numbers |
/// | Dog   | sum ≤ 20      | a ≤ 20           | 2–10 × 2–10 | b 2–10, q 1–10 | numbers |
/// | Elephant | sum ≤ 50   | a ≤ 50           | 2–12 × 2–12 | b 2–12, q 2–12 | numbers |
/// | Fox   | a, b ≥ 10, sum ≤ 99 | a 20–99, b ≥ 10 | 11–20 × 2–9 | b 2–9, q 10–20 | numbers |
public enum KidsArithmetic {
    /// The two operands' ranges at one level: for + the sum's range and the
    /// least operand; for − the minuend's range and the least subtrahend;
    /// for × the two factors' ranges; for ÷ the divisor's and the quotient's.
    public struct Ranges: Sendable, Hashable {
        public let first: ClosedRange<Int>
        public let second: ClosedRange<Int>
    }

    /// Levels shown as pictures (Ant, Bee).
    public static let pictureLevels: ClosedRange<Int> = 1...2

    public static func ranges(_ operation: KidsOperation) -> [Ranges] {
        switch operation {
        case .add: [r(2...5, 1...1), r(2...10, 1...1), r(2...10, 1...1), r(2...20, 1...1), r(2...50, 1...1), r(20...99, 10...10)]
        case .subtract: [r(1...5, 1...1), r(2...10, 1...1), r(2...10, 1...1), r(5...20, 1...1), r(10...50, 1...1), r(20...99, 10...10)]
        case .multiply: [r(1...3, 1...2), r(2...3, 1...3), r(1...5, 1...5), r(2...10, 2...10), r(2...12, 2...12), r(11...20, 2...9)]
        case .divide: [r(1...2, 1...3), r(2...3, 1...3), r(1...5, 1...5), r(2...10, 1...10), r(2...12, 2...12), r(2...9, 10...20)]
        }
    }

    private static func r(_ first: ClosedRange<Int>, _ second: ClosedRange<Int>) -> Ranges {
        Ranges(first: first, second: second)
    }

    static func question(_ operation: KidsOperation, level: Int, using generator: inout SeededGenerator) -> KidsQuestion {
        let ranges = KidsLevel.pick(ranges(operation), level: level)
        // (left, right, result) as shown: a + b, a − b, a × b, a ÷ b.
        let left: Int, right: Int, result: Int
        switch operation {
        case .add:
            let least = ranges.second.lowerBound
            let sum = generator.int(in: ranges.first)
            left = generator.int(in: least...(sum - least))
            (right, result) = (sum - left, sum)
        case .subtract:
            left = generator.int(in: ranges.first)
            right = generator.int(in: min(ranges.second.lowerBound, left)...left)
            result = left - right
        case .multiply:
            (left, right) = (generator.int(in: ranges.first), generator.int(in: ranges.second))
            result = left * right
        case .divide:
            let divisor = generator.int(in: ranges.first)
            result = generator.int(in: ranges.second)
            (left, right) = (result * divisor, divisor)
        }
        let picture = pictureLevels.contains(level)
            ? self.picture(operation, left: left, right: right, using: &generator)
            : KidsPicture(scene: .numbers, left: .number(left), right: .number(right), op: operation)
        let options = KidsDraw.numberOptions(right: result, count: KidsLevel.optionCount(level: level), using: &generator)
        return KidsDraw.question(ask: operation.rawValue, level: level, picture: picture, options: options,
                                 answer: String(result), isNumeric: true)
    }

    /// The picture of `left op right` for the youngest.
    static func picture(_ operation: KidsOperation, left: Int, right: Int, using generator: inout SeededGenerator) -> KidsPicture {
        let thing = KidsDraw.one(of: KidsThing.countable, using: &generator)
        switch operation {
        case .add:
            return KidsPicture(scene: .sum, left: .group(KidsItem(thing: thing, count: left)),
                               right: .group(KidsItem(thing: thing, count: right)))
        case .subtract:
            return KidsPicture(scene: .takeAway, left: .group(KidsItem(thing: thing, count: left)),
                               right: .group(KidsItem(thing: thing, count: right)))
        case .multiply:
            // `left` groups of `right` things each.
            return KidsPicture(scene: .groups, left: .group(KidsItem(thing: thing, count: right)), right: .number(left))
        case .divide:
            let food = KidsDraw.one(of: KidsThing.all(in: .food), using: &generator)
            let sharers = KidsDraw.one(of: KidsThing.all(in: .animal), using: &generator)
            return KidsPicture(scene: .share, left: .group(KidsItem(thing: food, count: left)),
                               right: .group(KidsItem(thing: sharers, count: right)))
        }
    }
}
