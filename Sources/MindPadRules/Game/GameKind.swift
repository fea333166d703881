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
}

extension GameKind {
    public var modes: [GameMode] { GameMode.allCases }

    public var boardOrder: BoardOrder { .higherFirst }

    public var playsWithFish: Bool { false }

    public var levels: [LocalizedName] { [] }

    public var passMark: Int? { nil }

    public func question(seed: UInt64, index: Int, mode: GameMode, level: Int?) -> Question {
        question(seed: seed, index: index, mode: mode)
    }

    public func isDrawable(_ question: Question) -> Bool { answerInput.isHandwriting }

    public func answer(handwritten: HandwrittenAnswer) -> Answer? { nil }

    public func isCorrect(_ answer: Answer, to question: Question) -> Bool {
        answer == correctAnswer(to: question)
    }
}
