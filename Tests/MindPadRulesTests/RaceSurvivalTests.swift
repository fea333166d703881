import Testing

@testable import MindPadRules

@Suite struct RaceSurvivalTests {
    @Test func survivalEndsAtTheFirstMissAndRecordsAnswered() {
        var race = RaceNormalTests.startedRace(.survival)
        var expected = 0
        for _ in 0..<20 {
            race.wait(.milliseconds(1200))  // 1 whole second each
            let difficulty = race.lastQuestion(for: "ann")!.question.difficulty
            let outcome = race.answerCorrectly("ann").outcomes.first!
            #expect(outcome.points == 30 * difficulty - 1)
            expected += outcome.points
            #expect(!outcome.finishedRun)
        }
        race.wait(.seconds(2))
        let miss = race.answerWrongly("ann")
        #expect(miss.outcomes.first?.finishedRun == true)
        #expect(miss.outcomes.first?.points == 0)
        #expect(miss.questions.isEmpty)
        let ann = miss.results.first!
        #expect(ann.correct == 20 && ann.wrong == 1 && ann.answered == 21 && ann.completed)
        #expect(ann.score == expected)
        #expect(ann.duration == .milliseconds(20 * 1200 + 2000))
        #expect(race.answerCorrectly("ann").rejectionCodes == ["already_finished"])
        // Bo's immediate miss ends the race: both have finished.
        let end = race.answerWrongly("bo")
        #expect(end.standings.first?.entries.map(\.result.player) == ["ann", "bo"])
        #expect(end.standings.first?.entries.last?.result.answered == 1)
    }

    @Test func survivalRampsDifficultyWithinARun() {
        var race = RaceNormalTests.startedRace(.survival, seed: 7)
        for _ in 0..<40 { race.answerCorrectly("ann") }
        let difficulties = race.log.questions.filter { $0.player == "ann" }.map(\.question.difficulty)
        #expect(difficulties.count == 41)
        #expect(difficulties[0..<5].allSatisfy { (1...2).contains($0) })
        #expect(difficulties[15..<30].allSatisfy { (2...3).contains($0) })
        #expect(difficulties[30...].allSatisfy { $0 == 3 })
    }
}
