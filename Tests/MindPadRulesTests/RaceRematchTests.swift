import Testing

@testable import MindPadRules

@Suite struct RaceRematchTests {
    static func finishedRace() -> RaceHarness<MindPadArithmetic> {
        var race = RaceHarness(RaceConfiguration(mode: .normal, maxPlayers: 2), seed: 42)
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        race.send(.join("cy", name: name("Cy")))  // spectates this round
        for _ in 0..<10 {
            race.answerCorrectly("ann")
            race.answerCorrectly("bo")
        }
        return race
    }

    @Test func rematchIsTheSameRoomWithANewSeed() {
        var race = Self.finishedRace()
        #expect(race.machine.phase == .finished)
        #expect(race.send(.rematch(by: "bo", seed: 7)).rejectionCodes == ["not_host"])
        let effects = race.send(.rematch(by: "ann", seed: 7))
        #expect(race.machine.phase == .lobby)
        #expect(race.machine.round == 2 && race.machine.seed == 7)
        #expect(effects.snapshots.last?.round == 2)
        #expect(race.machine.snapshot.members.map(\.id) == ["ann", "bo", "cy"])
        race.send(.start(by: "ann"))
        let started = race.fireTimer()
        let first = started.questions.first!
        #expect(first.id == QuestionID(round: 2, index: 0))
        #expect(first.question == MindPadArithmetic().question(seed: 7, index: 0, mode: .normal))
        // An answer quoting round 1 is stale.
        #expect(race.send(.answer("ann", question: QuestionID(round: 1, index: 9), Digit(0)!)).rejectionCodes == ["stale_question"])
        // Round 2's results carry round 2 and the new seed.
        for _ in 0..<10 {
            race.answerCorrectly("ann")
            race.answerCorrectly("bo")
        }
        let round2 = race.log.results.filter { $0.round == 2 }
        #expect(round2.count == 2 && round2.allSatisfy { $0.seed == 7 })
    }

    @Test func spectatorsTakeFreedSeatsAtTheRematch() {
        var race = Self.finishedRace()
        race.send(.leave("bo"))
        race.send(.rematch(by: "ann", seed: 9))
        #expect(race.machine.snapshot.members.map(\.role) == [.racer, .racer])
        #expect(race.machine.snapshot.members.map(\.id) == ["ann", "cy"])
        race.send(.start(by: "ann"))
        #expect(race.fireTimer().questions.map(\.player) == ["ann", "cy"])
    }

    @Test func rematchOnlyAfterTheFinish() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("ann", name: name("Ann")))
        #expect(race.send(.rematch(by: "ann", seed: 1)).rejectionCodes == ["race_not_finished"])
        race.send(.start(by: "ann"))
        race.fireTimer()
        #expect(race.send(.rematch(by: "ann", seed: 1)).rejectionCodes == ["race_not_finished"])
    }

    @Test func readyFlagsResetForTheRematch() {
        var race = RaceHarness(RaceConfiguration(mode: .survival, requireReady: true))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.setReady("bo", true))
        race.send(.start(by: "ann"))
        race.fireTimer()
        race.answerWrongly("ann")
        race.answerWrongly("bo")
        race.send(.rematch(by: "ann", seed: 3))
        #expect(race.machine.snapshot.members.map(\.isReady) == [false, false])
        #expect(race.send(.start(by: "ann")).rejectionCodes == ["players_not_ready"])
    }
}
