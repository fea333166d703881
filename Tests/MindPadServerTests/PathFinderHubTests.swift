import MindPadJSON
import MindPadRules
import MindPadStorage
import Testing
@testable import MindPadServer

/// The path finder through the in-process hub on a manual clock: a retry
/// without `expected`, the guess written as two digits, strokes refused
/// once steering, forged moves that never move the robot, the question
/// updated under the same id, `remaining` in progress, `path` in the
/// result, and the stored record's round in wall-clock time.
@Suite struct PathFinderHubTests {
    /// The grids `cells` can be: 4…6 each way.
    static func grids(_ cells: Int) -> [(Int, Int)] {
        PathFinder.sides.flatMap { r in PathFinder.sides.filter { r * $0 == cells }.map { (r, $0) } }
    }

    static func cell(_ json: JSON?) -> GridCell? {
        guard let row = json?["row"]?.integer, let column = json?["column"]?.integer else { return nil }
        return GridCell(row: row, column: column)
    }

    static func tap(_ cell: GridCell) -> JSON {
        .object([("to", .object([("row", .int(cell.row)), ("column", .int(cell.column))]))])
    }

    static func move(_ direction: PathMove) -> JSON { .object([("move", .string(direction.rawValue))]) }

    @Test func aSoloRoundGuessedByKeypadAndPenAndSteeredPastForgedMoves() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let first = try #require(ann.startSolo("Ann", game: "path_finder", mode: "normal"))
        let id = try #require(first["question"]?.string)
        let cells = try #require(first["prompt"]?["cells"]?.integer)
        #expect(first["prompt"]?["stage"] == .string("guess") && first["prompt"]?["tries"] == .int(0))
        #expect(first["prompt"]?["rows"] == nil && first["prompt"]?["goal"] == nil)

        // A typed wrong guess: retried, the grid not revealed, counted as keypad.
        h.advance(by: .seconds(1))
        ann.submit(id, answer: .object([("rows", .int(9)), ("columns", .int(9))]))
        let retry = try #require(ann.next("graded"))
        #expect(retry["correct"] == .bool(false) && retry["retry"] == .bool(true) && retry["run_over"] == .bool(false))
        #expect(retry["expected"] == nil && retry["points"] == .int(0))
        let again = try #require(ann.next("question"))
        #expect(again["question"] == .string(id) && again["prompt"]?["tries"] == .int(1) && again["prompt"]?["stage"] == .string("guess"))

        // One digit written is no guess.
        ann.drawNumber("4", question: id)
        ann.submit(id)
        #expect(ann.errorCode() == "unreadable_answer")
        ann.send([("type", .string("clear")), ("question", .string(id))])

        // The guess written as two digits, rows then columns; a grid whose
        // transpose has as many cells takes the true one only.
        var steer: JSON?
        var tries = 1
        for (rows, columns) in Self.grids(cells) where steer == nil {
            h.advance(by: .seconds(1))
            ann.drawNumber("\(rows)\(columns)", question: id)
            #expect(ann.all("guess").last?["number"] == .string("\(rows)\(columns)"))
            ann.submit(id)
            if let graded = ann.all("graded").first {
                #expect(graded["retry"] == .bool(true) && graded["expected"] == nil)
                #expect(graded["answer"] == .object([("rows", .int(rows)), ("columns", .int(columns))]))
                tries += 1
                _ = ann.next("question")
            } else {
                steer = ann.next("question")
            }
        }
        let shown = try #require(steer)
        #expect(shown["question"] == .string(id))
        let prompt = try #require(shown["prompt"])
        let (rows, columns) = (prompt["rows"]?.integer ?? 0, prompt["columns"]?.integer ?? 0)
        let goal = try #require(Self.cell(prompt["goal"]))
        let best = goal.row - 1 + goal.column - 1
        #expect(prompt["stage"] == .string("steer") && rows * columns == cells && Self.cell(prompt["robot"]) == .start)
        #expect(prompt["best_steps"] == .int(best) && prompt["steps"] == .int(0) && prompt["tries"] == .int(tries))
        h.advance(by: .seconds(1))
        #expect(ann.all("progress").last?["racers"]?.array?.first?["remaining"] == .int(best))

        // Steering: the pad takes nothing.
        ann.draw(4, question: id)
        let refused = ann.all("error").map { $0["code"]?.string }
        #expect(!refused.isEmpty && refused.allSatisfy { $0 == "answer_not_drawn" })
        #expect(ann.all("guess").isEmpty)
        // Forged inputs: refused, not counted, the robot stays at (1,1).
        let forged: [JSON] = [Self.move(.north), Self.move(.west), Self.tap(goal), Self.tap(GridCell(row: 2, column: 2)),
                              Self.tap(GridCell(row: 1, column: 1)), Self.tap(GridCell(row: 0, column: 1)),
                              .object([("rows", .int(rows)), ("columns", .int(columns))])]
        for answer in forged where !(best == 1 && Self.cell(answer["to"]) == goal) {
            ann.submit(id, answer: answer)
            #expect(ann.errorCode() == "illegal_move", "\(answer.text)")
        }
        ann.submit(id, answer: .object([("jump", .int(3))]))
        #expect(ann.errorCode() == "bad_answer")
        #expect(ann.all("question").isEmpty && ann.all("graded").isEmpty)

