import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// A kids' level through the real binary: real sockets, the recognition
/// pool reading one written digit, and a real PostgreSQL storing the result
/// with its level and opening the next level in `level_progress`.
@Suite struct KidsLiveTests {
    /// A `kids_counting` question as a player reads it: its id, prompt, the
    /// right count and the options' values.
    static func countingQuestion(_ question: RealtimeClient.Message) throws
        -> (id: String, prompt: [String: Any], right: Int, values: [String]) {
        let prompt = try #require(question["prompt"] as? [String: Any])
        let picture = try #require(prompt["picture"] as? [String: Any])
        let right = try #require((picture["items"] as? [[String: Any]])?.first?["count"] as? Int)
        let values = (prompt["options"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        return (try #require(question["question"] as? String), prompt, right, values)
    }

    @Test func aLevelPlayedToEightOfTenOpensTheNextLevel() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer()
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let identified = try ann.identify("Ann")
        let account = try #require(Int64(String((identified["player_id"] as? String ?? "").dropFirst())))

        // Issue 45: level 2 is locked until level 1 is passed: refused before
        // any room opens or any result is stored (in any game).
        for game in ["kids_counting", "kids_colours"] {
            try ann.send(["type": "create_room", "game": game, "mode": "normal", "level": 2])
            let locked = try ann.next("error")
            #expect(locked["code"] as? String == "level_locked" && locked["request"] as? String == "create_room")
            #expect((locked["message"] as? String)?.contains("pass level 1 (Ant)") == true)
        }

        try ann.send(["type": "create_room", "game": "kids_counting", "mode": "normal", "level": 1])
        let room = try #require(try ann.next("room")["room"] as? [String: Any])
        #expect(room["game"] as? String == "kids_counting" && room["level"] as? Int == 1)
        try ann.send(["type": "start"])
        var correct: [Bool] = []
        for index in 0..<10 {
            let (id, prompt, right, values) = try Self.countingQuestion(try ann.next("question"))
            switch index {
            case 0:
                // Written on the pad: the live guess, then the submit reads it.
                #expect(prompt["drawable"] as? Bool == true)
                let guess = try ann.draw(right, question: id)
                #expect(guess["digit"] as? Int == right)
                try ann.send(["type": "submit", "question": id])
            case 4, 7:
                try ann.send(["type": "submit", "question": id, "answer": values.first { $0 != String(right) }!])
            default:
                try ann.send(["type": "submit", "question": id, "answer": String(right)])
            }
            let graded = try ann.next("graded") { $0["question"] as? String == id }
            correct.append(graded["correct"] as? Bool == true)
        }
        #expect(correct.filter { $0 }.count == 8 && !correct[4] && !correct[7] && correct[0])
        let result = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
        #expect(result["score"] as? Int == 8)
        let saved = try ann.next("result_saved", timeout: .seconds(10))
        #expect(saved["game"] as? String == "kids_counting" && saved["stored"] as? String == "database")

        let sql = try db.connect()
        let stored = try sql.query("""
            SELECT level, score, correct FROM game_results WHERE player_id = \(account)::bigint AND game = 'kids_counting'
            """)
        #expect(stored.count == 1 && stored.value("level") == "1" && stored.value("score") == "8" && stored.value("correct") == "8")
        let progress = try sql.query("""
            SELECT level, best_correct, passed_at IS NOT NULL AS passed FROM level_progress
            WHERE player_id = \(account)::bigint AND game = 'kids_counting'
            """)
        #expect(progress.count == 1 && progress.value("level") == "1" && progress.value("best_correct") == "8" && progress.value("passed") == "t")

        // Level 2 is open now: its result counts too.
        try ann.send(["type": "leave_room"])
        _ = try ann.next("left_room")
        try ann.send(["type": "create_room", "game": "kids_counting", "mode": "normal", "level": 2])
        #expect((try ann.next("room")["room"] as? [String: Any])?["level"] as? Int == 2)
        try ann.send(["type": "start"])
        for _ in 0..<10 {
            let (id, _, right, values) = try Self.countingQuestion(try ann.next("question"))
            // A value none of the options is refused (issue 45); a wrong option is graded.
            try ann.send(["type": "submit", "question": id, "answer": "zz"])
            #expect(try ann.next("error")["code"] as? String == "bad_answer")
            try ann.send(["type": "submit", "question": id, "answer": values.first { $0 != String(right) }!])
            _ = try ann.next("graded") { $0["question"] as? String == id }
        }
        _ = try ann.next("result_saved", timeout: .seconds(10))
        let levels = try sql.query("""
            SELECT level, best_correct FROM level_progress WHERE player_id = \(account)::bigint AND game = 'kids_counting' ORDER BY level
            """)
        #expect(levels.count == 2 && levels.value("level", row: 1) == "2" && levels.value("best_correct", row: 1) == "0")
        // Nothing was stored of the locked levels refused above.
        #expect(try sql.query("SELECT count(*) AS n FROM game_results WHERE player_id = \(account)::bigint").value("n") == "2")

        // Bo joins Ann's level 2: locked for him, refused; Ann's level 1 room he may join.
        try ann.send(["type": "leave_room"])
        _ = try ann.next("left_room")
        try ann.send(["type": "create_room", "game": "kids_counting", "mode": "normal", "level": 2])
        let code = try #require(try ann.next("room")["code"] as? String)
        let bo = try RealtimeClient(port: port, label: "bo")
        _ = try bo.identify("Bo")
        try bo.send(["type": "join_room", "code": code])
        let refused = try bo.next("error")
        #expect(refused["code"] as? String == "level_locked" && refused["request"] as? String == "join_room")
    }
}
