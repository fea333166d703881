import MindPadJSON
import Testing

@testable import MindPadRules

/// The path finder kind: seeded grids and goals, the guess, the moves the
/// server checks against the robot's true position, the points, and whole
/// races through the machine with a manual clock.
@Suite struct PathFinderTests {
    static let kind = PathFinder()
    static let seeds: [UInt64] = (0..<36_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 11 }

    /// A 4 × 5 grid with the goal at (3,4): best path 5 steps.
    static let grid = PathQuestion(rows: 4, columns: 5, goal: GridCell(row: 3, column: 4))!

    @Test func questionsAreFourToSixEachWayWithTheGoalNeverAtTheStart() {
        for seed in Self.seeds.prefix(3000) {
            let q = Self.kind.question(seed: seed, index: 0, mode: .normal)
            #expect(PathFinder.sides.contains(q.rows) && PathFinder.sides.contains(q.columns))
            #expect(q.contains(q.goal) && q.goal != .start)
            // Pure: the same seed deals the same grid, any number of times.
            #expect(Self.kind.question(seed: seed, index: 0, mode: .normal) == q)
        }
        #expect(Self.kind.question(seed: 42, index: 0, mode: .normal).description == Self.pinned42)
        #expect(PathQuestion(rows: 4, columns: 5, goal: .start) == nil)
        #expect(PathQuestion(rows: 3, columns: 5, goal: GridCell(row: 2, column: 2)) == nil)
        #expect(PathQuestion(rows: 4, columns: 5, goal: GridCell(row: 5, column: 1)) == nil)
    }

    /// Pinned: a changed generator would deal another grid.
    static let pinned42 = "6×6 goal (6,2)"

    /// Loose uniformity over 36,000 seeds: each of the 9 grids near 1/9,
    /// and, per grid, each goal cell near 1/(cells − 1) (Pearson's χ² far
    /// below what a skewed draw gives; the bounds are ~3× the 99.9% point).
    @Test func gridsAndGoalsAreDrawnUniformly() {
        var grids: [Int: Int] = [:]
        var goals: [Int: [Int: Int]] = [:]
        for seed in Self.seeds {
            let q = Self.kind.question(seed: seed, index: 0, mode: .normal)
            let key = q.rows * 10 + q.columns
            grids[key, default: 0] += 1
            goals[key, default: [:]][(q.goal.row - 1) * q.columns + q.goal.column - 1, default: 0] += 1
        }
        #expect(grids.count == 9)
        let expected = Double(Self.seeds.count) / 9
        let gridChi = grids.values.reduce(0.0) { $0 + pow2(Double($1) - expected) / expected }
        #expect(gridChi < 80, "χ² of the grid sizes: \(gridChi) (8 degrees of freedom)")
        for (key, counts) in goals {
            let rows = key / 10, columns = key % 10
            #expect(counts[0] == nil, "the start is never the goal")
            #expect(counts.count == rows * columns - 1, "every other cell is drawn: \(key)")
            let total = Double(counts.values.reduce(0, +))
            let each = total / Double(rows * columns - 1)
            let chi = counts.values.reduce(0.0) { $0 + pow2(Double($1) - each) / each }
            #expect(chi < 3 * Double(rows * columns) + 60, "χ² of the goals of \(rows)×\(columns): \(chi)")
        }
    }

