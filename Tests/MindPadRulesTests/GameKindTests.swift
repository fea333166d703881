import Testing

@testable import MindPadRules

/// A second game kind, written only against the public protocol, to show a
/// new game plugs into rooms and races unchanged: the Add-One digits race
/// (seed 002: "2139 becomes 3240"; 9 wraps to 0).
struct AddOneDigits: GameKind {
    struct Question: Sendable, Hashable, Codable {
        let digits: String
    }

    var identifier: String { "add-one" }
    var names: LocalizedName { LocalizedName(en: "Add One", zh: "加一") }
    var normalQuestionCount: Int { 5 }
    var answerInput: AnswerInput { .drawnNumber }

    func question(seed: UInt64, index: Int, mode: GameMode) -> Question {
        var generator = SeededGenerator(seed: seed, stream: UInt64(index))
        let length = 3 + min(index / 3, 5)
        return Question(digits: String((0..<length).map { _ in Character(String(generator.int(in: 0...9))) }))
    }

    func prompt(for question: Question) -> Question { question }

    func correctAnswer(to question: Question) -> String {
        String(question.digits.map { Character(String((Int(String($0))! + 1) % 10)) })
    }

    func points(for question: Question, secondsSpent: Int) -> Int {
        max(10 * question.digits.count - secondsSpent, 0)
    }
}

@Suite struct GameKindTests {
    @Test func anotherKindRacesThroughTheSameMachine() {
        var race = RaceHarness(kind: AddOneDigits(), configuration: RaceConfiguration(mode: .normal))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        #expect(race.lastQuestion(for: "ann")?.question.digits.count == 3)
        for _ in 0..<5 {
            race.wait(.seconds(2))
            race.answerCorrectly("ann")
            race.answer("bo", "nope")
        }
        let standings = race.log.standings.first!
        #expect(standings.entries.map(\.result.player) == ["ann", "bo"])
        #expect(standings.entries[0].result.kind == "add-one")
        #expect(standings.entries[0].result.score == 3 * 28 + 2 * 38)
        #expect(standings.entries[1].result.wrong == 5)
    }

    @Test func theCatalogEntryDefaultsToEveryModeAndHigherFirst() {
        let info = AddOneDigits().info
        #expect(info.modes == [.normal, .survival, .timeAttack])
        #expect(info.boardOrder == .higherFirst)
        #expect(info.answerInput.isHandwriting)
        // The default reads no handwriting; MindPad reads exactly one digit.
        #expect(AddOneDigits().answer(handwritten: HandwrittenAnswer(digits: [1, 2])) == nil)
        #expect(MindPadArithmetic().answer(handwritten: HandwrittenAnswer(digits: [7])) == Digit(7))
        #expect(MindPadArithmetic().answer(handwritten: HandwrittenAnswer(digits: [1, 7])) == nil)
        #expect(MindPadArithmetic().answer(handwritten: HandwrittenAnswer(digits: [])) == nil)
    }

    @Test func addOneExample() {
        #expect(AddOneDigits().correctAnswer(to: .init(digits: "2139")) == "3240")
        #expect(AddOneDigits().isCorrect("3240", to: .init(digits: "2139")))
    }
}
