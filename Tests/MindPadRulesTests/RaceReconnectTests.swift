import Testing

@testable import MindPadRules

@Suite struct RaceReconnectTests {
    static func startedRace(_ mode: GameMode = .normal) -> RaceHarness<MindPadArithmetic> {
        var race = RaceHarness(RaceConfiguration(mode: mode, reconnectGrace: .seconds(20)))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        return race
    }

    @Test func reconnectWithinGraceResendsTheCurrentQuestion() {
        var race = Self.startedRace()
        race.answerCorrectly("bo")
        race.wait(.seconds(2))
        let dropped = race.send(.disconnect("bo"))
        #expect(dropped.snapshots.last?.members.map(\.isConnected) == [true, false])
        #expect(race.timer == race.now + .seconds(20))
        race.wait(.seconds(19))
        let back = race.send(.reconnect("bo"))
        let resent = back.questions.first!
        #expect(resent.id == QuestionID(round: 1, index: 1))
        #expect(resent.sentAt == RaceInstant(milliseconds: 3000))  // the clock kept running
        #expect(back.contains { if case .resync("bo", _, .some, nil) = $0 { true } else { false } })
        #expect(race.machine.snapshot.members.map(\.isConnected) == [true, true])
        #expect(back.contains(.cancelTick))
        // Answering the re-sent question works.
        #expect(race.answerCorrectly("bo").outcomes.first?.question == QuestionID(round: 1, index: 1))
    }

    @Test func graceRunningOutCountsAsLeavingAtTheDisconnect() {
        var race = Self.startedRace()
        race.wait(.seconds(4))
        race.answerCorrectly("bo")
        race.wait(.seconds(1))
        race.send(.disconnect("bo"))
        race.send(.disconnect("bo"))  // a second notice does not extend the grace
        race.wait(.seconds(10))
        #expect(race.send(.tick).results.isEmpty)
        let expired = race.fireTimer()
        #expect(race.now == RaceInstant(milliseconds: 28_000))
        let bo = expired.results.first!
        #expect(bo.player == "bo" && !bo.completed && bo.correct == 1 && bo.duration == .seconds(5))
        #expect(race.machine.snapshot.members.map(\.id) == ["ann"])
        // Too late to come back; joining again makes a spectator.
        #expect(race.send(.reconnect("bo")).rejectionCodes == ["not_in_room"])
        race.send(.join("bo", name: name("Bo")))
        #expect(race.machine.snapshot.members.last?.role == .spectator)
    }

    @Test func aDisconnectedRacerHoldsTheRaceUntilTheirGraceEnds() {
        var race = Self.startedRace()
        race.send(.disconnect("bo"))
        for _ in 0..<10 { race.answerCorrectly("ann") }
        #expect(race.log.standings.isEmpty)
        let effects = race.fireTimer()
        #expect(effects.standings.first?.entries.map(\.result.player) == ["ann", "bo"])
        #expect(race.machine.phase == .finished)
    }

    @Test func hostDisconnectingKeepsTheRoleUntilTheGraceEnds() {
        var race = RaceHarness(RaceConfiguration(mode: .normal, reconnectGrace: .seconds(5)))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.disconnect("ann"))
        #expect(race.machine.hostID == "ann")
        let expired = race.fireTimer()
        #expect(expired.snapshots.last?.host == "bo")
        #expect(race.machine.snapshot.members.map(\.id) == ["bo"])
        #expect(race.send(.start(by: "bo")).rejections.isEmpty)
    }

    @Test func hostHandoverMidRace() {
        var race = Self.startedRace(.timeAttack)
        race.send(.join("cy", name: name("Cy")))
        race.send(.leave("ann"))
        #expect(race.machine.hostID == "bo")
        race.send(.leave("bo"))
        // Only the spectator is left: they host, and the race is over.
        #expect(race.machine.hostID == "cy")
        #expect(race.machine.phase == .finished)
    }

    @Test func lastMemberTimingOutDisposesTheRoom() {
        var race = RaceHarness(RaceConfiguration(mode: .normal, reconnectGrace: .seconds(5)))
        race.send(.join("ann", name: name("Ann")))
        race.send(.disconnect("ann"))
        let effects = race.fireTimer()
        #expect(effects.disposed)
        #expect(effects.contains(.cancelTick))
        #expect(race.send(.reconnect("ann")).rejectionCodes == ["room_closed"])
    }

    @Test func disconnectedRacerAtCountdownEndStillRaces() {
        var race = RaceHarness(RaceConfiguration(mode: .normal, reconnectGrace: .seconds(30)))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.start(by: "ann"))
        race.send(.disconnect("bo"))
        let started = race.fireTimer()
        #expect(started.questions.map(\.player) == ["ann"])  // nobody to send Bo's to
        race.wait(.seconds(3))
        #expect(race.send(.reconnect("bo")).questions.map(\.id) == [QuestionID(round: 1, index: 0)])
    }
}
