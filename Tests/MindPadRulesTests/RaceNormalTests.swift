import Testing

@testable import MindPadRules

@Suite struct RaceNormalTests {
    /// Two racers in a room, countdown over, first questions sent at t = 3 s.
    static func startedRace(_ mode: GameMode = .normal, seed: UInt64 = 42) -> RaceHarness<MindPadArithmetic> {
        var race = RaceHarness(RaceConfiguration(mode: mode), seed: seed)
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        return race
    }

    @Test func wholeNormalRace() {
        var race = Self.startedRace()
        #expect(race.now == RaceInstant(milliseconds: 3000))
        // Ann answers all ten correctly, 2.5 s each: 2 whole seconds per question.
        var annPoints: [Int] = []
        for index in 0..<10 {
            race.wait(.milliseconds(2500))
            let effects = race.answerCorrectly("ann")
            let outcome = effects.outcomes.first!
            #expect(outcome.isCorrect && outcome.secondsSpent == 2)
            #expect(outcome.question == QuestionID(round: 1, index: index))
            annPoints.append(outcome.points)
            #expect(effects.questions.count == (index < 9 ? 1 : 0))
            #expect(outcome.finishedRun == (index == 9))
        }
        // Schedule 1,1,1,1,2,2,2,2,2,3 at 2 s each: 4×28 + 5×58 + 88.
        #expect(annPoints == [28, 28, 28, 28, 58, 58, 58, 58, 58, 88])
        let annResult = race.log.results.first { $0.player == "ann" }!
        #expect(annResult.score == 490 && annResult.correct == 10 && annResult.wrong == 0 && annResult.answered == 10)
        #expect(annResult.duration == .seconds(25) && annResult.completed && annResult.mode == .normal)
        #expect(annResult.kind == "mindpad" && annResult.seed == 42 && annResult.round == 1)
        // Her run is over; the race is not, because Bo still plays.
        #expect(race.machine.phase == .running(startedAt: RaceInstant(milliseconds: 3000), endsAt: nil))
        #expect(race.answerCorrectly("ann").rejectionCodes == ["already_finished"])

        // Bo: a wrong answer scores 0 but Normal goes on; one slow answer scores 0 too.
        race.answerWrongly("bo")
        race.wait(.seconds(31))
        #expect(race.answerCorrectly("bo").outcomes.first?.points == 0)
        for _ in 2..<10 { race.answerCorrectly("bo") }
        let finished = race.log.standings.first!
        #expect(finished.entries.map(\.result.player) == ["ann", "bo"])
        let bo = finished.entries[1].result
        #expect(bo.correct == 9 && bo.wrong == 1 && bo.completed)
        #expect(bo.score == 2 * 30 + 5 * 60 + 90)  // the two free ones lost, the rest instant
        #expect(race.machine.phase == .finished)
        #expect(race.machine.standings == finished)
        // Exactly one stored result per racer.
        #expect(race.log.results.map(\.player).sorted { $0.rawValue < $1.rawValue } == ["ann", "bo"])
        // After the end, answers are refused.
        #expect(race.send(.answer("bo", question: QuestionID(round: 1, index: 9), Digit(0)!)).rejectionCodes == ["race_over"])
        #expect(race.timer == nil)
    }

    @Test func everyRacerGetsTheSameQuestions() {
        var race = Self.startedRace()
        for _ in 0..<10 {
            race.answerCorrectly("ann")
            race.answerWrongly("bo")
        }
        let ann = race.log.questions.filter { $0.player == "ann" }.map(\.question)
        let bo = race.log.questions.filter { $0.player == "bo" }.map(\.question)
        #expect(ann.count == 10 && ann == bo)
        #expect(ann == (0..<10).map { MindPadArithmetic().question(seed: 42, index: $0, mode: .normal) })
    }

    @Test func staleAndUnsentQuestionIDsAreRefused() {
        var race = Self.startedRace()
        race.answerCorrectly("ann")
        let current = QuestionID(round: 1, index: 1)
        let stale = race.send(.answer("ann", question: QuestionID(round: 1, index: 0), Digit(0)!))
        #expect(stale.rejections.first?.1 == .staleQuestion(QuestionID(round: 1, index: 0), current: current))
        let unsent = race.send(.answer("ann", question: QuestionID(round: 1, index: 2), Digit(0)!))
        #expect(unsent.rejections.first?.1 == .unsentQuestion(QuestionID(round: 1, index: 2), current: current))
        let otherRound = race.send(.answer("ann", question: QuestionID(round: 2, index: 1), Digit(0)!))
        #expect(otherRound.rejectionCodes == ["unsent_question"])
        let stranger = race.send(.answer("zed", question: current, Digit(0)!))
        #expect(stranger.rejectionCodes == ["not_in_room"])
        // None of these counted.
        #expect(race.machine.progress?.racers.first?.correct == 1)
        #expect(race.machine.progress?.racers.first?.wrong == 0)
    }

    @Test func progressIsBroadcastAfterEveryAnswer() {
        var race = Self.startedRace()
        let effects = race.answerCorrectly("bo")
        let progress = effects.progressUpdates.last!
        #expect(progress.racers.map(\.player) == ["ann", "bo"])
        #expect(progress.racers.map(\.questionIndex) == [0, 1])
        #expect(progress.racers[1].score == 30)
        #expect(progress.racers.map(\.status) == [.playing, .playing])
    }

    @Test func leavingMidRaceKeepsTheResultSoFar() {
        var race = Self.startedRace()
        race.wait(.seconds(1))
        race.answerCorrectly("bo")
        race.answerCorrectly("bo")
        race.wait(.seconds(4))
        let effects = race.send(.leave("bo"))
        let bo = effects.results.first!
        #expect(bo.player == "bo" && !bo.completed && bo.correct == 2 && bo.score == 59 && bo.duration == .seconds(5))
        #expect(effects.progressUpdates.last?.racers.last?.status == .abandoned)
        // Ann finishes alone; Bo is still in the standings.
        for _ in 0..<10 { race.answerCorrectly("ann") }
        let standings = race.log.standings.first!
        #expect(standings.entries.map(\.result.player) == ["ann", "bo"])
        #expect(standings.entries[1].result.completed == false)
    }

    @Test func theRaceEndsWhenEveryoneLeft() {
        var race = Self.startedRace()
        race.send(.join("cy", name: name("Cy")))  // a spectator keeps the room alive
        race.send(.leave("ann"))
        let effects = race.send(.leave("bo"))
        #expect(effects.standings.count == 1)
        #expect(race.machine.phase == .finished)
        #expect(race.machine.hostID == "cy")
    }
}
