import Foundation
import MindPadRecognition
import MindPadStorage
import Synchronization
import Testing
@testable import MindPadServer

/// Keeps each result's `durable` until the test lets it go.
final class GatedResultSink: ResultSink {
    let waiting = Mutex<[(@Sendable () -> Void, @Sendable (ResultDelivery) -> Void)]>([])
    let recorded = DispatchSemaphore(value: 0)

    func record(_ result: GameResultRecord, durable: @escaping @Sendable () -> Void,
                completion: @escaping @Sendable (ResultDelivery) -> Void) {
        waiting.withLock { $0.append((durable, completion)) }
        recorded.signal()
    }

    func release() {
        for (durable, completion) in waiting.withLock({ w in defer { w = [] }; return w }) {
            durable()
            completion(.journaled)
        }
    }
}

/// A player is told the race is over only once their result would survive
/// a crash: the room's `finished` and `standings` wait for `durable`.
@Suite(.serialized) struct HeldMessagesTests {
    @Test func finishedAndStandingsWaitUntilTheResultIsDurable() throws {
        var options = RealtimeOptions()
        options.countdown = .zero
        let sink = GatedResultSink()
        let hub = RealtimeHub(options: options, players: FakePlayerDirectory(), results: sink,
                              recognition: try RecognitionPool.bundled(threads: 1))
        let delegate = HubDelegate(hub: hub)
        let server = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil))
        server.delegate = delegate
        try server.start()
        defer {
            server.stop()
            server.waitUntilStopped()
        }

        let ann = try RealtimeClient(port: server.port, label: "ann")
        try ann.identify("Ann")
        _ = try ann.createRoom(mode: "survival")
        try ann.send(["type": "start"])
        let q = try ann.next("question")
        // A wrong answer ends a survival run: graded, then the finish.
        let graded = try ann.answer((expectedDigit(q) + 3) % 10, question: "r1q0")
        #expect(graded["correct"] as? Bool == false)
        #expect(sink.recorded.wait(timeout: .now() + 5) == .success)
        // A reply the hub sends at once is a barrier: a `finished` sent
        // when the run ended would have arrived before it.
        try ann.sendText(#"{"type":"no_such_message"}"#)
        _ = try ann.next("error")
        let early = ann.log.map { $0.message["type"] as? String ?? "?" }
        #expect(!early.contains("finished") && !early.contains("standings"), "\(early)")

        sink.release()
        _ = try ann.next("finished")
        _ = try ann.next("standings")
        #expect(try ann.next("result_saved")["stored"] as? String == "journal")
        let order = ann.log.compactMap { $0.message["type"] as? String }
            .filter { ["finished", "standings", "result_saved"].contains($0) }
        #expect(order == ["finished", "standings", "result_saved"])
    }
}
