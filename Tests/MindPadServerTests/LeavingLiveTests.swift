import Foundation
import MindPadTestSupport
import Testing

/// Issue 45 over real sockets, the real binary and PostgreSQL: a racer who
/// leaves mid-race hears their run's `finished` and `result_saved` before
/// `left_room`, and a room opened at once (sent without waiting) answers
/// after `left_room`, with nothing of the old race after it.
@Suite struct LeavingLiveTests {
    @Test func leavingMidRaceEndsWithLeftRoomAndTheNextRoomFollows() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer(timeAttackSeconds: "30")
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        _ = try ann.identify("Ann")
        _ = try ann.createRoom(mode: "time_attack", maxPlayers: 1)
        try ann.send(["type": "start"])
        let question = try ann.next("question")
        let race = try #require((try ann.next("race_started"))["race"] as? String)
        let id = try #require(question["question"] as? String)
        try ann.send(["type": "submit", "question": id, "answer": 3])
        _ = try ann.next("graded")
        let before = ann.log.count
        // Leave, then at once a new solo Normal room and its start.
        try ann.sendTextsAtOnce([#"{"type":"leave_room"}"#, #"{"type":"create_room","mode":"normal","max_players":1}"#,
                                 #"{"type":"start"}"#])
        _ = try ann.next("race_started", timeout: .seconds(10))
        let after = ann.log[before...].map(\.message)
        let types = after.compactMap { $0["type"] as? String }
        let left = try #require(types.firstIndex(of: "left_room"), "\(types)")
        // (The old race's next question and progress may have been on the wire already.)
        #expect(types[..<left].filter { !["progress", "question"].contains($0) } == ["finished", "result_saved"], "\(types)")
        #expect((after[types.firstIndex(of: "finished")!]["result"] as? [String: Any])?["race"] as? String == race)
        #expect(!types[(left + 1)...].contains("finished") && !types[(left + 1)...].contains("result_saved"), "\(types)")
        #expect(types[(left + 1)...].first == "room", "\(types)")
        let sql = try db.connect()
        #expect(try sql.query("SELECT count(*) AS n FROM game_results WHERE race_id = \(race)").value("n") == "1")
    }
}
