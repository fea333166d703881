/// Draws MindPad questions of a given difficulty (number of digits of the
/// result) from a `SeededGenerator`.
///
/// Per operation, with `lo...hi` the results that have `d` digits
/// (`0...9` for d = 1):
/// - `+`: result uniform in `max(lo, 2)...hi`, left operand uniform in
///   `1...result-1`; no operand is 0.
/// - `−`: result uniform in `lo...hi` (0 allowed at d = 1), subtrahend
///   uniform in `1...hi`, minuend = result + subtrahend; never negative.
/// - `×`: smaller factor uniform in `2...⌊√hi⌋`, larger factor uniform among
///   values ≥ 2 that keep the product in `lo...hi`, then the order is a coin
///   flip; no factor is 0 or 1.
/// - `÷`: quotient uniform in `max(lo, 1)...hi`, divisor uniform in
///   `2...min(hi, 99)` (`2...9` at d = 1), dividend = quotient × divisor;
///   always exact, never by 0 or 1.
/// The operation is uniform over the four, and the hidden digit is uniform
/// over all digits of the result, the last one included.
public enum ArithmeticQuestionGenerator {
    /// Supported difficulties; beyond 6 the operands stop being mental arithmetic.
    public static let difficulties: ClosedRange<Int> = 1...6

    public static func question(difficulty: Int, using generator: inout SeededGenerator) -> ArithmeticQuestion {
        precondition(difficulties.contains(difficulty), "difficulty \(difficulty) outside \(difficulties)")
        let operation = ArithmeticOperation.allCases[generator.int(in: 0...3)]
        let (lhs, rhs) = operands(operation, difficulty: difficulty, using: &generator)
        let hidden = generator.int(in: 0...(difficulty - 1))
        guard let question = ArithmeticQuestion(lhs: lhs, operation: operation, rhs: rhs, hiddenPosition: hidden),
            question.difficulty == difficulty
        else {
            preconditionFailure("generator broke a rule: \(lhs) \(operation.rawValue) \(rhs) at difficulty \(difficulty)")
        }
        return question
    }

    static func operands(
        _ operation: ArithmeticOperation,
        difficulty: Int,
        using generator: inout SeededGenerator
    ) -> (Int, Int) {
        let hi = power(10, difficulty) - 1
        let lo = difficulty == 1 ? 0 : power(10, difficulty - 1)
        switch operation {
        case .addition:
            let result = generator.int(in: max(lo, 2)...hi)
            let lhs = generator.int(in: 1...(result - 1))
            return (lhs, result - lhs)
        case .subtraction:
            let result = generator.int(in: lo...hi)
            let rhs = generator.int(in: 1...hi)
            return (result + rhs, rhs)
        case .multiplication:
            let small = generator.int(in: 2...squareRoot(hi))
            let minLarge = max(2, (max(lo, 1) + small - 1) / small)
            let large = generator.int(in: minLarge...(hi / small))
            return generator.bool() ? (small, large) : (large, small)
        case .division:
            let quotient = generator.int(in: max(lo, 1)...hi)
            let divisor = generator.int(in: 2...min(hi, 99))
            return (quotient * divisor, divisor)
        }
    }

    static func power(_ base: Int, _ exponent: Int) -> Int {
        var value = 1
        for _ in 0..<exponent { value *= base }
        return value
    }

    /// ⌊√n⌋ in integers, so no floating point can differ between machines.
    static func squareRoot(_ n: Int) -> Int {
        var root = 0
        while (root + 1) * (root + 1) <= n { root += 1 }
        return root
    }
}
