/// One game that can be raced: what a question is, what an answer is, and
/// what a correct answer is worth.
///
/// Rooms, races, modes, timing, standings and storage never look inside a
/// question or an answer, so a new game (the Add-One digits race, the grid
/// path finder, kids' exercises with levels) is one new conforming type; the
/// race machine is generic over it. See docs/rules.md, "Adding a game kind".
///
/// Requirements for fairness: `question(seed:index:mode:)` must be a pure
/// function of its arguments (use `SeededGenerator(seed:stream:)`), so every
/// racer gets the same `index`-th question, on every server build, forever.
public protocol GameKind: Sendable {
    /// A question with everything needed to grade it. Stays on the server.
    associatedtype Question: Sendable, Hashable
    /// What the racer is shown: the question without its answer. `Codable`
    /// so the owner can send it as is.
    associatedtype Prompt: Sendable, Hashable, Codable
    /// What the racer submits. `Codable` so the owner can decode it as is.
    associatedtype Answer: Sendable, Hashable, Codable
    /// What a racer's inputs so far did to the question they are on, for a
    /// question that takes several inputs (the path finder's guess, then its
    /// moves). Kept by the race machine per racer, fresh for every question
    /// (`attempt(for:)`). A kind answered in one go keeps `NoAttempt`.
    associatedtype Attempt: Sendable & Hashable = NoAttempt

    /// A stable identifier stored with every result, e.g. `"mindpad"`:
    /// lower-case letters, digits and `_`, starting with a letter, ≤ 32.
    var identifier: String { get }

    /// The game's name in the client's languages.
    var names: LocalizedName { get }

    /// The modes the game offers (default: all three), in menu order.
    var modes: [GameMode] { get }

    /// How many questions a Normal race has.
    var normalQuestionCount: Int { get }

    /// How the racer answers: handwriting (read on the server), a tap or a move.
    var answerInput: AnswerInput { get }

    /// Which end of the game's leaderboards is the top (default: higher first).
    var boardOrder: BoardOrder { get }

    /// Whether a racer may bring a pet fish (`create_room`/`join_room`
    /// `fish`), whose best score their results raise. Default false.
    var playsWithFish: Bool { get }

    /// The answer a handwritten reading stands for, or nil when it cannot
    /// be one (a kind of drawn digits given two digits). Only asked of kinds
    /// whose `answerInput` is handwriting; the default reads nothing.
    func answer(handwritten: HandwrittenAnswer) -> Answer?

    /// The levels of the game's ladder, in order: level n (1-based) is
    /// `levels[n - 1]`. Empty (the default) for a game without levels. A
    /// race of a game with levels plays one level (`RaceConfiguration.level`).
    var levels: [LocalizedName] { get }

    /// Correct answers out of a Normal race's `normalQuestionCount` that
    /// pass a level and open the next one (`LevelLadder`); nil (the default)
    /// for a game without levels.
    var passMark: Int? { get }

    /// A family of games that share one client module and home (the nine
    /// kids' exercises: `kids`), so that a client finds a game's module
    /// from the catalog rather than from its id; nil (the default) for a
    /// game on its own. `[a-z][a-z0-9_]*`.
    var group: String? { get }

    /// What a score stands for on the game's boards, when it is a value of
    /// the game's own kept as an integer: the score is the rank value × this
    /// (the path finder's 1000), and boards show `rank_value` = score ÷ this.
    /// Nil (the default): the score is the value.
    var scorePerRankValue: Int? { get }

    /// The `index`-th question (0-based) of a race played with `seed` in `mode`.
    func question(seed: UInt64, index: Int, mode: GameMode) -> Question

    /// The `index`-th question of a race of one `level` (1-based; nil for a
    /// game without levels). The default ignores the level; a kind with
    /// levels implements it, and the race machine always asks this one.
    func question(seed: UInt64, index: Int, mode: GameMode, level: Int?) -> Question

    /// Whether the racer may write the answer to `question` on the pad. The
    /// default: exactly when the game is answered in handwriting. A
    /// `choice_or_digit` kind says yes when the right answer is one digit.
    func isDrawable(_ question: Question) -> Bool

    /// The client-safe form of `question` (it must not reveal the answer).
    func prompt(for question: Question) -> Prompt

    /// The answer that is graded correct.
    func correctAnswer(to question: Question) -> Answer

    /// Whether `answer` is correct. Defaults to equality with
    /// `correctAnswer(to:)`; a kind with several right answers overrides it.
    func isCorrect(_ answer: Answer, to question: Question) -> Bool

    /// Points for a correct answer in Normal and Survival, given the whole
    /// seconds the racer spent on the question. (Time Attack counts correct
    /// answers instead and never asks.)
    func points(for question: Question, secondsSpent: Int) -> Int

    // MARK: Questions that take several inputs (defaults: one answer each)

    /// A racer's attempt at `question` before their first input.
    func attempt(for question: Question) -> Attempt

