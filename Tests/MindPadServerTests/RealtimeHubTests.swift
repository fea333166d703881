import Foundation
import MindPadRecognition
import MindPadRules
import MindPadStorage
import Synchronization
import Testing
@testable import MindPadServer

/// A directory in memory; `down` makes it answer `unavailable`.
final class FakePlayerDirectory: PlayerDirectory {
    let players = Mutex<[String: (IdentifiedPlayer, String)]>([:])
    let down = Atomic<Bool>(false)

    func register(name: String, nameKey: String,
                  completion: @escaping @Sendable (Result<(IdentifiedPlayer, token: String), IdentityError>) -> Void) {
        if down.load(ordering: .relaxed) { return completion(.failure(.unavailable)) }
        let result = players.withLock { p -> Result<(IdentifiedPlayer, token: String), IdentityError> in
            if p[nameKey] != nil { return .failure(.nameTaken) }
            let player = IdentifiedPlayer(id: Int64(p.count + 1), name: name)
            let token = UUID().uuidString
            p[nameKey] = (player, token)
            return .success((player, token))
        }
        DispatchQueue.global().async { completion(result) }
    }

    func authenticate(nameKey: String, token: String,
                      completion: @escaping @Sendable (Result<IdentifiedPlayer, IdentityError>) -> Void) {
        if down.load(ordering: .relaxed) { return completion(.failure(.unavailable)) }
        let found = players.withLock { $0[nameKey] }
        DispatchQueue.global().async {
            if let found, found.1 == token { completion(.success(found.0)) } else { completion(.failure(.wrongToken)) }
        }
    }
}

/// Keeps results in memory, or pretends the database is away (`journal`).
final class FakeResultSink: ResultSink {
    let records = Mutex<[GameResultRecord]>([])
    let journal: Bool
    init(journal: Bool) { self.journal = journal }

    func record(_ result: GameResultRecord, durable: @escaping @Sendable () -> Void,
                completion: @escaping @Sendable (ResultDelivery) -> Void) {
        records.withLock { $0.append(result) }
        let journal = journal
        DispatchQueue.global().async {
            durable()
            completion(journal ? .journaled : .stored(RecordOutcome(stored: true, personalBest: true, previousBest: nil)))
        }
    }
}

/// The transport's delegate in these tests: WebSocket traffic to the hub.
final class HubDelegate: WebServerDelegate {
    let hub: RealtimeHub
    init(hub: RealtimeHub) { self.hub = hub }
    func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String) { hub.opened(connection, on: server) }
    func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID) { hub.received(text, from: connection, on: server) }
    func webServer(_ server: WebServer, didClose connection: ConnectionID) { hub.closed(connection, on: server) }
    func webServer(_ server: WebServer, handle request: HTTPRequest, responder: HTTPResponder) {
        responder.respond(.error(404, code: "not_found", message: "no"))
    }
}

/// The hub in-process with fakes for the directory and storage.
@Suite(.serialized) struct RealtimeHubTests {
    let directory = FakePlayerDirectory()
    let sink = FakeResultSink(journal: true)
    let server: WebServer
    let delegate: HubDelegate