        // Down by taps, across by buttons; every step updates the same question.
        var robot = GridCell.start
        var inputs: [JSON] = []
        for _ in 1..<goal.row { robot = robot.moved(.south); inputs.append(Self.tap(robot)) }
        for _ in 1..<goal.column { inputs.append(Self.move(.east)) }
        for (index, input) in inputs.enumerated() {
            h.advance(by: .milliseconds(700))
            ann.submit(id, answer: input)
            if index < inputs.count - 1 {
                let step = try #require(ann.next("question"))
                #expect(step["question"] == .string(id) && step["prompt"]?["steps"] == .int(index + 1))
            }
        }
        let done = try #require(ann.next("graded"))
        let result = try #require(ann.next("finished")?["result"])
        let path = try #require(result["path"])
        let shownMs = try #require(path["grid_shown_ms"]?.integer), reachedMs = try #require(path["goal_reached_ms"]?.integer)
        // The clock ran from the right guess: at least the waits since, to the millisecond.
        let steering = RaceDuration.milliseconds(Int64(reachedMs - shownMs))
        #expect(steering.milliseconds >= 700 * Int64(inputs.count) + 1000)
        let points = PathFinder.points(steps: best, steering: steering, gridSize: cells)
        #expect(done["correct"] == .bool(true) && done["run_over"] == .bool(true) && done["points"] == .int(points))
        #expect(result["score"] == .int(points) && result["keypad_answers"] == .int(1) && result["wrong"] == .int(tries))
        #expect(path["steps"] == .int(best) && path["best_steps"] == .int(best) && path["tries"] == .int(tries))
        #expect(path["rows"] == .int(rows) && Self.cell(path["goal"]) == goal)
        #expect(path["rank_value"]?.number == Double(points) / 1000)
        let standings = try #require(ann.next("standings"))
        #expect(standings["entries"]?.array?.first?["path"] == path)

        // Stored with its round, in wall-clock time.
        let record = try #require(h.sink.records.withLock { $0.first })
        #expect(record.game == "path_finder" && record.lowerScoreWins && record.score == points)
        let round = try #require(record.path)
        #expect(round.rows == rows && round.columns == columns && round.goalRow == goal.row && round.goalColumn == goal.column)
        #expect(round.steps == best && round.bestSteps == best && round.tries == tries)
        #expect(round.endedAtMs == record.finishedAtMs && round.endedAtMs! - round.startedAtMs == steering.milliseconds)

        // Its answers: the wrong guesses, typed then written, then the right
        // guess with its drawing, each with the prompt it answered; neither
        // the moves nor the goal's step.
        let answers = try #require(result["answers"]?.array)
        #expect(answers.count == tries + 1)
        #expect(answers.map { $0["input"]?.string } == ["keypad"] + Array(repeating: "drawn", count: tries))
        #expect(answers.allSatisfy { $0["question"] == .string(id) && $0["points"] == .int(0) })
        #expect(answers.enumerated().allSatisfy { $0.element["prompt"]?["tries"] == .int($0.offset) && $0.element["seq"] == .int($0.offset) })
        #expect(answers.dropLast().allSatisfy { $0["expected"] == nil && $0["correct"] == .bool(false) })
        let grid = JSON.object([("rows", .int(rows)), ("columns", .int(columns))])
        let right = try #require(answers.last)
        #expect(right["correct"] == .bool(true) && right["answer"] == grid && right["expected"] == grid)
        #expect(right["prompt"]?["stage"] == .string("guess") && right["confidence"] != nil)
        #expect(record.answers.count == tries + 1 && record.answers[0].strokes == nil)
        #expect(record.answers.dropFirst().allSatisfy { ($0.strokes?.count ?? 0) > 0 && $0.confidence != nil })
        #expect(record.answers.last?.correct == true && record.answers.last?.answeredMs == shownMs)
        #expect(record.raceID == result["race"]?.string && standings["race"] == result["race"])
    }

    /// Every grid a racer can write (two digits 4–6) reads as itself.
    @Test func everyGridWrittenOnThePadReadsAsItsTwoDigits() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let first = try #require(ann.startSolo("Ann", game: "path_finder", mode: "normal"))
        let id = try #require(first["question"]?.string)
        for rows in PathFinder.sides {
            for columns in PathFinder.sides {
                ann.drawNumber("\(rows)\(columns)", question: id)
                #expect(ann.all("guess").last?["number"] == .string("\(rows)\(columns)"))
                ann.send([("type", .string("clear")), ("question", .string(id))])
            }
        }
        #expect(ann.all("error").isEmpty)
    }

    @Test func aRacerWhoLeavesStoresARoundWithoutAnEnd() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let first = try #require(ann.startSolo("Ann", game: "path_finder", mode: "normal"))
        h.advance(by: .seconds(2))
        ann.send([("type", .string("leave_room"))])
        let record = try #require(h.sink.records.withLock { $0.first })
        let round = try #require(record.path)
        #expect(record.score == 0 && round.endedAtMs == nil && round.steps == 0)
        // Never guessed: the round starts at the race start, two seconds before.
        #expect(record.finishedAtMs - round.startedAtMs == 2000)
        #expect(first["prompt"]?["stage"] == .string("guess"))
    }
}
