import Foundation
import MindPadTestSupport
import Synchronization
import Testing

/// SIGTERM while 60 racers are drawing (points streaming from their own
/// threads at the moment the signal lands): every one of them is told
/// `finished` and gets a 1001 close, never a dropped connection, run after
/// run. (Issue 14 §5: before, 1–3 clients in 3 of 13 runs got 1006.)
@Suite(.serialized) struct ShutdownWhileDrawingTests {
    static let runs = 10
    static let clients = 60

    @Test func everyDrawingClientSeesFinishedAndA1001Close() throws {
        var failures: [String] = []
        var finishedFrames = 0, closes1001 = 0
        for run in 0..<Self.runs {
            let (finished, closed, problems) = try Self.oneRun(run)
            finishedFrames += finished
            closes1001 += closed
            failures += problems.map { "run \(run): \($0)" }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
        #expect(finishedFrames == Self.runs * Self.clients)
        #expect(closes1001 == Self.runs * Self.clients)
    }

    static func oneRun(_ run: Int) throws -> (finished: Int, closed: Int, problems: [String]) {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("mindpad-sigterm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let db = try ScratchDatabase()
        defer { db.drop() }
        let (server, port) = try ServerProcess.serve(
            databaseURL: db.url, extraArguments: ["--data-dir", dataDir.path],
            environment: ["MINDPAD_TIME_ATTACK_SECONDS": "300", "MINDPAD_COUNTDOWN_SECONDS": "0"])

        // Rooms of 8 (the last one smaller), everyone ready, started.
        var racers: [RealtimeClient] = []
        var index = 0
        while index < clients {
            let seats = min(8, clients - index)
            let host = try RealtimeClient(port: port, label: "h\(index)")
            try host.identify("R\(run)n\(index)")
            let code = try host.createRoom(mode: "time_attack", maxPlayers: seats)
            var room = [host]
            for p in 1..<seats {
                let c = try RealtimeClient(port: port, label: "c\(index + p)")
                try c.identify("R\(run)n\(index + p)")
                try c.join(code)
                try c.send(["type": "ready", "ready": true])
                room.append(c)
            }
            _ = try host.next("room_updated", timeout: .seconds(5)) { msg in
                let members = ((msg["room"] as? [String: Any])?["members"] as? [[String: Any]]) ?? []
                return members.count == seats && members.dropFirst().allSatisfy { $0["ready"] as? Bool == true }
            }
            try host.send(["type": "start"])
            racers += room
            index += seats
        }
        var questions: [String] = []
        for c in racers { questions.append(try c.next("question", timeout: .seconds(10))["question"] as! String) }

        // Everyone draws from their own thread, a batch every 30 ms, until
        // their socket refuses; SIGTERM lands in the middle of it.
        let drawing = Atomic<Bool>(true)
        let threads = racers.enumerated().map { (i, c) -> Thread in
            let frame = Array(#"{"type":"points","question":"\#(questions[i])","stroke":0,"points":[[10,10],[12,14],[15,20]]}"#.utf8)
            let thread = Thread {
                while drawing.load(ordering: .relaxed) {
                    guard (try? c.sendFrame(opcode: 0x1, payload: frame)) != nil else { return }
                    usleep(30_000)
                }
            }
            thread.start()
            return thread
        }
        usleep(300_000)
        let exited = server.stop(signal: SIGTERM, timeout: .seconds(15))
        drawing.store(false, ordering: .relaxed)
        _ = threads
        var problems: [String] = []
        if exited == nil { problems.append("did not exit within 15 s") }
        var finished = 0, closed = 0
        for c in racers {
            let code = try? c.waitForClose(timeout: .seconds(5))
            if c.inbox.contains(where: { $0["type"] as? String == "finished" }) || c.log.contains(where: { $0.message["type"] as? String == "finished" }) {
                finished += 1
            } else {
                problems.append("\(c.label): no finished")
            }
            if code == 1001 { closed += 1 } else { problems.append("\(c.label): close \(code.map(String.init) ?? "none")") }
        }
        return (finished, closed, problems)
    }
}
