import Testing

@testable import MindPadRules

/// A lesson's room, conducted by a teacher outside it (issue 46).
@Suite struct RaceConductTests {
    static func lesson(_ mode: GameMode = .timeAttack, length: RaceDuration = .seconds(60)) -> RaceHarness<MindPadArithmetic> {
        RaceHarness(RaceConfiguration(mode: mode, maxPlayers: 60, maxSpectators: 0, timeAttackLength: length, conducted: true))
    }

    static func refusals(_ effects: [RaceEffect<MindPadArithmetic>]) -> [String] {
        effects.compactMap { if case .conductorRefused(let e) = $0 { e.code } else { nil } }
    }

    @Test func noPupilIsHostAndTheTeacherStartsWhoeverIsIn() {
        var race = Self.lesson()
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        #expect(race.machine.snapshot.host == nil)
        // A pupil cannot start a lesson; nobody is ready and that holds nobody up.
        #expect(race.send(.start(by: "ann")).rejectionCodes == ["not_host"])
        #expect(Self.refusals(race.send(.conduct(.start))).isEmpty)
        #expect(race.machine.phase == .countdown(startsAt: .zero + .seconds(3)))
        #expect(Self.refusals(race.send(.conduct(.start))) == ["not_in_lobby"])
        race.fireTimer()
        #expect(race.lastQuestion(for: "bo") != nil)
    }

    @Test func anEmptyLessonStaysOpenUntilTheTeacherClosesIt() {
        var race = Self.lesson()
        #expect(Self.refusals(race.send(.conduct(.start))) == ["not_enough_players"])
        race.send(.join("ann", name: name("Ann")))
        #expect(!race.send(.leave("ann")).disposed)
        race.send(.join("bo", name: name("Bo")))
        race.send(.conduct(.start))
        race.fireTimer()
        race.answerCorrectly("bo")
        let closed = race.send(.conduct(.close))
        #expect(closed.results.map(\.player) == ["bo"])
        #expect(closed.results.first?.completed == false)
        #expect(closed.results.first?.score == 1)
        #expect(closed.disposed)
    }

    @Test func aPauseStopsEveryClockAndRefusesAnswers() {
        var race = Self.lesson(length: .seconds(60))
        race.send(.join("ann", name: name("Ann")))
        race.send(.conduct(.start))
        race.fireTimer()
        let start = RaceInstant.zero + .seconds(3)
        race.wait(.seconds(10))
        race.answerCorrectly("ann")
        let paused = race.send(.conduct(.pause))
        #expect(paused.snapshots.last?.isPaused == true)
        #expect(race.timer == nil)  // the Time Attack end waits
        race.wait(.seconds(100))  // longer than the race: it is not over
        #expect(race.answerCorrectly("ann").rejectionCodes == ["paused"])
        #expect(race.machine.refusal(ofAnswerBy: "ann", to: QuestionID(round: 1, index: 1), at: race.now)?.code == "paused")
        #expect(Self.refusals(race.send(.conduct(.pause))).isEmpty)  // already paused: nothing changes
        let resumed = race.send(.conduct(.resume))
        #expect(resumed.snapshots.last?.isPaused == false)
        let end = start + .seconds(160)
        #expect(race.machine.phase == .running(startedAt: start, endsAt: end))
        #expect(race.timer == end)
        race.wait(.seconds(5))
        #expect(race.answerCorrectly("ann").outcomes.first?.isCorrect == true)
        race.now = end
        let over = race.send(.tick)
        #expect(over.results.first?.score == 2)
        #expect(over.results.first?.completed == true)
        #expect(Self.refusals(race.send(.conduct(.resume))) == ["race_not_running"])
    }

    @Test func stopEndsTheRaceAndTheNextRoundBeginsInTheLobby() {
        var race = Self.lesson(.normal)
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        #expect(Self.refusals(race.send(.conduct(.nextRound(seed: 9)))) == ["race_not_finished"])
        race.send(.conduct(.start))
        race.fireTimer()
        race.answerCorrectly("ann")
        race.send(.conduct(.pause))
        let stopped = race.send(.conduct(.stop))
        #expect(stopped.results.map(\.player) == ["ann", "bo"])
        #expect(stopped.results.allSatisfy { !$0.completed })
        #expect(stopped.standings.first?.entries.first?.result.player == "ann")
        #expect(race.machine.phase == .finished)
        #expect(race.send(.rematch(by: "ann", seed: 1)).rejectionCodes == ["not_host"])
        race.send(.conduct(.nextRound(seed: 42)))
        #expect(race.machine.phase == .lobby)
        #expect(race.machine.round == 2)
    }

    @Test func anOrdinaryRoomIsNotConducted() {
        var race = RaceHarness<MindPadArithmetic>(RaceConfiguration(mode: .normal))
        race.send(.join("ann", name: name("Ann")))
        #expect(Self.refusals(race.send(.conduct(.start))) == ["not_a_lesson"])
        #expect(race.machine.snapshot.host == "ann")
    }
}
