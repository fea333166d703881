/// The MindPad game kind: arithmetic with one hidden digit of the result.
///
/// Question `index` of a race is drawn from `SeededGenerator(seed:stream:)`
/// with `stream = index`: first the difficulty (`DifficultySchedule`), then
/// the question (`ArithmeticQuestionGenerator`). It depends on nothing else,
/// so every racer gets the same questions in the same order.
public struct MindPadArithmetic: GameKind {
    public typealias Question = ArithmeticQuestion
    public typealias Prompt = ArithmeticPrompt
    public typealias Answer = Digit

    public init() {}

    public var identifier: String { "mindpad" }

    public var names: LocalizedName { LocalizedName(en: "MindPad", zh: "心算板") }

    public var normalQuestionCount: Int { DifficultySchedule.normal.count }

    /// The missing digit, written on the pad.
    public var answerInput: AnswerInput { .drawnDigit }

    public func answer(handwritten: HandwrittenAnswer) -> Digit? {
        guard handwritten.digits.count == 1 else { return nil }
        return Digit(handwritten.digits[0])
    }

    public func question(seed: UInt64, index: Int, mode: GameMode) -> ArithmeticQuestion {
        var generator = SeededGenerator(seed: seed, stream: UInt64(index))
        let difficulty = DifficultySchedule.difficulty(mode: mode, index: index, using: &generator)
        return ArithmeticQuestionGenerator.question(difficulty: difficulty, using: &generator)
    }

    public func prompt(for question: ArithmeticQuestion) -> ArithmeticPrompt {
        ArithmeticPrompt(question)
    }

    public func correctAnswer(to question: ArithmeticQuestion) -> Digit {
        question.answer
    }

    /// The original app's formula: `max(30 × difficulty − whole seconds, 0)`.
    public func points(for question: ArithmeticQuestion, secondsSpent: Int) -> Int {
        Self.points(difficulty: question.difficulty, secondsSpent: secondsSpent)
    }

    public static func points(difficulty: Int, secondsSpent: Int) -> Int {
        max(30 * difficulty - max(secondsSpent, 0), 0)
    }
}

/// A MindPad room: the race machine playing the arithmetic kind.
public typealias MindPadRace = RaceStateMachine<MindPadArithmetic>
