/// The Add-One game kind (the Fish game, issue 15): a number of 2–6 digits
/// is shown, and the racer writes it with every digit plus one, 9 becoming
/// 0 (`2139` → `3240`). Written left to right on a wide pad, read by
/// `Recognizer.readNumber`, or typed on the on-screen keypad.
///
/// Question `index` is drawn from `SeededGenerator(seed:stream:)` with
/// `stream = index`: first the length (`AddOneSchedule`), then each digit
/// uniformly in 0…9, leading zeros included. It depends on nothing else, so
/// every racer gets the same questions in the same order.
public struct AddOne: GameKind {
    public typealias Question = AddOneQuestion
    public typealias Prompt = AddOnePrompt
    public typealias Answer = DigitString

    public init() {}

    public var identifier: String { "addone" }

    public var names: LocalizedName { LocalizedName(en: "Add-One Fish", zh: "小鱼加一") }

    public var normalQuestionCount: Int { AddOneSchedule.normal.count }

    /// The whole answer, written on the pad (or typed on the keypad).
    public var answerInput: AnswerInput { .drawnNumber }

    /// A racer may bring a pet fish, whose best score the result raises.
    public var playsWithFish: Bool { true }

    /// The digits read, whatever their count: a reading of the wrong length
    /// is a wrong answer (graded, and shown as read), not an unreadable one.
    public func answer(handwritten: HandwrittenAnswer) -> DigitString? {
        DigitString(digits: handwritten.digits)
    }

    public func question(seed: UInt64, index: Int, mode: GameMode) -> AddOneQuestion {
        var generator = SeededGenerator(seed: seed, stream: UInt64(index))
        let length = AddOneSchedule.length(mode: mode, index: index, using: &generator)
        let digits = (0..<length).map { _ in generator.int(in: 0...9) }
        return AddOneQuestion(digits: DigitString(digits: digits)!)!
    }

    public func prompt(for question: AddOneQuestion) -> AddOnePrompt {
        AddOnePrompt(question)
    }

    public func correctAnswer(to question: AddOneQuestion) -> DigitString {
        question.answer
    }

    /// `max(15 × digits − whole seconds, 0)` (docs/rules.md, "Add-One").
    public func points(for question: AddOneQuestion, secondsSpent: Int) -> Int {
        Self.points(length: question.difficulty, secondsSpent: secondsSpent)
    }

    public static func points(length: Int, secondsSpent: Int) -> Int {
        max(15 * length - max(secondsSpent, 0), 0)
    }
}