    @Test func aWrongGuessIsTriedAgainAndOnlyTheTrueGridIsAccepted() {
        var attempt = Self.kind.attempt(for: Self.grid)
        #expect(Self.kind.prompt(for: Self.grid, attempt: attempt) == .guess(cells: 20, tries: 0))
        #expect(Self.kind.handwriting(for: Self.grid, attempt: attempt) == .drawnNumber)
        #expect(Self.kind.remaining(in: Self.grid, attempt: attempt) == nil)
        // 5 × 4 has 20 cells too, but is not the grid.
        #expect(Self.kind.judge(.guess(rows: 5, columns: 4), to: Self.grid, attempt: &attempt, after: .seconds(2)) == .tryAgain)
        #expect(Self.kind.judge(.guess(rows: 4, columns: 4), to: Self.grid, attempt: &attempt, after: .seconds(3)) == .tryAgain)
        #expect(attempt.tries == 2 && attempt.stage == .guess && attempt.gridShownAfter == nil)
        #expect(Self.kind.prompt(for: Self.grid, attempt: attempt) == .guess(cells: 20, tries: 2))
        #expect(Self.kind.judge(.guess(rows: 4, columns: 5), to: Self.grid, attempt: &attempt, after: .milliseconds(4200)) == .step)
        #expect(attempt.stage == .steer && attempt.gridShownAfter == .milliseconds(4200) && attempt.tries == 2)
        #expect(Self.kind.prompt(for: Self.grid, attempt: attempt)
                == .steer(rows: 4, columns: 5, robot: .start, goal: GridCell(row: 3, column: 4), steps: 0, bestSteps: 5, tries: 2))
        #expect(Self.kind.handwriting(for: Self.grid, attempt: attempt) == nil)
        #expect(Self.kind.remaining(in: Self.grid, attempt: attempt) == 5)
    }

    @Test func illegalInputsAreRefusedAndChangeNothing() {
        var attempt = Self.kind.attempt(for: Self.grid)
        // Moving before the grid is guessed.
        for early: PathAnswer in [.move(.south), .tap(GridCell(row: 2, column: 1))] {
            #expect(Self.refusalCode(early, &attempt) == "illegal_move")
        }
        #expect(attempt == PathAttempt())
        _ = Self.kind.judge(.guess(rows: 4, columns: 5), to: Self.grid, attempt: &attempt, after: .seconds(1))
        let steering = attempt
        let forged: [PathAnswer] = [
            .move(.north), .move(.west),                      // off the grid from (1,1)
            .tap(GridCell(row: 3, column: 4)),                // the goal, two rows and three columns away
            .tap(GridCell(row: 2, column: 2)),                // diagonal
            .tap(GridCell(row: 1, column: 1)),                // where it stands
            .tap(GridCell(row: 0, column: 1)),                // off the grid, though next to it
            .tap(GridCell(row: 1, column: 3)),                // two cells away
            .guess(rows: 4, columns: 5),                      // guessing again
        ]
        for answer in forged {
            #expect(Self.refusalCode(answer, &attempt) == "illegal_move", "\(answer)")
            #expect(attempt == steering, "\(answer) changed the attempt")
        }
        #expect(RaceError.illegalMove("That move leaves the grid.").description == "That move leaves the grid.")
    }

    @Test func movesAndTapsWalkTheRobotToTheGoal() {
        var attempt = Self.kind.attempt(for: Self.grid)
        _ = Self.kind.judge(.guess(rows: 4, columns: 5), to: Self.grid, attempt: &attempt, after: .seconds(1))
        // East by button, east by tap, then south, a detour west and back.
        let path: [PathAnswer] = [.move(.east), .tap(GridCell(row: 1, column: 3)), .move(.south), .move(.west),
                                  .tap(GridCell(row: 2, column: 3)), .move(.east), .move(.south)]
        let robots = [(1, 2), (1, 3), (2, 3), (2, 2), (2, 3), (2, 4), (3, 4)].map { GridCell(row: $0.0, column: $0.1) }
        for (index, (answer, robot)) in zip(path, robots).enumerated() {
            let verdict = Self.kind.judge(answer, to: Self.grid, attempt: &attempt, after: .seconds(Int64(2 + index)))
            #expect(verdict == (index == path.count - 1 ? .graded(correct: true) : .step))
            #expect(attempt.robot == robot && attempt.steps == index + 1)
            #expect(Self.kind.remaining(in: Self.grid, attempt: attempt) == robot.distance(to: Self.grid.goal))
        }
        #expect(attempt.goalReachedAfter == .seconds(8))
        // 7 steps × 7 s of steering / 20 cells = 2.45 → 2450 points.
        #expect(Self.kind.points(for: Self.grid, attempt: attempt, time: .seconds(8)) == 2450)
        let detail = Self.kind.detail(of: Self.grid, attempt: attempt, sentAfter: .milliseconds(500), endedAfter: .milliseconds(8500))
        // The route: every cell reached, when, from the race start.
        let route = robots.enumerated().map { PathStep(cell: $0.element, after: .milliseconds(500 + 1000 * Int64(2 + $0.offset))) }
        #expect(detail == (PathRoundResult(rows: 4, columns: 5, goal: GridCell(row: 3, column: 4), steps: 7, bestSteps: 5,
                                                tries: 0, gridShownAfter: .milliseconds(1500), goalReachedAfter: .milliseconds(8500),
                                                route: route).detail))
    }

    /// Issue 45: a typed guess of 0, −1 or 2⁶³−1 rows is no guess at all:
    /// refused (`bad_answer`) before it is judged, so it counts no try. A
    /// wrong guess of digits 1–9 (3 × 8 for 24 cells) is a try as before.
    @Test func absurdGuessesAreRefusedBeforeTheyAreTries() {
        let attempt = Self.kind.attempt(for: Self.grid)
        for (rows, columns) in [(0, 5), (-1, 4), (Int.max, 1), (4, 0), (10, 2), (5, Int.min), (1, 20)] {
            let refusal = Self.kind.refusal(of: .guess(rows: rows, columns: columns), to: Self.grid, attempt: attempt, drawn: false)
            #expect(refusal?.code == "bad_answer", "\(rows)×\(columns)")
        }
        for (rows, columns) in [(1, 1), (9, 9), (5, 4), (2, 9)] {
            #expect(Self.kind.refusal(of: .guess(rows: rows, columns: columns), to: Self.grid, attempt: attempt, drawn: false) == nil)
        }
        // Moves are the judge's to refuse.
        #expect(Self.kind.refusal(of: .move(.north), to: Self.grid, attempt: attempt, drawn: false) == nil)
        // Through the machine: refused, nothing counted.
        var race = RaceHarness(kind: PathFinder(), configuration: RaceConfiguration(mode: .normal))
        race.send(.join("ann", name: name("Ann")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        let effects = race.answer("ann", .guess(rows: 0, columns: 5))
        #expect(effects.rejections.map(\.1.code) == ["bad_answer"] && effects.outcomes.isEmpty && effects.questions.isEmpty)
        #expect(race.answer("ann", .guess(rows: 9, columns: 9)).outcomes.first?.retry == true)
    }

    @Test func pointsAreTheSeedsRankValueTimesAThousand() {
        for (steps, ms, size) in [(5, 12_345, 20), (7, 10_000, 20), (1, 1, 36), (12, 15_990 - 4210, 20), (30, 600_000, 16)] {
            let round = PathRanking.Round(startTime: 1_700_000_000, endTime: 1_700_000_000 + Double(ms) / 1000,
                                          stepCount: steps, gridSize: size)
            let points = PathFinder.points(steps: steps, steering: .milliseconds(Int64(ms)), gridSize: size)
            #expect(abs(Double(points) - round.rankValue * 1000) <= 0.5 + 1e-6, "\(steps) \(ms) \(size)")
        }
        // docs/rules.md's worked examples.
        #expect(PathFinder.points(steps: 12, steering: .milliseconds(11_780), gridSize: 20) == 7068)
        #expect(PathFinder.points(steps: 5, steering: .seconds(4), gridSize: 36) == 556)
        #expect(PathFinder.points(steps: 7, steering: .seconds(10), gridSize: 16) == 4375)
        #expect(PathFinder.points(steps: 1_000_000, steering: .seconds(86_400), gridSize: 16) == Int(Int32.max))
    }

    @Test func bestStepsIsTheManhattanDistanceFromTheStart() {
        #expect(PathFinder.bestSteps(Self.grid) == 5)
        #expect(PathFinder.bestSteps(PathQuestion(rows: 6, columns: 6, goal: GridCell(row: 6, column: 6))!) == 10)
        #expect(PathFinder.bestSteps(PathQuestion(rows: 4, columns: 4, goal: GridCell(row: 1, column: 2))!) == 1)
    }

    @Test func theDrawnGuessIsTwoDigitsRowsThenColumns() {
        #expect(Self.kind.answer(handwritten: HandwrittenAnswer(digits: [4, 5])) == .guess(rows: 4, columns: 5))
        #expect(Self.kind.answer(handwritten: HandwrittenAnswer(digits: [9, 1])) == .guess(rows: 9, columns: 1))
        for unreadable: [Int] in [[], [4], [4, 5, 6], [0, 5], [4, 0]] {
            #expect(Self.kind.answer(handwritten: HandwrittenAnswer(digits: unreadable)) == nil, "\(unreadable)")
        }
    }

    @Test func promptsAndAnswersGoOnTheWireAsTheContractSays() throws {
        let guess = try JSONValueEncoder().encode(PathPrompt.guess(cells: 20, tries: 0))
        #expect(guess == (try JSON.parse(#"{"stage":"guess","cells":20,"tries":0}"#)))
        let steer = PathPrompt.steer(rows: 4, columns: 5, robot: .start, goal: GridCell(row: 3, column: 4), steps: 0, bestSteps: 5, tries: 1)
        let steerJSON = try JSONValueEncoder().encode(steer)
        #expect(steerJSON == (try JSON.parse(
            #"{"stage":"steer","rows":4,"columns":5,"robot":{"row":1,"column":1},"goal":{"row":3,"column":4},"steps":0,"best_steps":5,"tries":1}"#)))
        #expect(try JSONValueDecoder().decode(PathPrompt.self, from: steerJSON) == steer)
        let answers: [(String, PathAnswer)] = [
            (#"{"rows":4,"columns":5}"#, .guess(rows: 4, columns: 5)), (#"{"move":"north"}"#, .move(.north)),
            (#"{"move":"west"}"#, .move(.west)), (#"{"to":{"row":2,"column":1}}"#, .tap(GridCell(row: 2, column: 1))),
        ]
        for (text, answer) in answers {
            #expect(try JSONValueDecoder().decode(PathAnswer.self, from: JSON.parse(text)) == answer)
            #expect(try JSONValueEncoder().encode(answer) == JSON.parse(text))
        }
        for bad in [#"{"move":"up"}"#, #"{"rows":4}"#, #"{"rows":4,"columns":5,"move":"east"}"#, #"{}"#, #""north""#,
                    #"{"to":{"row":2}}"#, #"{"rows":"4","columns":5}"#, #"{"move":"east","to":{"row":1,"column":2}}"#] {
            #expect(throws: (any Error).self, "\(bad)") { try JSONValueDecoder().decode(PathAnswer.self, from: JSON.parse(bad)) }
        }
    }

    static func refusalCode(_ answer: PathAnswer, _ attempt: inout PathAttempt) -> String? {
        if case .refused(let error) = kind.judge(answer, to: grid, attempt: &attempt, after: .seconds(9)) { return error.code }
        return nil
    }
}

private func pow2(_ x: Double) -> Double { x * x }
