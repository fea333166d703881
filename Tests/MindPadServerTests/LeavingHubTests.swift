import Foundation
import MindPadJSON
import MindPadRules
import MindPadStorage
import Synchronization
import Testing
@testable import MindPadServer

/// Issue 45, "Leaving mid-race": `left_room` is the last message of a room.
/// A racer who leaves mid-race gets their run's `finished` and
/// `result_saved` first; what they send meanwhile waits and is handled
/// right after `left_room`, so a room they open at once never hears the old
/// run's messages.
@Suite struct LeavingHubTests {
    /// Results kept durable at once, but whose storage answers only when
    /// the test says (PostgreSQL taking its time, up to the 2 s deadline).
    final class SlowSink: ResultSink {
        let records = Mutex<[GameResultRecord]>([])
        let waiting = Mutex<[@Sendable (ResultDelivery) -> Void]>([])

        func record(_ result: GameResultRecord, durable: @escaping @Sendable () -> Void,
                    completion: @escaping @Sendable (ResultDelivery) -> Void) {
            records.withLock { $0.append(result) }
            durable()
            waiting.withLock { $0.append(completion) }
        }

        /// Storage answers every result handed over so far.
        func answer() {
            for completion in waiting.withLock({ w in defer { w.removeAll() }; return w }) {
                completion(.stored(RecordOutcome(stored: true, personalBest: true, previousBest: nil)))
            }
        }
    }

    /// The types after `left_room`'s request, in order.
    private static func types(_ log: [(at: RaceInstant, message: JSON)], from start: Int) -> [String] {
        log[start...].compactMap { $0.message["type"]?.string }
    }

    @Test func aRunEndedByLeavingIsToldBeforeLeftRoom() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", mode: "time_attack"))
        let q = try #require(question["question"]?.string)
        ann.submit(q, answer: .int(hiddenDigit(question)))
        _ = ann.next("graded")
        let before = ann.log.count
        ann.send([("type", .string("leave_room"))])
        let order = Self.types(ann.log, from: before)
        // Nothing of the old race after left_room: its finished and result_saved come first.
        #expect(order == ["finished", "result_saved", "left_room"], "\(order)")
        #expect(h.sink.records.withLock { $0.count } == 1)
    }

    @Test func leftRoomWaitsForTheResultSavedAndTheNextRoomComesAfter() throws {
        let sink = SlowSink()
        let h = try HubHarness(results: sink)
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", mode: "time_attack"))
        ann.submit(try #require(question["question"]?.string), answer: .int(hiddenDigit(question)))
        _ = ann.next("graded")
        let before = ann.log.count
        // A client that opens a new room at once, without waiting: leave, create, start.
        for fields: [(String, JSON)] in [[("type", .string("leave_room"))],
                                         [("type", .string("create_room")), ("mode", .string("normal")), ("max_players", .int(1))],
                                         [("type", .string("start"))]] {
            h.hub.received(JSON.object(fields).text, from: ann.connection)
        }
        h.transport.settle()
        // Storage has not answered: the old run's finished is out, nothing after it.
        #expect(Self.types(ann.log, from: before) == ["finished"])
        h.advance(by: .milliseconds(1500))
        #expect(Self.types(ann.log, from: before) == ["finished"])
        sink.answer()
        h.transport.settle()
        let order = Self.types(ann.log, from: before)
        let left = try #require(order.firstIndex(of: "left_room"))
        #expect(Array(order[..<left]) == ["finished", "result_saved"], "\(order)")
        // Then the requests sent meanwhile, in order: a new room, its start, its first question.
        #expect(Array(order[(left + 1)...]).starts(with: ["room", "countdown"]), "\(order)")
        #expect(order[(left + 1)...].contains("question"))
        #expect(!order[(left + 1)...].contains("finished") && !order[(left + 1)...].contains("result_saved"))
        #expect(h.hub.roomCount == 1)
    }

    @Test func aRunThatEndedBeforeLeavingStillSaysItsResultSavedFirst() throws {
        let sink = SlowSink()
        let h = try HubHarness(results: sink)
        let ann = h.connect("ann")
        var question = try #require(ann.startSolo("Ann", mode: "survival"))
        // A miss ends a Survival run; storage is slow.
        ann.submit(try #require(question["question"]?.string), answer: .int((hiddenDigit(question) + 1) % 10))
        question = try #require(ann.next("finished"))
        let before = ann.log.count
        ann.send([("type", .string("leave_room"))])
        #expect(Self.types(ann.log, from: before).isEmpty)
        sink.answer()
        h.transport.settle()
        #expect(Self.types(ann.log, from: before) == ["result_saved", "left_room"])
    }

    @Test func leavingTheLobbyAnswersAtOnceAndOthersAreUnaffected() throws {
        let sink = SlowSink()
        let h = try HubHarness(results: sink)
        let ann = h.connect("ann"), bo = h.connect("bo")
        ann.identify("Ann")
        bo.identify("Bo")
        let code = try #require(ann.createRoom(mode: "time_attack"))
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        _ = bo.next("room")
        bo.send([("type", .string("leave_room"))])
        #expect(bo.next("left_room")?["code"] == .string(code))
        // Nothing else is owed to a leaver who never raced; the host hears the leave.
        #expect(ann.all("room_updated").last?["room"]?["members"]?.array?.count == 1)
    }

    @Test func aLeaverWhoDropsMeanwhileGetsNothingAndTheHubForgetsThem() throws {
        let sink = SlowSink()
        let h = try HubHarness(results: sink)
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", mode: "time_attack"))
        ann.submit(try #require(question["question"]?.string), answer: .int(hiddenDigit(question)))
        ann.send([("type", .string("leave_room"))])
        #expect(h.hub.leaving[ann.connection] != nil)
        h.hub.closed(ann.connection)
        sink.answer()
        h.transport.settle()
        #expect(h.hub.leaving.isEmpty)
        #expect(!ann.types.contains("left_room"))
    }
}
