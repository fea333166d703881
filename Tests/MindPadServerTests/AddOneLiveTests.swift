import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// The Add-One game through the real binary: real sockets, the real
/// recognition pool reading numbers, a real PostgreSQL keeping the result
/// with its keypad count and raising the fish's best score.
@Suite struct AddOneLiveTests {
    @Test func aFishRaceWrittenAndTypedIsStoredWithItsFish() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer(timeAttackSeconds: "4")
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let identified = try ann.identify("Ann")
        let account = try #require(Int64(String((identified["player_id"] as? String ?? "").dropFirst())))
        // A fish made as the fish API would (that API is not under test here).
        let fish = UUID()
        let sql = try db.connect()
        try sql.query("""
            INSERT INTO fish (id, player_id, name, kind) VALUES (\(fish.uuidString)::uuid, \(account)::bigint, 'Bubbles', 'goldfish')
            """)

        try ann.send(["type": "create_room", "game": "addone", "mode": "time_attack", "fish": fish.uuidString.lowercased()])
        #expect(((try ann.next("room"))["room"] as? [String: Any])?["game"] as? String == "addone")
        try ann.send(["type": "start"])
        var graded: [[String: Any]] = []
        for index in 0..<3 {
            let question = try ann.next("question")
            let id = question["question"] as! String
            let digits = try #require((question["prompt"] as? [String: Any])?["digits"] as? String)
            let answer = DigitTemplates.addOne(digits)
            switch index {
            case 1:
                // Written: the live guess reads the whole number, then the submit.
                let guess = try ann.drawNumber(answer, question: id)
                #expect(guess["number"] as? String == answer)
                #expect((guess["digits"] as? [[String: Any]])?.count == answer.count)
                try ann.send(["type": "submit", "question": id])
            case 2:
                try ann.send(["type": "submit", "question": id, "answer": DigitTemplates.addOne(answer)])
            default:
                try ann.send(["type": "submit", "question": id, "answer": answer])
            }
            graded.append(try ann.next("graded") { $0["question"] as? String == id })
        }
        #expect(graded.map { $0["correct"] as? Bool } == [true, true, false])
        #expect(graded.map { $0["confidence"] != nil } == [false, true, false])
        let result = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
        #expect(result["keypad_answers"] as? Int == 2 && result["score"] as? Int == 2 && result["answered"] as? Int == 3)
        let saved = try ann.next("result_saved", timeout: .seconds(10))
        #expect(saved["game"] as? String == "addone" && saved["stored"] as? String == "database")

        let row = try sql.query("""
            SELECT keypad_answers, fish_id::text AS fish, score FROM game_results WHERE player_id = \(account)::bigint AND game = 'addone'
            """)
        #expect(row.count == 1)
        #expect(row.value("keypad_answers") == "2" && row.value("fish") == fish.uuidString.lowercased() && row.value("score") == "2")
        #expect(try sql.query("SELECT best_score FROM fish WHERE id = \(fish.uuidString)::uuid").value("best_score") == "2")
        let board = try TestHTTP.request(port: port, path: "/api/leaderboard?game=addone&mode=time_attack").json()
        let entries = board["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["name"] as? String } == ["Ann"] && entries.first?["score"] as? Int == 2)
    }
}
