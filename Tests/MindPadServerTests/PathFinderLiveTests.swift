import Foundation
import MindPadRules
import MindPadTestSupport
import Testing

/// The path finder through the real binary: real sockets, the recognition
/// pool reading the written guess as two digits, and a real PostgreSQL
/// keeping the results. A forged move sequence over the wire never moves
/// the robot and is never counted.
@Suite struct PathFinderLiveTests {
    typealias Message = RealtimeClient.Message

    static func cell(_ value: Any?) -> GridCell? {
        guard let c = value as? [String: Any], let row = c["row"] as? Int, let column = c["column"] as? Int else { return nil }
        return GridCell(row: row, column: column)
    }

    static func to(_ cell: GridCell) -> Message { ["to": ["row": cell.row, "column": cell.column]] }

    /// Types each grid `cells` can be until one is taken; returns the steer
    /// prompt and how many guesses were wrong.
    static func guessByKeypad(_ client: RealtimeClient, question id: String, cells: Int) throws -> ([String: Any], Int) {
        var wrong = 0
        for rows in PathFinder.sides {
            for columns in PathFinder.sides where rows * columns == cells {
                try client.send(["type": "submit", "question": id, "answer": ["rows": rows, "columns": columns]])
                let reply = try client.next(oneOf: ["graded", "question"])
                if reply["type"] as? String == "question" {
                    return (reply["prompt"] as? [String: Any] ?? [:], wrong)
                }
                #expect(reply["retry"] as? Bool == true && reply["expected"] == nil)
                _ = try client.next("question")
                wrong += 1
            }
        }
        Issue.record("no grid of \(cells) cells was taken")
        return ([:], wrong)
    }

