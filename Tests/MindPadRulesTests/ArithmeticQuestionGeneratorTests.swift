import Testing

@testable import MindPadRules

@Suite struct ArithmeticQuestionGeneratorTests {
    /// Checks every rule of one generated question.
    static func checkRules(_ q: ArithmeticQuestion, difficulty: Int) {
        #expect(q.difficulty == difficulty, "\(q)")
        #expect(String(q.result).count == difficulty, "\(q)")
        #expect(q.lhs >= 0 && q.rhs >= 0, "\(q)")
        switch q.operation {
        case .addition:
            #expect(q.lhs + q.rhs == q.result && q.lhs >= 1 && q.rhs >= 1, "\(q)")
        case .subtraction:
            #expect(q.lhs - q.rhs == q.result && q.result >= 0 && q.rhs >= 1, "\(q)")
        case .multiplication:
            #expect(q.lhs * q.rhs == q.result && q.lhs >= 2 && q.rhs >= 2, "\(q)")
        case .division:
            #expect(q.rhs >= 2 && q.lhs % q.rhs == 0 && q.lhs / q.rhs == q.result, "\(q)")
        }
        let digits = Array(String(q.result))
        #expect((0..<digits.count).contains(q.hiddenPosition), "\(q)")
        #expect(q.answer.value == Int(String(digits[q.hiddenPosition])), "\(q)")
        var masked = digits
        masked[q.hiddenPosition] = "?"
        #expect(q.maskedResult == String(masked), "\(q)")
        // Rebuilding through the validating initializer accepts it.
        #expect(ArithmeticQuestion(lhs: q.lhs, operation: q.operation, rhs: q.rhs, hiddenPosition: q.hiddenPosition) == q)
    }

    @Test(arguments: 1...3)
    func everyQuestionIsValidOverThousandsOfSeeds(difficulty: Int) {
        var hidden = Set<Int>()
        var operations = Set<ArithmeticOperation>()
        for seed in 0..<5000 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            let q = ArithmeticQuestionGenerator.question(difficulty: difficulty, using: &generator)
            Self.checkRules(q, difficulty: difficulty)
            hidden.insert(q.hiddenPosition)
            operations.insert(q.operation)
        }
        // Every position is hidden at some point, the last one included.
        #expect(hidden == Set(0..<difficulty))
        #expect(operations == Set(ArithmeticOperation.allCases))
    }

    @Test(arguments: 4...6)
    func higherDifficultiesAlsoFollowTheRules(difficulty: Int) {
        for seed in 0..<500 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            Self.checkRules(ArithmeticQuestionGenerator.question(difficulty: difficulty, using: &generator), difficulty: difficulty)
        }
    }

    @Test func hiddenPositionIsUniformIncludingTheLastDigit() {
        var counts = [0, 0, 0]
        for seed in 0..<9000 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            counts[ArithmeticQuestionGenerator.question(difficulty: 3, using: &generator).hiddenPosition] += 1
        }
        for count in counts { #expect(abs(count - 3000) < 250, "\(counts)") }
    }

    @Test func operationsAreUniform() {
        var counts: [ArithmeticOperation: Int] = [:]
        for seed in 0..<8000 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            counts[ArithmeticQuestionGenerator.question(difficulty: 2, using: &generator).operation, default: 0] += 1
        }
        for operation in ArithmeticOperation.allCases {
            #expect(abs(counts[operation, default: 0] - 2000) < 200, "\(counts)")
        }
    }

    @Test func singleDigitMultiplicationsAreTheOnlyPossibleOnes() {
        var products = Set<Int>()
        for seed in 0..<3000 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            let (a, b) = ArithmeticQuestionGenerator.operands(.multiplication, difficulty: 1, using: &generator)
            products.insert(a * b)
        }
        #expect(products == [4, 6, 8, 9])
    }

    @Test func integerSquareRoot() {
        #expect(ArithmeticQuestionGenerator.squareRoot(9) == 3)
        #expect(ArithmeticQuestionGenerator.squareRoot(99) == 9)
        #expect(ArithmeticQuestionGenerator.squareRoot(999) == 31)
        #expect(ArithmeticQuestionGenerator.squareRoot(0) == 0)
    }
}
