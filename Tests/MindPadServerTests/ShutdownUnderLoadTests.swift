import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// SIGTERM while rooms of racers are mid-race, with drawings and
/// submissions in flight: every client is told 1001, the process exits
/// within 10 s, and every racer's run is either in PostgreSQL or in the
/// journal — none lost, none twice.
@Suite(.serialized) struct ShutdownUnderLoadTests {
    @Test func sigtermMidRaceLosesNoResult() throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("mindpad-shutdown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let db = try ScratchDatabase()
        defer { db.drop() }
        let (server, port) = try ServerProcess.serve(
            databaseURL: db.url, extraArguments: ["--data-dir", dataDir.path],
            environment: ["MINDPAD_TIME_ATTACK_SECONDS": "120", "MINDPAD_COUNTDOWN_SECONDS": "0.2"])

        let roomCount = 3, seats = 8
        var racers: [RealtimeClient] = []
        var codes: [String] = []
        for r in 0..<roomCount {
            let host = try RealtimeClient(port: port, label: "r\(r)p0")
            try host.identify("Shut\(r)x0")
            let code = try host.createRoom(mode: "time_attack", maxPlayers: seats)
            codes.append(code)
            var room = [host]
            for p in 1..<seats {
                let c = try RealtimeClient(port: port, label: "r\(r)p\(p)")
                try c.identify("Shut\(r)x\(p)")
                try c.join(code)
                room.append(c)
            }
            for c in room { try c.send(["type": "ready", "ready": true]) }
            // Everyone's ready shows before the host may start.
            _ = try host.next("room_updated", timeout: .seconds(5)) { msg in
                let members = ((msg["room"] as? [String: Any])?["members"] as? [[String: Any]]) ?? []
                return members.count == seats && members.allSatisfy { $0["ready"] as? Bool == true }
            }
            try host.send(["type": "start"])
            racers += room
        }
        // Every racer answers its first question right…
        var current: [String] = []
        for c in racers {
            let q = try c.next("question", timeout: .seconds(10))
            let graded = try c.answer(expectedDigit(q), question: q["question"] as! String)
            #expect(graded["correct"] as? Bool == true)
            current.append(try c.next("question", timeout: .seconds(5))["question"] as! String)
        }
        // …then, with the next drawing half sent and half the racers'
        // submissions in flight, the server is told to stop.
        for (i, c) in racers.enumerated() {
            try c.send(["type": "points", "question": current[i], "stroke": 0, "points": [[10, 10], [20, 40], [30, 80]]])
            if i % 2 == 0 { try c.send(["type": "submit", "question": current[i]]) }
        }
        let exitedAfter = server.stop(signal: SIGTERM, timeout: .seconds(10))
        #expect(exitedAfter != nil, "mindpad did not exit within 10 s of SIGTERM")
        #expect(server.process.terminationStatus == 0)

        for c in racers {
            #expect(try c.waitForClose(timeout: .seconds(5)) == 1001, "\(c.label)")
        }

        // Every run is stored or journaled, exactly once.
        let rows = try db.connect().query("""
            SELECT count(*) AS n, count(DISTINCT player_id) AS players, coalesce(min(score), -1) AS min_score
            FROM game_results
            """)
        let stored = Int(rows.value("n") ?? "") ?? -1
        #expect(Int(rows.value("players") ?? "") == stored, "a run was stored twice")
        let journaled = try ResultJournal(directory: dataDir).pending()
        let storedIDs = try db.connect().query("SELECT result_id FROM game_results")
        let storedSet = Set((0..<stored).compactMap { storedIDs.value("result_id", row: $0) })
        #expect(journaled.allSatisfy { !storedSet.contains($0.resultID) }, "a run both stored and journaled")
        #expect(stored + journaled.count == racers.count,
                "stored \(stored) + journaled \(journaled.count) ≠ \(racers.count) racers\n\(server.output)")
        #expect(server.output.contains("rooms closed for shutdown"))
        _ = codes
    }
}
