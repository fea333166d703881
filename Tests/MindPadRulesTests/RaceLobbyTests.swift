import Testing

@testable import MindPadRules

@Suite struct RaceLobbyTests {
    @Test func firstJoinerIsHostAndEveryoneGetsTheRoom() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        let effects = race.send(.join("p1", name: name("Ann")))
        #expect(effects.snapshots.last?.host == "p1")
        #expect(effects.snapshots.last?.members.map(\.role) == [.racer])
        #expect(effects.contains { if case .resync("p1", _, nil, nil) = $0 { true } else { false } })
        race.send(.join("p2", name: name("张伟")))
        #expect(race.machine.snapshot.members.map(\.name.display) == ["Ann", "张伟"])
        #expect(race.machine.snapshot.members.map(\.isHost) == [true, false])
        #expect(race.machine.phase == .lobby)
    }

    @Test func namesAreUniqueIgnoringCaseAndIdsOnce() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("Ann")))
        #expect(race.send(.join("p2", name: name("aNN"))).rejectionCodes == ["name_taken"])
        #expect(race.send(.join("p1", name: name("Bob"))).rejectionCodes == ["already_in_room"])
        #expect(race.machine.snapshot.members.count == 1)
    }

    @Test func fullSeatsMakeSpectatorsThenRefuse() {
        var race = RaceHarness(RaceConfiguration(mode: .normal, maxPlayers: 2, maxSpectators: 1))
        race.send(.join("p1", name: name("A")))
        race.send(.join("p2", name: name("B")))
        race.send(.join("p3", name: name("C")))
        #expect(race.machine.snapshot.members.map(\.role) == [.racer, .racer, .spectator])
        let refused = race.send(.join("p4", name: name("D")))
        #expect(refused.rejections.first?.1 == .roomFull(maxPlayers: 2, maxSpectators: 1))
        #expect(refused.rejections.first?.0 == "p4")
        // A seat frees up in the lobby: the spectator takes it.
        race.send(.leave("p2"))
        #expect(race.machine.snapshot.members.map(\.role) == [.racer, .racer])
    }

    @Test func onlyTheHostStartsAndTheCountdownIsThreeSeconds() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("A")))
        race.send(.join("p2", name: name("B")))
        #expect(race.send(.start(by: "p2")).rejectionCodes == ["not_host"])
        #expect(race.send(.start(by: "p9")).rejectionCodes == ["not_in_room"])
        race.wait(.milliseconds(500))
        let effects = race.send(.start(by: "p1"))
        #expect(effects.contains(.countdownStarted(round: 1, startsAt: RaceInstant(milliseconds: 3500))))
        #expect(effects.contains(.scheduleTick(at: RaceInstant(milliseconds: 3500))))
        #expect(race.machine.phase == .countdown(startsAt: RaceInstant(milliseconds: 3500)))
        #expect(race.send(.start(by: "p1")).rejectionCodes == ["not_in_lobby"])
        #expect(race.send(.setReady("p2", true)).rejectionCodes == ["not_in_lobby"])
        // An early tick does nothing.
        race.wait(.milliseconds(2999))
        #expect(race.send(.tick).questions.isEmpty)
        let started = race.fireTimer()
        #expect(started.contains(.raceStarted(round: 1, mode: .normal, startedAt: RaceInstant(milliseconds: 3500), endsAt: nil)))
        #expect(started.questions.map(\.player) == ["p1", "p2"])
        #expect(started.questions.allSatisfy { $0.id == QuestionID(round: 1, index: 0) })
        // Both racers get the very same question.
        #expect(Set(started.questions.map(\.question)).count == 1)
    }

    @Test func readyFlagsGateTheStartWhenRequired() {
        var race = RaceHarness(RaceConfiguration(mode: .normal, minimumPlayers: 2, requireReady: true))
        race.send(.join("p1", name: name("A")))
        #expect(race.send(.start(by: "p1")).rejections.first?.1 == .notEnoughPlayers(minimum: 2))
        race.send(.join("p2", name: name("B")))
        race.send(.join("p3", name: name("C")))
        #expect(race.send(.start(by: "p1")).rejections.first?.1 == .playersNotReady([name("B"), name("C")]))
        race.send(.setReady("p2", true))
        race.send(.setReady("p3", true))
        race.send(.disconnect("p3"))
        #expect(race.send(.start(by: "p1")).rejections.first?.1 == .playersNotReady([name("C")]))
        race.send(.reconnect("p3"))
        #expect(race.send(.start(by: "p1")).rejections.isEmpty)
        #expect(race.machine.snapshot.members.map(\.isReady) == [false, true, true])
    }

    @Test func readyIsOptionalByDefault() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("A")))
        race.send(.join("p2", name: name("B")))
        #expect(race.send(.setReady("p2", true)).snapshots.last?.members.map(\.isReady) == [false, true])
        #expect(race.send(.setReady("p2", true)).isEmpty)  // no change, nothing to say
        #expect(race.send(.start(by: "p1")).rejections.isEmpty)
    }

    @Test func hostRolePassesOnWhenTheHostLeaves() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("A")))
        race.send(.join("p2", name: name("B")))
        race.send(.join("p3", name: name("C")))
        race.send(.disconnect("p2"))
        // The next connected racer in join order: p3, because p2 is offline.
        #expect(race.send(.leave("p1")).snapshots.last?.host == "p3")
        #expect(race.send(.start(by: "p3")).rejections.isEmpty)
    }

    @Test func lastLeaverDisposesTheRoom() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("A")))
        race.send(.join("p2", name: name("B")))
        #expect(!race.send(.leave("p1")).disposed)
        let effects = race.send(.leave("p2"))
        #expect(effects.disposed)
        #expect(race.machine.phase == .disposed)
        #expect(race.send(.join("p3", name: name("C"))).rejectionCodes == ["room_closed"])
        #expect(race.send(.start(by: "p2")).rejectionCodes == ["room_closed"])
        #expect(race.send(.leave("p2")).rejectionCodes == ["room_closed"])
    }

    @Test func countdownIsCancelledIfTooFewRacersRemain() {
        var race = RaceHarness(RaceConfiguration(mode: .normal, minimumPlayers: 2))
        race.send(.join("p1", name: name("A")))
        race.send(.join("p2", name: name("B")))
        race.send(.start(by: "p1"))
        let effects = race.send(.leave("p2"))
        #expect(race.machine.phase == .lobby)
        #expect(effects.contains(.cancelTick))
        race.wait(.seconds(10))
        #expect(race.send(.tick).questions.isEmpty)
    }

    @Test func joiningDuringTheCountdownTakesASeat() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("A")))
        race.send(.start(by: "p1"))
        race.send(.join("p2", name: name("B")))
        #expect(race.fireTimer().questions.map(\.player) == ["p1", "p2"])
    }

    @Test func joiningARunningRaceSpectates() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("A")))
        race.send(.start(by: "p1"))
        race.fireTimer()
        let effects = race.send(.join("p2", name: name("B")))
        #expect(race.machine.snapshot.members.map(\.role) == [.racer, .spectator])
        // The spectator is caught up with the live progress.
        #expect(effects.contains { if case .resync("p2", _, .some(let progress), nil) = $0 { progress.racers.count == 1 } else { false } })
        #expect(effects.questions.isEmpty)
        let answer = race.send(.answer("p2", question: QuestionID(round: 1, index: 0), Digit(1)!))
        #expect(answer.rejectionCodes == ["not_racing"])
    }

    @Test func answersBeforeTheRaceAreRefused() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("p1", name: name("A")))
        #expect(race.send(.answer("p1", question: QuestionID(round: 1, index: 0), Digit(1)!)).rejectionCodes == ["race_not_running"])
        race.send(.start(by: "p1"))
        #expect(race.send(.answer("p1", question: QuestionID(round: 1, index: 0), Digit(1)!)).rejectionCodes == ["race_not_running"])
    }

    @Test func errorsHaveCodesAndSafeDescriptions() {
        let errors: [RaceError] = [
            .roomClosed, .alreadyInRoom, .nameTaken(name("Ann")), .roomFull(maxPlayers: 8, maxSpectators: 16),
            .notInRoom, .notHost, .notInLobby, .notEnoughPlayers(minimum: 2), .playersNotReady([name("Bo")]),
            .raceNotRunning, .raceOver, .notRacing, .alreadyFinished,
            .staleQuestion(QuestionID(round: 1, index: 0), current: QuestionID(round: 1, index: 2)),
            .unsentQuestion(QuestionID(round: 1, index: 5), current: QuestionID(round: 1, index: 2)),
            .raceNotFinished,
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(error.code.allSatisfy { $0.isLowercase || $0 == "_" })
        }
        #expect(RaceError.staleQuestion(QuestionID(round: 1, index: 0), current: QuestionID(round: 1, index: 2)).description.contains("question 3"))
    }
}
