import MindPadJSON
import MindPadRules

/// The fifth kind (issue 44), in the test target only: a game the server
/// has never heard of, with a detail, a replay part and a route of its own,
/// to show that adding a kind is its own folder and one registration line.
///
/// One question per race: a target count (3…7) is shown; the racer taps
/// "+1" (option 0) until the counter shows it, then "done" (option 1). Each
/// "+1" is a step; "done" grades the count. Lower is better: the score is
/// the tapping time in ms, so the boards' rank value is seconds
/// (`scorePerRankValue` 1000).
struct Tally: GameKind {
    struct Question: Sendable, Hashable {
        let target: Int
    }

    struct Prompt: Sendable, Hashable, Codable {
        let target: Int
        let count: Int
        let options: [String]
    }

    /// 0: "+1", 1: "done".
    struct Answer: Sendable, Hashable, Codable {
        let optionIndex: Int
    }

    struct Attempt: Sendable, Hashable {
        var count = 0
        /// When each "+1" came, from the question.
        var taps: [RaceDuration] = []
        var doneAfter: RaceDuration?
    }

    /// What a Tally result adds: `{"tally": {...}}`; the tap times are the
    /// replay's part.
    struct Detail: Codable {
        struct Round: Codable {
            let target: Int
            let count: Int
            let doneMs: Int?
        }
        let tally: Round
    }

    var identifier: String { "tally" }
    var names: LocalizedName { LocalizedName(en: "Tally", zh: "计数") }
    var modes: [GameMode] { [.normal] }
    var normalQuestionCount: Int { 1 }
    var answerInput: AnswerInput { .choice }
    var boardOrder: BoardOrder { .lowerFirst }
    var scorePerRankValue: Int? { 1000 }

    func question(seed: UInt64, index: Int, mode: GameMode) -> Question {
        var generator = SeededGenerator(seed: seed, stream: UInt64(index))
        return Question(target: generator.int(in: 3...7))
    }

    func prompt(for question: Question) -> Prompt { prompt(for: question, attempt: Attempt()) }

    func prompt(for question: Question, attempt: Attempt) -> Prompt {
        Prompt(target: question.target, count: attempt.count, options: ["+1", "done"])
    }

    func correctAnswer(to question: Question) -> Answer { Answer(optionIndex: 1) }

    func attempt(for question: Question) -> Attempt { Attempt() }

    func refusal(of answer: Answer, to question: Question, attempt: Attempt, drawn: Bool) -> RaceError? {
        (0...1).contains(answer.optionIndex) ? nil : .badAnswer("Tap +1 (0) or done (1).")
    }

    func judge(_ answer: Answer, to question: Question, attempt: inout Attempt, after: RaceDuration) -> AnswerVerdict {
        guard answer.optionIndex == 1 else {
            attempt.count += 1
            attempt.taps.append(after)
            return .step
        }
        attempt.doneAfter = after
        return .graded(correct: attempt.count == question.target)
    }

    func isReviewable(_ answer: Answer) -> Bool { answer.optionIndex == 1 }

    func points(for question: Question, secondsSpent: Int) -> Int { secondsSpent * 1000 }

    func points(for question: Question, attempt: Attempt, time: RaceDuration) -> Int { Int(time.milliseconds) }

    func detail(of question: Question, attempt: Attempt, sentAfter: RaceDuration, endedAfter: RaceDuration?) -> ResultDetail? {
        let round = Detail(tally: Detail.Round(target: question.target, count: attempt.count,
                                               doneMs: attempt.doneAfter.map { Int((sentAfter + $0).milliseconds) }))
        let taps = attempt.taps.map { JSON.int(Int((sentAfter + $0).milliseconds)) }
        return ResultDetail(round, replay: .object([("tally", .object([("tap_ms", .array(taps))]))]))
    }
}
