import MindPadJSON
import MindPadRules
import MindPadStorage
import Synchronization
import Testing
@testable import MindPadServer

/// Issue 45 through the in-process hub: what a game's rules forbid is
/// refused with a documented code before anything counts or is stored (a
/// locked level, a kids' value none of the options, a grid of 0 rows); the
/// path finder's winning move is shown; the fish's reactions are said.
@Suite struct GameRulesHubTests {
    /// Levels passed per (player id, game), answering at once; `down`
    /// answers as a database that does not.
    final class Levels: LevelDirectory {
        let passed = Mutex<[String: Set<Int>]>([:])
        let down = Atomic<Bool>(false)
        let asked = Atomic<Int>(0)

        func pass(_ player: Int64, _ game: String, _ level: Int) {
            passed.withLock { $0["\(player) \(game)", default: []].insert(level) }
        }

        func passedLevels(playerID: Int64, game: String, completion: @escaping @Sendable (Result<Set<Int>, PostgresError>) -> Void) {
            asked.add(1, ordering: .relaxed)
            if down.load(ordering: .relaxed) { return completion(.failure(PostgresError(.connectionFailed, message: "down"))) }
            completion(.success(passed.withLock { $0["\(playerID) \(game)"] ?? [] }))
        }
    }

    static func createKids(_ client: HubClient, level: Int, game: String = "kids_counting") {
        client.send([("type", .string("create_room")), ("mode", .string("normal")), ("game", .string(game)), ("level", .int(level))])
    }

    // MARK: Locked levels

    @Test func aLockedLevelIsRefusedBeforeARoomOpens() throws {
        let h = try HubHarness()
        let levels = Levels()
        h.hub.levels = levels
        let ann = h.connect("ann")
        let id = try #require(ann.identify("Ann")?["player_id"]?.string.flatMap { Int64($0.dropFirst()) })
        // Level 1 is open to everyone, without asking.
        #expect(ann.createRoom(game: "kids_counting", mode: "normal") != nil)
        #expect(levels.asked.load(ordering: .relaxed) == 0)
        ann.send([("type", .string("leave_room"))])
        _ = ann.next("left_room")

        // Level 3 with nothing passed, then with only level 1 passed: locked.
        for passed in [[], [1]] {
            for level in passed { levels.pass(id, "kids_counting", level) }
            Self.createKids(ann, level: 3)
            let error = try #require(ann.next("error"))
            #expect(error["code"] == .string("level_locked") && error["request"] == .string("create_room"))
            #expect(error["message"]?.string?.contains("pass level 2 (Bee)") == true, "\(error)")
            #expect(h.hub.roomCount == 0 && ann.all("room").isEmpty)
        }
        // Another game's passes open nothing here.
        levels.pass(id, "kids_addition", 2)
        Self.createKids(ann, level: 3)
        #expect(ann.errorCode() == "level_locked")
        // Level 2 passed: level 3 opens.
        levels.pass(id, "kids_counting", 2)
        Self.createKids(ann, level: 3)
        #expect(ann.next("room")?["room"]?["level"] == .int(3))
        ann.send([("type", .string("leave_room"))])
        _ = ann.next("left_room")

        // A database that cannot say: unavailable, nothing opened.
        levels.down.store(true, ordering: .relaxed)
        Self.createKids(ann, level: 2)
        #expect(ann.errorCode() == "unavailable" && h.hub.roomCount == 0)
    }

    @Test func joiningALevelLockedForTheJoinerIsRefused() throws {
        let h = try HubHarness()
        let levels = Levels()
        h.hub.levels = levels
        let ann = h.connect("ann"), bo = h.connect("bo")
        let annID = try #require(ann.identify("Ann")?["player_id"]?.string.flatMap { Int64($0.dropFirst()) })
        let boID = try #require(bo.identify("Bo")?["player_id"]?.string.flatMap { Int64($0.dropFirst()) })
        levels.pass(annID, "kids_addition", 1)
        Self.createKids(ann, level: 2, game: "kids_addition")
        let code = try #require(ann.next("room")?["code"]?.string)
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        let error = try #require(bo.next("error"))
        #expect(error["code"] == .string("level_locked") && error["request"] == .string("join_room"))
        #expect(h.hub.rooms[code]?.snapshot.members.count == 1)
        levels.pass(boID, "kids_addition", 1)
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        #expect(bo.next("room")?["room"]?["level"] == .int(2))
    }

