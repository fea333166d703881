import Foundation
import MindPadJSON
import MindPadStorage
import Synchronization
import Testing
@testable import MindPadServer

/// Keeps each result's `durable` until the test lets it go.
final class GatedResultSink: ResultSink {
    let waiting = Mutex<[(@Sendable () -> Void, @Sendable (ResultDelivery) -> Void)]>([])

    func record(_ result: GameResultRecord, durable: @escaping @Sendable () -> Void,
                completion: @escaping @Sendable (ResultDelivery) -> Void) {
        waiting.withLock { $0.append((durable, completion)) }
    }

    var count: Int { waiting.withLock { $0.count } }

    func release() {
        for (durable, completion) in waiting.withLock({ w in defer { w = [] }; return w }) {
            durable()
            completion(.journaled)
        }
    }
}

/// A player is told the race is over only once their result would survive
/// a crash: the room's `finished` and `standings` wait for `durable`.
@Suite struct HeldMessagesTests {
    @Test func finishedAndStandingsWaitUntilTheResultIsDurable() throws {
        let sink = GatedResultSink()
        let h = try HubHarness(results: sink)
        let ann = h.connect("ann")
        let q = ann.startSolo("Ann", mode: "survival")
        // A wrong answer ends a survival run: graded, then the finish.
        ann.draw((hiddenDigit(q) + 3) % 10, question: "r1q0")
        ann.submit("r1q0")
        #expect(ann.next("graded")?["correct"] == .bool(false))
        #expect(sink.count == 1)
        // Time passes, other messages are answered at once; the finish waits.
        h.advance(by: .seconds(1))
        ann.sendText(#"{"type":"no_such_message"}"#)
        #expect(ann.errorCode() == "unknown_type")
        #expect(!ann.types.contains("finished") && !ann.types.contains("standings"), "\(ann.types)")

        sink.release()
        h.transport.settle()
        let order = ann.types.filter { ["finished", "standings", "result_saved"].contains($0) }
        #expect(order == ["finished", "standings", "result_saved"])
        #expect(ann.next("result_saved")?["stored"] == .string("journal"))
    }

    @Test func racersStillPlayingAreNotHeldBySomeoneElsesFinish() throws {
        let sink = GatedResultSink()
        let h = try HubHarness(results: sink)
        let ann = h.connect("ann"), bo = h.connect("bo")
        ann.identify("Ann")
        bo.identify("Bo")
        let code = try #require(ann.createRoom(mode: "survival"))
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        let qa = ann.next("question"), qb = bo.next("question")
        // Ann misses: her run is over, her result not yet durable.
        ann.draw((hiddenDigit(qa) + 1) % 10, question: "r1q0")
        ann.submit("r1q0")
        #expect(sink.count == 1)
        // Bo races on at once: graded and his next question, not held.
        bo.draw(hiddenDigit(qb), question: "r1q0")
        bo.submit("r1q0")
        #expect(bo.next("graded")?["correct"] == .bool(true))
        #expect(bo.next("question")?["question"] == .string("r1q1"))
        #expect(!ann.types.contains("finished"))
        sink.release()
        h.transport.settle()
        #expect(ann.next("finished") != nil)
    }

    @Test func shutdownSaysGoodbyeOnceEveryFinishedRunIsDurable() throws {
        let sink = GatedResultSink()
        let h = try HubHarness(results: sink)
        let ann = h.connect("ann")
        ann.startSolo("Ann", mode: "time_attack")
        var stopped = false
        h.hub.closeRoomsForShutdown { stopped = true }
        #expect(sink.count == 1 && !stopped)
        #expect(!ann.types.contains("finished"))
        sink.release()
        h.transport.settle()
        #expect(stopped)
        #expect(ann.types.contains("finished"))
        // A disk that never answers: the goodbye comes after 3 s anyway.
        let bo = h.connect("bo")
        bo.startSolo("Bo", mode: "normal")
        var late = false
        h.hub.closeRoomsForShutdown { late = true }
        h.advance(by: .milliseconds(2_900))
        #expect(!late)
        h.advance(by: .milliseconds(200))
        #expect(late)
    }
}
