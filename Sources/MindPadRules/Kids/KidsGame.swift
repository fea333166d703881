/// A kids' exercise as a game kind (issue 17): ten questions a level, one
/// point per right answer, answered by tapping an option or, when the
/// answer is one digit, by writing it on the pad (`choice_or_digit`).
///
/// Question `index` of a race at `level` is drawn from
/// `SeededGenerator(seed:stream:)` with `stream = index`, by the exercise's
/// generator at that level. It depends on nothing else, so everyone racing
/// the level in a room gets the same questions in the same order.
public struct KidsGame: GameKind {
    public typealias Question = KidsQuestion
    public typealias Prompt = KidsPrompt
    public typealias Answer = KidsAnswer

    public let exercise: KidsExercise

    public init(_ exercise: KidsExercise) {
        self.exercise = exercise
    }

    /// Every kids' game, in menu order.
    public static var all: [KidsGame] { KidsExercise.allCases.map(KidsGame.init) }

    public var identifier: String { exercise.identifier }

    public var names: LocalizedName { exercise.names }

    /// A level is one Normal race.
    public var modes: [GameMode] { [.normal] }

    public var normalQuestionCount: Int { KidsLevel.questionCount }

    public var answerInput: AnswerInput { .choiceOrDigit }

    public var levels: [LocalizedName] { KidsLevel.names }

    public var passMark: Int? { KidsLevel.passMark }

    /// One client module and one corner for the nine.
    public var group: String? { "kids" }

    /// One digit written on the pad is that digit's option.
    public func answer(handwritten: HandwrittenAnswer) -> KidsAnswer? {
        guard handwritten.digits.count == 1, (0...9).contains(handwritten.digits[0]) else { return nil }
        return KidsAnswer(String(handwritten.digits[0]))
    }

    /// Level 1 when no level is given.
    public func question(seed: UInt64, index: Int, mode: GameMode) -> KidsQuestion {
        question(seed: seed, index: index, mode: mode, level: nil)
    }

    public func question(seed: UInt64, index: Int, mode: GameMode, level: Int?) -> KidsQuestion {
        var generator = SeededGenerator(seed: seed, stream: UInt64(index))
        let level = min(max(level ?? 1, KidsLevel.levels.lowerBound), KidsLevel.levels.upperBound)
        return exercise.question(level: level, using: &generator)
    }

    public func isDrawable(_ question: KidsQuestion) -> Bool { question.isDrawable }

    public func prompt(for question: KidsQuestion) -> KidsPrompt {
        KidsPrompt(question)
    }

    /// A tapped value must be one of the question's options (a crafted
    /// `"9"` beside options 4, 5 and 6 is no tap at all); a digit written on
    /// the pad of a drawable question may be any digit, and a wrong one is
    /// graded wrong.
    public func refusal(of answer: KidsAnswer, to question: KidsQuestion, attempt: NoAttempt, drawn: Bool) -> RaceError? {
        if drawn && question.isDrawable { return nil }
        guard !question.options.contains(where: { $0.value == answer.value }) else { return nil }
        let values = question.options.map(\.value).joined(separator: ", ")
        return .badAnswer("\"\(answer.value)\" is not one of this question's options (\(values)); tap one of them.")
    }

    public func correctAnswer(to question: KidsQuestion) -> KidsAnswer {
        KidsAnswer(question.answer)!
    }

    /// One point per right answer, however long it took: the score is the
    /// number of right answers (ties broken by time, as on every board).
    public func points(for question: KidsQuestion, secondsSpent: Int) -> Int { 1 }
}
