import Testing

@testable import MindPadRules

/// Whole path-finder races through the machine with a manual clock: the
/// same grid for everyone, retries, steps re-sent under the same question
/// id, refused moves, a reconnect that gets the robot where it stood, an
/// abandoned racer, and standings lower first.
@Suite struct PathFinderRaceTests {
    static func started(_ racers: [PlayerID]) -> RaceHarness<PathFinder> {
        var race = RaceHarness(kind: PathFinder(), configuration: RaceConfiguration(mode: .normal, reconnectGrace: .seconds(20)))
        for id in racers { race.send(.join(id, name: name(id.rawValue))) }
        race.send(.start(by: racers[0]))
        race.fireTimer()
        return race
    }

    /// The moves of a shortest path from `from` to the goal: south, then east.
    static func shortestMoves(from: GridCell = .start, to goal: GridCell) -> [PathAnswer] {
        Array(repeating: .move(.south), count: goal.row - from.row) + Array(repeating: .move(.east), count: goal.column - from.column)
    }

    static func guess(_ q: PathQuestion) -> PathAnswer { .guess(rows: q.rows, columns: q.columns) }

    @Test func aSoloRaceIsOneRoundScoredByTheSeedsRankValue() throws {
        var race = Self.started(["ann"])
        let first = race.lastQuestion(for: "ann")!
        let q = first.question
        #expect(first.id == QuestionID(round: 1, index: 0) && first.prompt == .guess(cells: q.cells, tries: 0))
        #expect(race.log.progressUpdates.last?.racers.first?.remaining == nil)
        race.wait(.milliseconds(4210))
        let shown = race.answer("ann", Self.guess(q))
        #expect(shown.outcomes.isEmpty)
        // The right guess is graded for nobody but logged for the review: right,
        // no points, the question going on, with the prompt it answered.
        let guessed = try #require(shown.logged.first)
        #expect(shown.logged.count == 1 && guessed.isReviewable && guessed.isCorrect && !guessed.finishedRun && !guessed.retry)
        #expect(guessed.answer == Self.guess(q) && guessed.correctAnswer == Self.guess(q) && guessed.points == 0 && guessed.score == 0)
        #expect(guessed.prompt == first.prompt && guessed.question == first.id && guessed.answeredAfter == .milliseconds(4210))
        #expect(shown.questions.map(\.id) == [first.id])
        #expect(shown.questions.first?.prompt == .steer(rows: q.rows, columns: q.columns, robot: .start, goal: q.goal, steps: 0,
                                                        bestSteps: PathFinder.bestSteps(q), tries: 0))
        #expect(shown.progressUpdates.last?.racers.first?.remaining == PathFinder.bestSteps(q))
        let moves = Self.shortestMoves(to: q.goal)
        var last: [RaceEffect<PathFinder>] = []
        for move in moves {
            race.wait(.milliseconds(1000))
            last = race.answer("ann", move)
            #expect(last.logged.isEmpty)   // moves steer: not answers
        }
        let outcome = last.outcomes.first!
        let expected = PathFinder.points(steps: moves.count, steering: .seconds(Int64(moves.count)), gridSize: q.cells)
        #expect(outcome.isCorrect && outcome.finishedRun && !outcome.retry && outcome.points == expected && outcome.score == expected)
        let result = last.results.first!
        #expect(result.completed && result.score == expected && result.correct == 1 && result.wrong == 0)
        var cell = GridCell.start
        let route = moves.enumerated().map { step -> PathStep in
            if case .move(let direction) = step.element { cell = cell.moved(direction) }
            return PathStep(cell: cell, after: .milliseconds(4210 + Int64(step.offset + 1) * 1000))
        }
        #expect(result.detail == (PathRoundResult(
            rows: q.rows, columns: q.columns, goal: q.goal, steps: moves.count, bestSteps: moves.count, tries: 0,
            gridShownAfter: .milliseconds(4210), goalReachedAfter: .milliseconds(4210 + Int64(moves.count) * 1000), route: route).detail))
        #expect(last.standings.first?.entries.map(\.result.player) == ["ann"])
        // Issue 45: the winning move is shown (the robot on the goal, under
        // the same id) before its grade; the finisher's progress says 0 to go.
        let kinds = last.map { effect -> String in
            switch effect.effect {
            case .sendQuestion: "question"
            case .answerGraded: "graded"
            default: "other"
            }
        }.filter { $0 != "other" }
        #expect(kinds == ["question", "graded"])
        #expect(last.questions.first?.prompt == .steer(rows: q.rows, columns: q.columns, robot: q.goal, goal: q.goal, steps: moves.count,
                                                       bestSteps: moves.count, tries: 0))
        #expect(last.progressUpdates.last?.racers.first?.remaining == 0)
        #expect(last.progressUpdates.last?.racers.first?.status == .completed)
    }

    @Test func twoRacersAnAbandonAndAReconnectThatFindsTheRobotWhereItStood() throws {
        var race = Self.started(["ann", "bo", "cy"])
        let q = race.lastQuestion(for: "ann")!.question
        // Seed 42 deals a goal more than one step away (6×6, goal (6,2)).
        try #require(PathFinder.bestSteps(q) > 1)
        // Everyone is racing the same grid and goal.
        #expect(race.lastQuestion(for: "bo")!.question == q && race.lastQuestion(for: "cy")!.question == q)

        // Ann guesses the transposed grid first (or another wrong one on a square grid).
        race.wait(.seconds(1))
        let wrong: PathAnswer = q.rows == q.columns ? .guess(rows: q.rows, columns: q.columns == 6 ? 4 : q.columns + 1)
                                                    : .guess(rows: q.columns, columns: q.rows)
        let retried = race.send(.answer("ann", question: QuestionID(round: 1, index: 0), wrong, keypad: true))
        let outcome = retried.outcomes.first!
        #expect(!outcome.isCorrect && outcome.retry && !outcome.finishedRun && outcome.points == 0)
        #expect(retried.questions.map(\.prompt) == [.guess(cells: q.cells, tries: 1)])
        #expect(retried.questions.first?.id == QuestionID(round: 1, index: 0))
        race.wait(.seconds(1))
        race.answer("ann", Self.guess(q))
        race.answer("bo", Self.guess(q))
        race.answer("cy", Self.guess(q))

        // A forged move is refused, not counted, and no progress goes out.
        let forged = race.answer("ann", .tap(q.goal))
        #expect(forged.rejectionCodes == ["illegal_move"])
        #expect(forged.progressUpdates.isEmpty && forged.questions.isEmpty)
        #expect(race.answer("ann", .move(.north)).rejectionCodes == ["illegal_move"])

        // Ann makes one step, drops and comes back: the robot is where it stood.
        race.wait(.seconds(1))
        let moves = Self.shortestMoves(to: q.goal)
        let stepped = race.answer("ann", moves[0])
        let robot = GridCell.start.moved(moves[0] == .move(.south) ? .south : .east)
        #expect(stepped.progressUpdates.last?.racers.map(\.remaining) == [PathFinder.bestSteps(q) - 1, PathFinder.bestSteps(q),
                                                                         PathFinder.bestSteps(q)])
        race.send(.disconnect("ann"))
        race.wait(.seconds(5))
        let back = race.send(.reconnect("ann"))
        #expect(back.questions.first?.prompt == .steer(rows: q.rows, columns: q.columns, robot: robot, goal: q.goal, steps: 1,
                                                       bestSteps: PathFinder.bestSteps(q), tries: 1))
        #expect(back.questions.first?.id == QuestionID(round: 1, index: 0))

        // Cy leaves mid-way: abandoned, no score, no end.
        race.answer("cy", moves[0])
        let left = race.send(.leave("cy"))
        let cy = left.results.first!
        #expect(!cy.completed && cy.score == 0)
        guard let cyRound = PathRoundResult(cy.detail) else { Issue.record("no path detail"); return }
        #expect(cyRound.steps == 1 && cyRound.goalReachedAfter == nil && cyRound.gridShownAfter == .seconds(2))
        #expect(left.progressUpdates.last?.racers.last?.status == .abandoned)
        #expect(left.progressUpdates.last?.racers.last?.remaining == nil)

        // Ann goes the shortest way; Bo takes a detour and is slower.
        for move in moves.dropFirst() {
            race.wait(.seconds(1))
            race.answer("ann", move)
        }
        race.answer("bo", .move(.east))
        race.answer("bo", .move(.west))
        var end: [RaceEffect<PathFinder>] = []
        for move in moves {
            race.wait(.seconds(2))
            end = race.answer("bo", move)
        }
        let standings = end.standings.first!
        #expect(standings.entries.map(\.result.player) == ["ann", "bo", "cy"])
        let (ann, bo) = (standings.entries[0].result, standings.entries[1].result)
        #expect(ann.keypadAnswers == 1 && ann.wrong == 1 && ann.correct == 1 && bo.keypadAnswers == 0)
        guard let annRound = PathRoundResult(ann.detail), let boRound = PathRoundResult(bo.detail) else { Issue.record("no detail"); return }
        #expect(annRound.tries == 1 && annRound.steps == moves.count && annRound.gridShownAfter == .seconds(2))
        #expect(boRound.steps == moves.count + 2 && boRound.tries == 0)
        #expect(ann.score == PathFinder.points(steps: annRound.steps,
                                               steering: annRound.goalReachedAfter! - annRound.gridShownAfter!, gridSize: q.cells))
        #expect(ann.score < bo.score)
    }

    @Test func aRacerWhoNeverGuessedLeavesARoundWithoutAGrid() {
        var race = Self.started(["ann", "bo"])
        race.wait(.seconds(3))
        let effects = race.send(.leave("bo"))
        guard let round = PathRoundResult(effects.results.first?.detail) else { Issue.record("no path detail"); return }
        #expect(round.gridShownAfter == nil && round.goalReachedAfter == nil && round.steps == 0)
    }

    @Test func existingKindsKeepNoDetailAndNoRemaining() {
        var race = RaceHarness(RaceConfiguration(mode: .normal))
        race.send(.join("ann", name: name("Ann")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        #expect(race.log.progressUpdates.last?.racers.first?.remaining == nil)
        let answered = race.answerWrongly("ann")
        #expect(answered.outcomes.first?.retry == false)
        race.send(.leave("ann"))
        #expect(race.log.results.first?.detail == nil)
    }
}