    /// The shortest way from (1,1): taps down, then East buttons.
    static func walk(_ client: RealtimeClient, question id: String, from: GridCell = .start, to goal: GridCell,
                     detour: Bool = false) throws -> Message {
        // Out and back, never through the goal.
        let away: [Message] = goal == GridCell(row: 1, column: 2) ? [["move": "south"], ["move": "north"]] : [["move": "east"], ["move": "west"]]
        var inputs: [Message] = detour ? away : []
        var robot = from
        for _ in from.row..<goal.row { robot = robot.moved(.south); inputs.append(to(robot)) }
        for _ in from.column..<goal.column { inputs.append(["move": "east"]) }
        let before = GridCell.start.distance(to: from)
        for (index, input) in inputs.enumerated() {
            try client.send(["type": "submit", "question": id, "answer": input])
            let step = try client.next("question")
            #expect(step["question"] as? String == id && (step["prompt"] as? [String: Any])?["steps"] as? Int == before + index + 1)
            // The winning move too is shown, the robot on the goal, before its grade (issue 45).
            if index == inputs.count - 1 { #expect(cell((step["prompt"] as? [String: Any])?["robot"]) == goal) }
        }
        return try client.next("graded")
    }

    @Test func aSoloRoundWrittenAndSteeredPastAForgedMoveSequence() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer()
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let identified = try ann.identify("Ann")
        let account = try #require(Int64(String((identified["player_id"] as? String ?? "").dropFirst())))
        try ann.send(["type": "create_room", "game": "path_finder", "mode": "normal"])
        #expect((try ann.next("room")["room"] as? [String: Any])?["game"] as? String == "path_finder")
        try ann.send(["type": "start"])
        let first = try ann.next("question")
        let id = try #require(first["question"] as? String)
        let guessPrompt = try #require(first["prompt"] as? [String: Any])
        let cells = try #require(guessPrompt["cells"] as? Int)
        #expect(guessPrompt["stage"] as? String == "guess" && guessPrompt["rows"] == nil && guessPrompt["goal"] == nil)

        // An absurd typed guess is no guess: refused, no try counted (issue 45).
        try ann.send(["type": "submit", "question": id, "answer": ["rows": 0, "columns": cells]])
        #expect(try ann.error("bad_answer")["request"] as? String == "submit")
        // A wrong typed guess: try again, the grid not revealed.
        try ann.send(["type": "submit", "question": id, "answer": ["rows": 9, "columns": 9]])
        let retry = try ann.next("graded")
        #expect(retry["correct"] as? Bool == false && retry["retry"] as? Bool == true && retry["run_over"] as? Bool == false)
        #expect(retry["expected"] == nil)
        #expect(((try ann.next("question"))["prompt"] as? [String: Any])?["tries"] as? Int == 1)

        // The guess written on the pad, read as two digits: rows, then columns.
        var steer: [String: Any]?
        var tries = 1
        for rows in PathFinder.sides {
            for columns in PathFinder.sides where rows * columns == cells && steer == nil {
                let guess = try ann.drawNumber("\(rows)\(columns)", question: id)
                #expect(guess["number"] as? String == "\(rows)\(columns)")
                try ann.send(["type": "submit", "question": id])
                let reply = try ann.next(oneOf: ["graded", "question"])
                if reply["type"] as? String == "question" {
                    steer = reply["prompt"] as? [String: Any]
                } else {
                    #expect(reply["answer"] as? [String: Int] == ["rows": rows, "columns": columns] && reply["expected"] == nil)
                    _ = try ann.next("question")
                    tries += 1
                }
            }
        }
        let prompt = try #require(steer)
        let goal = try #require(Self.cell(prompt["goal"]))
        let best = goal.row + goal.column - 2
        #expect(prompt["stage"] as? String == "steer" && Self.cell(prompt["robot"]) == .start)
        #expect(prompt["best_steps"] as? Int == best && prompt["tries"] as? Int == tries)

        // Strokes while steering are refused.
        try ann.send(["type": "points", "question": id, "stroke": 0, "points": [[10.0, 10.0, 0.0], [20.0, 20.0, 5.0]]])
        #expect(try ann.error("answer_not_drawn")["request"] as? String == "points")

        // A forged sequence: off the grid, a jump to the goal, a diagonal,
        // standing still, a guess again. Each refused; the robot never moves.
        var forged: [Message] = [["move": "north"], ["move": "west"], Self.to(GridCell(row: 2, column: 2)),
                                 Self.to(.start), Self.to(GridCell(row: 0, column: 1)),
                                 ["rows": prompt["rows"] as? Int ?? 0, "columns": prompt["columns"] as? Int ?? 0]]
        if best > 1 { forged.append(Self.to(goal)) }
        for answer in forged {
            try ann.send(["type": "submit", "question": id, "answer": answer])
            let error = try ann.error("illegal_move")
            #expect(error["request"] as? String == "submit" && !(error["message"] as? String ?? "").isEmpty)
        }
        #expect(ann.drain("question").isEmpty && ann.drain("graded").isEmpty)

        let done = try Self.walk(ann, question: id, to: goal)
        #expect(done["correct"] as? Bool == true && done["run_over"] as? Bool == true)
        let result = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
        let path = try #require(result["path"] as? [String: Any])
        // Only the real moves count: the shortest path, forged ones left out.
        #expect(path["steps"] as? Int == best && path["best_steps"] as? Int == best && path["tries"] as? Int == tries)
        #expect(result["score"] as? Int == done["points"] as? Int && result["keypad_answers"] as? Int == 1)
        let shown = try #require(path["grid_shown_ms"] as? Int), reached = try #require(path["goal_reached_ms"] as? Int)
        let score = PathFinder.points(steps: best, steering: .milliseconds(Int64(reached - shown)), gridSize: cells)
        #expect(result["score"] as? Int == score)
        let saved = try ann.next("result_saved", timeout: .seconds(10))
        #expect(saved["game"] as? String == "path_finder" && saved["stored"] as? String == "database")

        let sql = try db.connect()
        let row = try sql.query("""
            SELECT score, keypad_answers, answered FROM game_results WHERE player_id = \(account)::bigint AND game = 'path_finder'
            """)
        #expect(row.count == 1 && row.value("score") == String(score) && row.value("keypad_answers") == "1")
        #expect(row.value("answered") == String(tries + 1))

        // The replay has the robot's route: the start when the grid was shown, then each move to the goal (issue 45).
        let race = try #require(result["race"] as? String)
        let c = try RawHTTPConnection(port: port)
        try c.request("GET", "/api/races/\(race)")
        let replay = try c.readResponse().json()
        let racer = try #require((replay["racers"] as? [[String: Any]])?.first)
        let round = try #require(racer["path"] as? [String: Any])
        #expect(round["rows"] as? Int == prompt["rows"] as? Int && round["steps"] as? Int == best && round["best_steps"] as? Int == best)
        #expect(Self.cell(round["goal"]) == goal && round["tries"] as? Int == tries)
        let route = try #require(round["route"] as? [[Int]])
        #expect(route.count == best + 1 && route.first == [1, 1, shown] && Array(route.last?.prefix(2) ?? []) == [goal.row, goal.column])
        #expect(route.last?[2] == reached)
    }