    /// Why `answer` is no answer at all to `question` as `attempt` left it,
    /// by a rule of the game (not merely a wrong one): refused with this
    /// error before it is judged, counted or stored. `drawn`: it was read
    /// from the racer's handwriting (a kind may take any digit written but
    /// only its options tapped). Default nil: every answer of the kind's
    /// `Answer` type is judged.
    func refusal(of answer: Answer, to question: Question, attempt: Attempt, drawn: Bool) -> RaceError?

    /// What `answer` does to `attempt` at `question`, `after` the question
    /// was sent: graded (the usual), a retry, a step within the question,
    /// or refused (then `attempt` must be left as it was). The default
    /// grades `isCorrect(_:to:)`.
    func judge(_ answer: Answer, to question: Question, attempt: inout Attempt, after: RaceDuration) -> AnswerVerdict

    /// The question as it stands after the racer's inputs so far (after a
    /// reconnect, the robot where it stood). Default `prompt(for:)`.
    func prompt(for question: Question, attempt: Attempt) -> Prompt

    /// Which reading a drawing on the pad gets now (`.drawnDigit` or
    /// `.drawnNumber`), or nil when the question in its current state takes
    /// no drawing. Default: from `isDrawable(_:)` and `answerInput`.
    func handwriting(for question: Question, attempt: Attempt) -> AnswerInput?

    /// A number shown in live progress (the path finder: the robot's
    /// distance to the goal). Default nil.
    func remaining(in question: Question, attempt: Attempt) -> Int?

    /// Points for a correct answer in Normal and Survival, `time` after the
    /// question was sent. Default: `points(for:secondsSpent:)` with the
    /// whole seconds.
    func points(for question: Question, attempt: Attempt, time: RaceDuration) -> Int

    /// What the kind adds to a racer's result (`PlayerResult.detail`).
    /// `sentAfter`: when the question was sent, from the race start;
    /// `endedAfter`: when the run ended by the rules, from the race start
    /// (nil if the racer left). Default nil.
    func detail(of question: Question, attempt: Attempt, sentAfter: RaceDuration, endedAfter: RaceDuration?) -> ResultDetail?

    /// Whether a graded `answer` belongs in the run's answer log (reviews
    /// and replays, `AnswerOutcome.isReviewable`). Default true; the path
    /// finder says no for its moves: steering is not answering.
    func isReviewable(_ answer: Answer) -> Bool
}

/// The attempt of a kind whose questions take one answer each.
public struct NoAttempt: Sendable, Hashable {
    public init() {}
}

/// What one input did to a question (`GameKind.judge`).
public enum AnswerVerdict: Sendable, Hashable {
    /// The question is answered, right or wrong: scored as always.
    case graded(correct: Bool)
    /// Wrong, but the question stays open: nothing scored, the same question
    /// is sent again (the path finder's wrong guess).
    case tryAgain
    /// Accepted, and the question goes on: it is sent again as it now stands
    /// (the path finder's right guess, or a move that did not reach the goal).
    case step
    /// Not counted, nothing changed (a move off the grid).
    case refused(RaceError)
}

extension GameKind {
    public var modes: [GameMode] { GameMode.allCases }

    public var boardOrder: BoardOrder { .higherFirst }

    public var playsWithFish: Bool { false }

    public var levels: [LocalizedName] { [] }

    public var passMark: Int? { nil }

    public var group: String? { nil }

    public var scorePerRankValue: Int? { nil }

    public func question(seed: UInt64, index: Int, mode: GameMode, level: Int?) -> Question {
        question(seed: seed, index: index, mode: mode)
    }

    public func isDrawable(_ question: Question) -> Bool { answerInput.isHandwriting }

    public func answer(handwritten: HandwrittenAnswer) -> Answer? { nil }

    public func isCorrect(_ answer: Answer, to question: Question) -> Bool {
        answer == correctAnswer(to: question)
    }

    public func refusal(of answer: Answer, to question: Question, attempt: Attempt, drawn: Bool) -> RaceError? { nil }

    public func judge(_ answer: Answer, to question: Question, attempt: inout Attempt, after: RaceDuration) -> AnswerVerdict {
        .graded(correct: isCorrect(answer, to: question))
    }

    public func prompt(for question: Question, attempt: Attempt) -> Prompt { prompt(for: question) }

    public func handwriting(for question: Question, attempt: Attempt) -> AnswerInput? {
        guard answerInput.acceptsDrawing, isDrawable(question) else { return nil }
        // A choice_or_digit question's drawing is one digit.
        return answerInput.isHandwriting ? answerInput : .drawnDigit
    }

    public func remaining(in question: Question, attempt: Attempt) -> Int? { nil }

    public func points(for question: Question, attempt: Attempt, time: RaceDuration) -> Int {
        points(for: question, secondsSpent: Int(time.wholeSeconds))
    }

    public func detail(of question: Question, attempt: Attempt, sentAfter: RaceDuration, endedAfter: RaceDuration?) -> ResultDetail? {
        nil
    }

    public func isReviewable(_ answer: Answer) -> Bool { true }
}

extension GameKind where Attempt == NoAttempt {
    public func attempt(for question: Question) -> NoAttempt { NoAttempt() }
}
