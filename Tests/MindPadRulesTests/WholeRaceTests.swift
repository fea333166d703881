import Testing

@testable import MindPadRules

/// One room's whole life on a manual clock: join, ready, countdown, answers,
/// disconnect and reconnect, host handover, finish, rematch, disposal.
@Suite struct WholeRaceTests {
    @Test func aRoomsWholeLife() {
        var race = RaceHarness(
            RaceConfiguration(mode: .normal, maxPlayers: 3, requireReady: true, reconnectGrace: .seconds(15)),
            seed: 2026
        )
        // Lobby.
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("wei", name: name("张伟")))
        race.send(.join("bo", name: name("Bo")))
        #expect(race.send(.join("eve", name: name("ANN"))).rejectionCodes == ["name_taken"])
        race.send(.setReady("wei", true))
        race.send(.setReady("bo", true))

        // Countdown: 3 s, then everyone's first question at the same instant.
        race.wait(.seconds(1))
        race.send(.start(by: "ann"))
        #expect(race.timer == RaceInstant(milliseconds: 4000))
        let start = race.fireTimer()
        #expect(start.questions.count == 3)
        #expect(start.questions.allSatisfy { $0.sentAt == RaceInstant(milliseconds: 4000) })

        // Racing: Wei drops after 3 answers and comes back 10 s later.
        for _ in 0..<3 {
            race.wait(.seconds(1))
            race.answerCorrectly("ann")
            race.answerCorrectly("wei")
            race.answerWrongly("bo")
        }
        race.send(.disconnect("wei"))
        race.wait(.seconds(10))
        let back = race.send(.reconnect("wei"))
        #expect(back.questions.map(\.id) == [QuestionID(round: 1, index: 3)])

        // The host leaves mid-race: her result so far counts, Wei hosts next.
        let annLeft = race.send(.leave("ann"))
        #expect(annLeft.results.first?.correct == 3)
        #expect(race.machine.hostID == "wei")

        // Finish.
        for _ in 3..<10 {
            race.answerCorrectly("wei")
            race.answerCorrectly("bo")
        }
        let standings = race.log.standings.first!
        #expect(standings.entries.map(\.result.player) == ["wei", "bo", "ann"])
        #expect(standings.entries.map(\.rank) == [1, 2, 3])
        #expect(race.log.results.count == 3)

        // Rematch: same room, new seed, round 2, ready flags reset.
        #expect(race.send(.rematch(by: "bo", seed: 99)).rejectionCodes == ["not_host"])
        race.send(.rematch(by: "wei", seed: 99))
        #expect(race.machine.round == 2)
        race.send(.setReady("bo", true))
        race.send(.start(by: "wei"))
        let second = race.fireTimer()
        #expect(second.questions.map(\.id) == [QuestionID(round: 2, index: 0), QuestionID(round: 2, index: 0)])
        #expect(second.questions.first?.question == MindPadArithmetic().question(seed: 99, index: 0, mode: .normal))

        // Everyone leaves: the room is disposed.
        race.send(.leave("bo"))
        #expect(race.send(.leave("wei")).disposed)
        #expect(race.timer == nil)
    }
}
