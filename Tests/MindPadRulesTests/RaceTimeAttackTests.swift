import Testing

@testable import MindPadRules

@Suite struct RaceTimeAttackTests {
    static func startedRace(length: RaceDuration = .seconds(150)) -> RaceHarness<MindPadArithmetic> {
        var race = RaceHarness(RaceConfiguration(mode: .timeAttack, timeAttackLength: length))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        return race
    }

    @Test func endsAtExactlyTheRaceLengthForEveryone() {
        var race = Self.startedRace()
        let start = RaceInstant(milliseconds: 3000)
        let end = start + .seconds(150)
        #expect(race.machine.phase == .running(startedAt: start, endsAt: end))
        #expect(race.timer == end)
        #expect(race.log.contains(.raceStarted(round: 1, mode: .timeAttack, startedAt: start, endsAt: end)))
        // A wrong answer ends nothing; each correct answer is one point.
        race.wait(.seconds(10))
        #expect(race.answerWrongly("ann").outcomes.first?.finishedRun == false)
        #expect(race.answerCorrectly("ann").outcomes.first?.points == 1)
        // One millisecond before the end still counts.
        race.now = end + .milliseconds(-1)
        #expect(race.answerCorrectly("bo").outcomes.first?.isCorrect == true)
        // At the end instant, even before the tick arrives, it is over.
        race.now = end
        let late = race.answerCorrectly("ann")
        #expect(late.rejectionCodes == ["race_over"])
        #expect(late.standings.count == 1)
        let results = late.results
        #expect(results.map(\.player) == ["ann", "bo"])
        #expect(results.allSatisfy { $0.duration == .seconds(150) && $0.completed })
        // Tie on 1 point: Ann got hers at 10 s, Bo at 149.999 s.
        #expect(late.standings.first?.entries.map(\.result.player) == ["ann", "bo"])
        #expect(results[0].scoreReachedAfter == .seconds(10))
        #expect(results[1].scoreReachedAfter == .milliseconds(149_999))
        #expect(late.contains(.cancelTick))
    }

    @Test func aLateTimerChangesNothing() {
        var race = Self.startedRace(length: .seconds(5))
        race.wait(.seconds(1))
        race.answerCorrectly("bo")
        race.answerCorrectly("bo")
        // The owner's timer fires 40 s late.
        race.wait(.seconds(44))
        let effects = race.send(.tick)
        #expect(effects.results.allSatisfy { $0.duration == .seconds(5) })
        #expect(effects.standings.first?.entries.map(\.result.score) == [2, 0])
        #expect(effects.standings.first?.winner?.player == "bo")
    }

    @Test func scoreIsTheNumberOfCorrectAnswers() {
        var race = Self.startedRace(length: .seconds(30))
        for _ in 0..<7 { race.answerCorrectly("ann") }
        for _ in 0..<3 { race.answerWrongly("ann") }
        for _ in 0..<8 { race.answerCorrectly("bo") }
        race.fireTimer()
        let standings = race.log.standings.first!
        #expect(standings.entries.map(\.result.player) == ["bo", "ann"])
        #expect(standings.entries.map(\.result.score) == [8, 7])
        #expect(standings.entries[1].result.wrong == 3)
    }

    @Test func aRacerWhoLeftKeepsTheirScoreAndTheRestPlayOn() {
        var race = Self.startedRace(length: .seconds(60))
        for _ in 0..<5 { race.answerCorrectly("ann") }
        race.wait(.seconds(20))
        let left = race.send(.leave("ann"))
        #expect(left.results.first?.duration == .seconds(20))
        #expect(left.results.first?.completed == false)
        #expect(race.machine.phase != .finished)
        race.answerCorrectly("bo")
        race.fireTimer()
        // Ann still wins on 5 correct answers.
        #expect(race.log.standings.first?.entries.map(\.result.player) == ["ann", "bo"])
        #expect(race.now == RaceInstant(milliseconds: 63_000))
    }
}
