import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// SIGTERM while PostgreSQL is down (issue 45, item 4): 20 racers of a
/// cluster instance mid-race, drawing, the database stopped. Every racer is
/// told `finished` and closed with 1001, whatever the database does, even
/// one whose reading lags (a slow link, a busy phone: here a small receive
/// buffer and 300 ms before it reads again). The process exits 0 with every
/// run journaled.
@Suite(.serialized) struct ShutdownDatabaseDownTests {
    @Test func sigtermWithTheDatabaseStoppedSaysFinishedAnd1001ToEveryRacer() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("mindpad-pgdown-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let (server, port) = try ServerProcess.serve(
            databaseURL: cluster.url, extraArguments: ["--data-dir", dataDir.path],
            environment: ["MINDPAD_INSTANCE": "i1", "LOG_LEVEL": "debug", "MINDPAD_TIME_ATTACK_SECONDS": "300", "MINDPAD_COUNTDOWN_SECONDS": "0"])
        try server.waitForLine(containing: "registered in the cluster")

        // Four rooms of five, racing; each racer answers one question.
        var racers: [RealtimeClient] = []
        for r in 0..<4 {
            let host = try RealtimeClient(port: port, label: "Down\(r)x0", receiveBuffer: 2048)
            try host.identify("Down\(r)x0")
            let code = try host.createRoom(mode: "time_attack", maxPlayers: 5)
            var room = [host]
            for p in 1..<5 {
                let c = try RealtimeClient(port: port, label: "Down\(r)x\(p)", receiveBuffer: 2048)
                try c.identify("Down\(r)x\(p)")
                try c.join(code)
                try c.ready(seenBy: host)
                room.append(c)
            }
            try host.send(["type": "start"])
            racers += room
        }
        var current: [String] = []
        for c in racers {
            let q = try c.next("question", timeout: .seconds(10))
            try c.send(["type": "submit", "question": q["question"] as! String, "answer": "\(expectedDigit(q))"])
            current.append(try c.next("question", timeout: .seconds(5))["question"] as! String)
        }

        // PostgreSQL stops; the racers draw on, from their own threads.
        try cluster.stop()
        try server.waitForLine(containing: "listen connection lost")
        let drawing = Atomic<Bool>(true)
        let drawers = racers.enumerated().map { (i, c) -> Thread in
            let frame = Array(#"{"type":"points","question":"\#(current[i])","stroke":0,"points":[[10,10],[12,14],[15,20]]}"#.utf8)
            return Thread {
                while drawing.load(ordering: .relaxed) {
                    guard (try? c.sendFrame(opcode: 0x1, payload: frame)) != nil else { return }
                    usleep(30_000)
                }
            }
        }
        drawers.forEach { $0.start() }
        try server.waitForLine(containing: "handling signals")
        let signalled = ContinuousClock.now
        kill(server.process.processIdentifier, SIGTERM)
        // The racers read again 300 ms later (their lag), each on its own
        // thread, until the server closes them.
        Thread.sleep(forTimeInterval: 0.3)
        let outcomes = Mutex<[String: (finished: Bool, close: UInt16?)]>([:])
        let readers = racers.map { c in
            Thread {
                let close = try? c.waitForClose(timeout: .seconds(10))
                let finished = c.log.contains { $0.message["type"] as? String == "finished" }
                outcomes.withLock { $0[c.label] = (finished, close) }
            }
        }
        readers.forEach { $0.start() }
        let exit = server.waitForExit(timeout: .seconds(15))
        try waitFor("every racer's reader", timeout: .seconds(15)) { outcomes.withLock { $0.count } == racers.count }
        drawing.store(false, ordering: .relaxed)

        #expect(exit == 0, "exit status \(String(describing: exit))\n\(server.output)")
        let took = ContinuousClock.now - signalled
        #expect(took < .seconds(10), "stopped \(took) after SIGTERM")
        let got = outcomes.withLock { $0 }
        let noFinished = got.filter { !$0.value.finished }.keys.sorted()
        let not1001 = got.filter { $0.value.close != 1001 }.map { "\($0.key): \(String(describing: $0.value.close))" }.sorted()
        #expect(noFinished.isEmpty, "\(noFinished.count) of \(racers.count) racers never got finished: \(noFinished)")
        #expect(not1001.isEmpty, "\(not1001.count) of \(racers.count) racers were not closed with 1001: \(not1001)")
        // Every run is in the journal (the database is down).
        #expect(try ResultJournal(directory: dataDir).pending().count == racers.count)
    }
}
