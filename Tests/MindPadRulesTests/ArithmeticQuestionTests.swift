import Testing

@testable import MindPadRules

@Suite struct ArithmeticQuestionTests {
    @Test func rendersWithRealAndAsciiSigns() throws {
        let add = try #require(ArithmeticQuestion(lhs: 47, operation: .addition, rhs: 38, hiddenPosition: 1))
        #expect(add.result == 85)
        #expect(add.text == "47 + 38 = 8?")
        #expect(add.asciiText == "47 + 38 = 8?")
        #expect(add.answer == Digit(5))
        #expect(add.difficulty == 2)

        let sub = try #require(ArithmeticQuestion(lhs: 81, operation: .subtraction, rhs: 7, hiddenPosition: 0))
        #expect(sub.text == "81 \u{2212} 7 = ?4")
        #expect(sub.asciiText == "81 - 7 = ?4")
        #expect(sub.answer == Digit(7))

        let mul = try #require(ArithmeticQuestion(lhs: 6, operation: .multiplication, rhs: 7, hiddenPosition: 0))
        #expect(mul.text == "6 × 7 = ?2")
        #expect(mul.asciiText == "6 * 7 = ?2")

        let div = try #require(ArithmeticQuestion(lhs: 56, operation: .division, rhs: 8, hiddenPosition: 0))
        #expect(div.text == "56 ÷ 8 = ?")
        #expect(div.asciiText == "56 / 8 = ?")
        #expect(div.answer == Digit(7))
        #expect(div.difficulty == 1)
    }

    @Test func refusesBrokenRules() {
        #expect(ArithmeticQuestion(lhs: 3, operation: .subtraction, rhs: 5, hiddenPosition: 0) == nil)
        #expect(ArithmeticQuestion(lhs: 7, operation: .division, rhs: 2, hiddenPosition: 0) == nil)
        #expect(ArithmeticQuestion(lhs: 7, operation: .division, rhs: 1, hiddenPosition: 0) == nil)
        #expect(ArithmeticQuestion(lhs: 7, operation: .division, rhs: 0, hiddenPosition: 0) == nil)
        #expect(ArithmeticQuestion(lhs: 7, operation: .multiplication, rhs: 1, hiddenPosition: 0) == nil)
        #expect(ArithmeticQuestion(lhs: 0, operation: .multiplication, rhs: 7, hiddenPosition: 0) == nil)
        #expect(ArithmeticQuestion(lhs: 2, operation: .addition, rhs: 3, hiddenPosition: 1) == nil)
        #expect(ArithmeticQuestion(lhs: 2, operation: .addition, rhs: 3, hiddenPosition: -1) == nil)
        #expect(ArithmeticQuestion(lhs: -2, operation: .addition, rhs: 3, hiddenPosition: 0) == nil)
    }

    @Test func hidesTheLastDigitToo() throws {
        let question = try #require(ArithmeticQuestion(lhs: 500, operation: .addition, rhs: 123, hiddenPosition: 2))
        #expect(question.maskedResult == "62?")
        #expect(question.answer == Digit(3))
    }

    @Test func promptCarriesNoAnswer() throws {
        let question = try #require(ArithmeticQuestion(lhs: 47, operation: .addition, rhs: 38, hiddenPosition: 1))
        let prompt = ArithmeticPrompt(question)
        #expect(prompt.maskedResult == "8?")
        #expect(prompt.text == "47 + 38 = 8?")
        #expect(prompt.difficulty == 2)
        #expect(prompt.hiddenPosition == 1)
        // No stored property of the prompt holds the result or the answer.
        let stored = Mirror(reflecting: prompt).children.compactMap(\.label)
        #expect(!stored.contains("result") && !stored.contains("answer"))
    }

    @Test func digitAcceptsOnlyZeroToNine() {
        #expect(Digit(0)?.value == 0)
        #expect(Digit(9)?.value == 9)
        #expect(Digit(10) == nil)
        #expect(Digit(-1) == nil)
    }
}
