import MindPadRules

/// A second game kind that exists only in the tests: pick the largest of
/// three numbers by tapping it. It is registered next to MindPad to show
/// that a kind is its own type plus one registration line, and that a tap
/// answer, a `Codable` prompt and its own leaderboard work end to end.
struct QuickPick: GameKind {
    struct Question: Sendable, Hashable {
        let options: [Int]
    }

    struct Prompt: Sendable, Hashable, Codable {
        let options: [Int]
        let instruction: String
    }

    /// The tapped option, 0-based.
    struct Answer: Sendable, Hashable, Codable {
        let optionIndex: Int
    }

    var identifier: String { "quick_pick" }
    var names: LocalizedName { LocalizedName(en: "Quick Pick", zh: "快选") }
    var modes: [GameMode] { [.normal, .timeAttack] }
    var normalQuestionCount: Int { 3 }
    var answerInput: AnswerInput { .choice }

    func question(seed: UInt64, index: Int, mode: GameMode) -> Question {
        var generator = SeededGenerator(seed: seed, stream: UInt64(index))
        var options: [Int] = []
        while options.count < 3 {
            let n = generator.int(in: 1...99)
            if !options.contains(n) { options.append(n) }
        }
        return Question(options: options)
    }

    func prompt(for question: Question) -> Prompt {
        Prompt(options: question.options, instruction: "Tap the largest")
    }

    func correctAnswer(to question: Question) -> Answer {
        Answer(optionIndex: question.options.firstIndex(of: question.options.max()!)!)
    }

    func points(for question: Question, secondsSpent: Int) -> Int {
        max(10 - secondsSpent, 1)
    }
}