    // MARK: Answers a rule forbids

    @Test func aKidsValueNoneOfTheOptionsIsRefusedNotGraded() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", game: "kids_colours", mode: "normal"))
        let id = try #require(question["question"]?.string)
        let values = try #require(question["prompt"]?["options"]?.array).compactMap { $0["value"]?.string }
        // Values of the right shape that are none of the options: "9" for colours, "cat", a colour not offered.
        let unoffered = ["9", "zebra"] + ["red", "yellow", "blue", "green"].filter { !values.contains($0) }.prefix(1)
        for value in unoffered {
            ann.submit(id, answer: .string(value))
            let error = try #require(ann.next("error"))
            #expect(error["code"] == .string("bad_answer") && error["request"] == .string("submit"), "\(value)")
        }
        #expect(ann.all("graded").isEmpty && ann.all("question").isEmpty)
        // The question is still open: a real option is graded.
        ann.submit(id, answer: .string(values[0]))
        #expect(ann.next("graded") != nil)
        h.advance(by: .seconds(1))
        let progress = try #require(ann.all("progress").last?["racers"]?.array?.first)
        #expect(progress["correct"]!.integer! + progress["wrong"]!.integer! == 1)
    }

    @Test func aWrittenDigitNoneOfTheOptionsIsGradedWrong() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", game: "kids_counting", mode: "normal"))
        let id = try #require(question["question"]?.string)
        let values = try #require(question["prompt"]?["options"]?.array).compactMap { $0["value"]?.string }
        let digit = try #require((0...9).first { !values.contains(String($0)) })
        ann.draw(digit, question: id)
        ann.submit(id)
        let graded = try #require(ann.next("graded"))
        #expect(graded["correct"] == .bool(false) && graded["answer"] == .string(String(digit)))
    }

    @Test func anAbsurdGridGuessIsRefusedAndCountsNoTry() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let first = try #require(ann.startSolo("Ann", game: "path_finder", mode: "normal"))
        let id = try #require(first["question"]?.string)
        for (rows, columns) in [(0, 5), (-1, 4), (Int.max, 1), (4, 0), (10, 2), (5, Int.min)] {
            ann.submit(id, answer: .object([("rows", .int(rows)), ("columns", .int(columns))]))
            let error = try #require(ann.next("error"))
            // (An integer beyond what the JSON reader keeps exactly is not an answer of the game's shape: bad_answer too.)
            #expect(error["code"] == .string("bad_answer"), "\(rows)×\(columns)")
            if (-99...99).contains(rows) && (-99...99).contains(columns) { #expect(error["message"]?.string?.contains("1 to 9") == true, "\(error)") }
        }
        #expect(ann.all("graded").isEmpty && ann.all("question").isEmpty)
        // A wrong guess within 1–9 is a try, as before.
        ann.submit(id, answer: .object([("rows", .int(9)), ("columns", .int(9))]))
        #expect(ann.next("graded")?["retry"] == .bool(true))
        #expect(ann.next("question")?["prompt"]?["tries"] == .int(1))
    }

    // MARK: The path finder's last move

    @Test func theWinningMoveIsShownBeforeItsGradeAndProgressSaysTheGoal() throws {
        let h = try HubHarness()
        let ann = h.connect("ann"), bo = h.connect("bo")
        ann.identify("Ann")
        bo.identify("Bo")
        let code = try #require(ann.createRoom(game: "path_finder", mode: "normal"))
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        let first = try #require(ann.next("question"))
        let id = try #require(first["question"]?.string)
        let cells = try #require(first["prompt"]?["cells"]?.integer)
        var steer: JSON?
        for (rows, columns) in PathFinderHubTests.grids(cells) where steer == nil {
            ann.submit(id, answer: .object([("rows", .int(rows)), ("columns", .int(columns))]))
            if ann.all("graded").isEmpty { steer = ann.next("question") } else { _ = ann.next("question") }
        }
        let goal = try #require(PathFinderHubTests.cell(steer?["prompt"]?["goal"]))
        var moves = Array(repeating: PathMove.south, count: goal.row - 1) + Array(repeating: PathMove.east, count: goal.column - 1)
        let last = moves.removeLast()
        for move in moves {
            h.advance(by: .milliseconds(300))
            ann.submit(id, answer: PathFinderHubTests.move(move))
        }
        _ = ann.all("question")
        h.advance(by: .milliseconds(300))
        let before = ann.log.count
        ann.submit(id, answer: PathFinderHubTests.move(last))
        let after = ann.log[before...].map(\.message)
        let types = after.compactMap { $0["type"]?.string }
        // The robot on the goal, under the same id, then the grade.
        let shown = try #require(after.first { $0["type"] == .string("question") })
        #expect(shown["question"] == .string(id) && PathFinderHubTests.cell(shown["prompt"]?["robot"]) == goal)
        #expect(shown["prompt"]?["steps"] == .int(moves.count + 1))
        #expect(types.firstIndex(of: "question")! < types.firstIndex(of: "graded")!, "\(types)")
        // Progress (Bo still racing): Ann completed, 0 to go; Bo guessing, nothing.
        h.advance(by: .seconds(1))
        let racers = try #require(bo.all("progress").last?["racers"]?.array)
        #expect(racers.first { $0["name"] == .string("Ann") }?["remaining"] == .int(0))
        #expect(racers.first { $0["name"] == .string("Ann") }?["status"] == .string("completed"))
        #expect(racers.first { $0["name"] == .string("Bo") }?["remaining"] == nil)
        // The stored round keeps the route: the start when the grid was shown, then every move.
        bo.send([("type", .string("leave_room"))])
        let record = try #require(h.sink.records.withLock { $0.first { $0.path?.endedAtMs != nil } })
        let route = try #require(record.path?.route)
        #expect(route.count == moves.count + 2 && route.first?.prefix(2) == [1, 1])
        #expect(route.last?.prefix(2) == [goal.row, goal.column])
        #expect(zip(route, route.dropFirst()).allSatisfy { $0[2] <= $1[2] && abs($0[0] - $1[0]) + abs($0[1] - $1[1]) == 1 })
    }

    // MARK: The fish

    @Test func theFishReactionIsSaidWhenItChanges() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let fish = "3f2b8c1e-6a4d-4e0b-9a57-1c2d3e4f5a6b"
        var question = try #require(ann.startSolo("Ann", game: "addone", mode: "survival", fish: fish))
        var reactions: [(Int, String?, Int?)] = []
        for index in 0..<7 {
            let id = try #require(question["question"]?.string)
            let digits = try #require(question["prompt"]?["digits"]?.string)
            let answer = String(digits.map { Character(String((Int(String($0))! + 1) % 10)) })
            let before = ann.log.count
            ann.submit(id, answer: .string(answer))
            let said = ann.log[before...].map(\.message)
            if let reaction = said.first(where: { $0["type"] == .string("fish") }) {
                let types = said.compactMap { $0["type"]?.string }
                #expect(types.firstIndex(of: "graded")! < types.firstIndex(of: "fish")!)
                #expect(reaction["fish"] == .string(fish) && reaction["question"] == .string(id))
                reactions.append((index + 1, reaction["reaction"]?.string, reaction["correct"]?.integer))
            }
            _ = ann.all("fish")
            question = try #require(ann.next("question"))
        }
        #expect(reactions.map(\.0) == [3, 6] && reactions.map(\.1) == ["swim", "jump"] && reactions.map(\.2) == [3, 6])
        // Without a fish, no fish message.
        let bo = h.connect("bo")
        var q = try #require(bo.startSolo("Bo", game: "addone", mode: "time_attack"))
        for _ in 0..<4 {
            let digits = try #require(q["prompt"]?["digits"]?.string)
            bo.submit(try #require(q["question"]?.string), answer: .string(String(digits.map { Character(String((Int(String($0))! + 1) % 10)) })))
            #expect(bo.next("graded")?["correct"] == .bool(true))
            q = try #require(bo.next("question"))
        }
        #expect(bo.all("fish").isEmpty)
    }
}