    @Test func twoRacersSeeEachOthersDistanceToTheGoal() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer()
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let bo = try RealtimeClient(port: port, label: "bo")
        try ann.identify("Ann")
        try bo.identify("Bo")
        try ann.send(["type": "create_room", "game": "path_finder", "mode": "normal"])
        let code = try #require(try ann.next("room")["code"] as? String)
        try bo.join(code)
        try bo.ready(seenBy: ann)
        try ann.send(["type": "start"])
        let (annFirst, boFirst) = (try ann.next("question"), try bo.next("question"))
        let id = try #require(annFirst["question"] as? String)
        let cells = try #require((annFirst["prompt"] as? [String: Any])?["cells"] as? Int)
        #expect((boFirst["prompt"] as? [String: Any])?["cells"] as? Int == cells)

        let (annPrompt, _) = try Self.guessByKeypad(ann, question: id, cells: cells)
        let (boPrompt, _) = try Self.guessByKeypad(bo, question: id, cells: cells)
        let goal = try #require(Self.cell(annPrompt["goal"]))
        #expect(Self.cell(boPrompt["goal"]) == goal)
        let best = goal.row + goal.column - 2
        // Live lanes: each racer's distance to the goal, seen by the other.
        let firstMove: PathMove = goal.row > 1 ? .south : .east
        try ann.send(["type": "submit", "question": id, "answer": ["move": firstMove.rawValue]])
        // The move is shown (a goal next to the start too: then its grade follows, and the lane says 0 to go).
        let stepped = try ann.next("question")
        #expect(Self.cell((stepped["prompt"] as? [String: Any])?["robot"]) == GridCell.start.moved(firstMove))
        let lanes = try bo.next("progress") { message in
            let racers = message["racers"] as? [[String: Any]] ?? []
            return racers.map { $0["remaining"] as? Int } == [best - 1, best]
        }
        #expect((lanes["racers"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ann", "Bo"])

        // Ann finishes the shortest way; Bo takes a detour, later.
        let annDone = best == 1 ? try ann.next("graded") : try Self.walk(ann, question: id, from: GridCell.start.moved(firstMove), to: goal)
        let boDone = try Self.walk(bo, question: id, to: goal, detour: true)
        #expect(annDone["run_over"] as? Bool == true && boDone["run_over"] as? Bool == true)
        let standings = try ann.next("standings", timeout: .seconds(10))
        let entries = standings["entries"] as? [[String: Any]] ?? []
        #expect(entries.count == 2)
        let paths = entries.compactMap { $0["path"] as? [String: Any] }
        #expect(paths.count == 2 && paths.allSatisfy { $0["best_steps"] as? Int == best && $0["goal_reached_ms"] is Int })
        let steps = Dictionary(uniqueKeysWithValues: zip(entries.map { $0["name"] as? String ?? "" }, paths.map { $0["steps"] as? Int ?? -1 }))
        #expect(steps == ["Ann": best, "Bo": best + 2])
        // Lower first.
        let scores = entries.map { $0["score"] as? Int ?? -1 }
        #expect(scores.count == 2 && scores[0] <= scores[1] && scores[0] >= 0)
        for client in [ann, bo] {
            #expect(try client.next("result_saved", timeout: .seconds(10))["stored"] as? String == "database")
        }
        let sql = try db.connect()
        #expect(try sql.query("SELECT count(*) AS n FROM game_results WHERE game = 'path_finder'").value("n") == "2")
    }
}