    init() throws {
        var options = RealtimeOptions()
        options.countdown = .zero
        options.timeAttackLength = .seconds(60)
        let hub = RealtimeHub(options: options, players: directory, results: sink,
                              recognition: try RecognitionPool.bundled(threads: 1))
        delegate = HubDelegate(hub: hub)
        server = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil))
        server.delegate = delegate
        try server.start()
    }

    private func shutDown() {
        server.stop()
        server.waitUntilStopped()
    }

    @Test func anUnavailableDirectoryIsReportedAndRetried() throws {
        defer { shutDown() }
        let ann = try RealtimeClient(port: server.port, label: "ann")
        directory.down.store(true, ordering: .relaxed)
        try ann.send(["type": "identify", "name": "Ann"])
        try ann.error("unavailable")
        directory.down.store(false, ordering: .relaxed)
        #expect(try ann.identify("Ann")["new"] as? Bool == true)
    }

    @Test func aJournaledResultIsReportedWithoutABest() throws {
        defer { shutDown() }
        let ann = try RealtimeClient(port: server.port, label: "ann")
        try ann.identify("Ann")
        _ = try ann.createRoom(mode: "survival")
        try ann.send(["type": "start"])
        let q = try ann.next("question")
        _ = try ann.answer((expectedDigit(q) + 3) % 10, question: "r1q0")
        let saved = try ann.next("result_saved")
        #expect(saved["stored"] as? String == "journal")
        #expect(saved["personal_best"] == nil)
        let record = try #require(sink.records.withLock { $0.first })
        #expect(record.mode == "survival" && record.answered == 1 && record.correct == 0 && record.playerID == 1)
    }

    @Test func aSecondConnectionTakesOverAndResumes() throws {
        defer { shutDown() }
        let first = try RealtimeClient(port: server.port, label: "first")
        let token = try first.identify("Ann")["token"] as! String
        let code = try first.createRoom(mode: "time_attack")
        try first.send(["type": "start"])
        _ = try first.next("question")

        let second = try RealtimeClient(port: server.port, label: "second")
        try second.identify("ann", token: token)
        #expect(try second.next("room")["code"] as? String == code)
        #expect(try second.next("question")["question"] as? String == "r1q0")
        #expect(try first.waitForClose() == 4001)
        #expect(first.inbox.contains { $0["code"] as? String == "replaced" })
    }

    @Test func lateBatchesAreIgnoredAndGuessesAreThrottled() throws {
        defer { shutDown() }
        let ann = try RealtimeClient(port: server.port, label: "ann")
        try ann.identify("Ann")
        _ = try ann.createRoom(mode: "time_attack")
        try ann.send(["type": "start"])
        let q0 = try ann.next("question")
        _ = try ann.answer(expectedDigit(q0), question: "r1q0")
        let q1 = try ann.next("question")
        // A batch for the answered question is dropped without a word…
        try ann.send(["type": "points", "question": "r1q0", "stroke": 0, "points": [[1, 1], [2, 2]]])
        // …and does not leak into the next drawing: the guess covers only r1q1's points.
        let strokes = DigitTemplates.strokes(for: expectedDigit(q1))
        let flat = strokes.enumerated().flatMap { s, stroke in stroke.map { (s, $0) } }
        let started = ContinuousClock.now
        for chunk in stride(from: 0, to: flat.count, by: 2) {
            let part = flat[chunk..<min(flat.count, chunk + 2)]
            for (s, group) in Dictionary(grouping: part, by: \.0).sorted(by: { $0.key < $1.key }) {
                try ann.send(["type": "points", "question": "r1q1", "stroke": s, "points": group.map { [$0.1.x, $0.1.y] }])
            }
        }
        try ann.next("guess", timeout: .seconds(5)) { $0["points"] as? Int == flat.count }
        let elapsed = ContinuousClock.now - started
        let guesses = ann.log.filter { $0.message["type"] as? String == "guess" && $0.message["question"] as? String == "r1q1" }
        #expect(!ann.log.contains { $0.message["type"] as? String == "error" })
        // ≤ 10 per second, one at a time.
        #expect(Double(guesses.count) <= elapsed / .milliseconds(100) + 2)
        for (a, b) in zip(guesses, guesses.dropFirst()) { #expect(b.at - a.at >= .milliseconds(80)) }
    }

    @Test func recognitionRunsOnTheWorkerThreads() throws {
        defer { shutDown() }
        let pool = try RecognitionPool.bundled(threads: 2)
        let names = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for digit in 0..<4 {
            pool.recognize(Drawing(strokes: DigitTemplates.strokes(for: digit))) { result in
                // The kernel's name of the calling thread (what `Thread.name` set).
                let name = ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                names.withLock { $0.append(name + ":" + String((try? result.get().digit) ?? -1)) }
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        pool.shutdown()
        let seen = names.withLock { $0 }
        #expect(seen.count == 4)
        #expect(seen.allSatisfy { $0.hasPrefix("mindpad-recog-") }, "\(seen)")
        #expect(Set(seen.map { $0.split(separator: ":").last! }) == ["0", "1", "2", "3"])
    }
}
