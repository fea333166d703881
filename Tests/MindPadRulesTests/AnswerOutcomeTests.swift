import Testing

@testable import MindPadRules

/// What a graded outcome says for the run's answer log (issue 19): the
/// prompt as the racer had it, when it was asked and answered, how it was
/// given, and whether it is an answer at all; and which question
/// spectators are shown.
@Suite struct AnswerOutcomeTests {
    @Test func anOutcomeCarriesItsPromptTimesAndInput() {
        var race = RaceNormalTests.startedRace()   // first questions at 3 s
        let first = race.lastQuestion(for: "ann")!
        race.wait(.milliseconds(2500))
        let a = race.answerCorrectly("ann").outcomes.first!
        #expect(a.prompt == first.prompt && a.isReviewable && !a.keypad)
        #expect(a.askedAfter == .zero && a.answeredAfter == .milliseconds(2500))
        let second = race.lastQuestion(for: "ann")!
        race.wait(.milliseconds(1200))
        let wrong = Digit((second.question.answer.value + 1) % 10)!
        let b = race.send(.answer("ann", question: second.id, wrong, keypad: true)).outcomes.first!
        #expect(b.prompt == second.prompt && b.prompt != first.prompt && b.keypad && !b.isCorrect)
        #expect(b.askedAfter == .milliseconds(2500) && b.answeredAfter == .milliseconds(3700))
    }

    /// A wrong guess of the path finder's grid is logged with the prompt it
    /// answered (before its try was counted); the move that reaches the
    /// goal is graded but is not an answer.
    @Test func pathFinderRetriesAreAnswersAndItsMovesAreNot() {
        var race = PathFinderRaceTests.started(["ann"])
        let q = race.lastQuestion(for: "ann")!.question
        race.wait(.seconds(2))
        let wrong: PathAnswer = .guess(rows: q.rows, columns: q.columns == 6 ? 4 : q.columns + 1)
        let retry = race.answer("ann", wrong).outcomes.first!
        #expect(retry.retry && retry.isReviewable && retry.prompt == .guess(cells: q.cells, tries: 0))
        #expect(retry.answeredAfter == .seconds(2) && retry.askedAfter == .zero)
        race.answer("ann", PathFinderRaceTests.guess(q))
        var last: [RaceEffect<PathFinder>] = []
        for move in PathFinderRaceTests.shortestMoves(to: q.goal) { last = race.answer("ann", move) }
        let reached = last.outcomes.first!
        #expect(reached.isCorrect && reached.finishedRun && !reached.isReviewable)
    }

    /// Spectators follow the racer still playing with the most correct
    /// answers, then the furthest on, then the earliest seat.
    @Test func theLeadersQuestionIsTheMostCorrectThenFurthestPlayer() {
        var race = RaceNormalTests.startedRace(.survival)
        #expect(race.machine.leadersQuestion?.player == "ann")   // a tie: the earlier seat
        race.answerCorrectly("bo")
        #expect(race.machine.leadersQuestion?.player == "bo")
        #expect(race.machine.leadersQuestion?.id == QuestionID(round: 1, index: 1))
        #expect(race.machine.leadersQuestion?.prompt == race.lastQuestion(for: "bo")?.prompt)
        race.answerCorrectly("ann")
        race.answerCorrectly("ann")
        #expect(race.machine.leadersQuestion?.player == "ann")
        // Ann's run ends (Survival's miss): Bo is the one still playing.
        race.answerWrongly("ann")
        #expect(race.machine.leadersQuestion?.player == "bo")
        race.answerWrongly("bo")
        #expect(race.machine.leadersQuestion == nil && race.machine.phase == .finished)
    }
}
