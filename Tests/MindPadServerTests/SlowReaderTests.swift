@testable import MindPadHTTP
@testable import MindPadTransport
import Dispatch
import Foundation
import MindPadRules
import Synchronization
import Testing
@testable import MindPadServer

/// The transport's delegate here: WebSocket traffic to the hub, nothing else.
final class HubOnlyDelegate: WebServerDelegate {
    let hub: RealtimeHub
    init(hub: RealtimeHub) { self.hub = hub }

    /// Runs `body` against an in-process `WebServer` with a hub behind it
    /// (standard games, players and results in memory, no countdown) over
    /// real sockets, and stops the server afterwards.
    static func serve(_ webOptions: WebServerOptions = WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil),
                      _ body: (WebServer, RealtimeHub) throws -> Void) throws {
        let server = WebServer(options: webOptions)
        var options = RealtimeOptions()
        options.countdown = .zero
        let hub = RealtimeHub(options: options, games: .standard, players: InMemoryPlayerDirectory(),
                              results: MemoryResultSink(journal: false), recognition: try InlineRecognizer(),
                              transport: LWSRealtimeTransport(server: server), metrics: ServerMetrics())
        let delegate = HubOnlyDelegate(hub: hub)
        server.delegate = delegate
        try server.start()
        defer {
            server.stop()
            server.waitUntilStopped()
            withExtendedLifetime(delegate) {}
        }
        try body(server, hub)
    }
    func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String) { hub.opened(connection) }
    func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID) { hub.received(text, from: connection) }
    func webServer(_ server: WebServer, didClose connection: ConnectionID) { hub.closed(connection) }
    func webServer(_ server: WebServer, handle request: HTTPRequest, responder: HTTPResponder) {
        responder.respond(.error(404, code: "not_found", message: "no"))
    }
}

/// A client that stops reading is really dropped: the room sees it gone at
/// once and its socket is closed within a second, over real sockets.
@Suite struct SlowReaderTests {
    @Test func aClientThatStopsReadingIsDroppedAndTheRoomSeesIt() throws {
        try HubOnlyDelegate.serve(WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil, maxQueuedMessages: 64)) { server, hub in
            try dropsTheSlowReader(server: server, hub: hub)
        }
    }

    private func dropsTheSlowReader(server: WebServer, hub: RealtimeHub) throws {
        let (ann, slow) = try Self.twoInARoom(server: server, receiveBuffer: 4096)

        // From now on "slow" reads nothing, while the server keeps sending
        // to it: first the kernel's buffers fill, then the outbox.
        let slowConnection = Mutex<ConnectionID?>(nil)
        let overflowedAt = Mutex<ContinuousClock.Instant?>(nil)
        let sent = Atomic<Int>(0)
        server.post { slowConnection.withLock { $0 = hub.online[PlayerID("p2")] } }
        let filler = String(repeating: "x", count: 16_000)
        let feeding = Thread {
            let deadline = ContinuousClock.now + .seconds(20)
            while overflowedAt.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
                server.post {
                    guard let connection = slowConnection.withLock({ $0 }) else { return }
                    guard hub.online[PlayerID("p2")] == connection else {
                        // The hub was told the player is gone: the outbox overflowed.
                        overflowedAt.withLock { $0 = $0 ?? .now }
                        return
                    }
                    for _ in 0..<8 {
                        let n = sent.add(1, ordering: .relaxed).newValue
                        hub.transport.send(#"{"type":"filler","n":\#(n),"pad":"\#(filler)"}"#, to: connection)
                    }
                }
                usleep(2_000)
            }
        }
        feeding.start()
        // The others see the player disconnected (their grace has started)…
        let update = try ann.next("room_updated", timeout: .seconds(5)) { message in
            let members = (message["room"] as? [String: Any])?["members"] as? [[String: Any]] ?? []
            return members.contains { $0["player_id"] as? String == "p2" && $0["connected"] as? Bool == false }
        }
        let seen = ContinuousClock.now
        let seenAfter = seen - (overflowedAt.withLock { $0 } ?? seen)
        #expect(update["type"] as? String == "room_updated")
        #expect(seenAfter < .seconds(2), "connected:false \(seenAfter) after the outbox filled")
        // …and the socket is gone: reading what reached the kernel ends in a
        // close frame or the end of the stream, well before any keep-alive.
        _ = try? slow.waitForClose(timeout: .seconds(4))
        #expect(slow.closeFrame != nil)
        let received = slow.log.filter { $0.message["type"] as? String == "filler" }.count
        #expect(received < sent.load(ordering: .relaxed), "everything was delivered: the client was not slow")
    }

    /// Issue 45, item 3: a client that stops reading while its room keeps
    /// talking to it (800-byte messages, 90 a second, as the issue's room
    /// broadcasts) with an ordinary receive buffer. The kernel no longer
    /// absorbs megabytes for it first (it took 1.8 MB over 24 s, and the
    /// client stayed "connected" for 30 s and more): what it may hold is
    /// bounded, and a client that takes nothing of what waits for it for
    /// `stallSeconds` (10) is dropped. Default options, as the server runs.
    @Test func aReaderThatStopsIsDroppedSoonNotOnceTheKernelIsFull() throws {
        try HubOnlyDelegate.serve { server, hub in
            let (after, heldBack) = try Self.stopReading(server: server, hub: hub, messageBytes: 800, every: .milliseconds(11),
                                                         receiveBuffer: nil, within: .seconds(40))
            #expect(after < .seconds(15), "seen gone \(after) after it stopped reading")
            #expect(heldBack < 512 * 1024, "\(heldBack) bytes were still on their way to it")
        }
    }

    /// A trickle (400 bytes five times a second) that would take minutes to
    /// fill the outbox: a client that takes none of it is dropped once
    /// nothing was taken for `stallSeconds`.
    @Test func aReaderThatTakesNothingOfATrickleIsDroppedAfterTheStallBound() throws {
        try HubOnlyDelegate.serve { server, hub in
            let (after, _) = try Self.stopReading(server: server, hub: hub, messageBytes: 400, every: .milliseconds(200),
                                                  receiveBuffer: 4096, within: .seconds(40))
            #expect(after < .seconds(15), "seen gone \(after) after it stopped reading")
            #expect(after >= .seconds(9), "dropped \(after) after it stopped reading, before the stall bound")
        }
    }

    /// Ann and a second player share a room; from now on the second reads
    /// nothing while the server sends it a message of `messageBytes` every
    /// `every`. Returns how long after it stopped reading the room saw it
    /// disconnected, and how many bytes of those messages it could still
    /// read afterwards (what the kernels held for it).
    /// Ann (player p1) and Slow (p2, with a receive buffer of `receiveBuffer`
    /// bytes) in one room, Ann having seen Slow join.
    static func twoInARoom(server: WebServer, receiveBuffer: Int?) throws -> (RealtimeClient, RealtimeClient) {
        let ann = try RealtimeClient(port: server.port, label: "ann")
        let slow = try RealtimeClient(port: server.port, label: "slow", receiveBuffer: receiveBuffer)
        try ann.identify("Ann")
        try slow.identify("Slow")
        let code = try ann.createRoom(mode: "normal")
        try slow.join(code)
        try ann.next("room_updated") { ($0["room"] as? [String: Any])?["members"].map { ($0 as! [Any]).count == 2 } == true }
        return (ann, slow)
    }

    static func stopReading(server: WebServer, hub: RealtimeHub, messageBytes: Int, every: Duration, receiveBuffer: Int?,
                            within: Duration) throws -> (Duration, Int) {
        let (ann, slow) = try Self.twoInARoom(server: server, receiveBuffer: receiveBuffer)

        let slowConnection = Mutex<ConnectionID?>(nil)
        let gone = Atomic<Bool>(false)
        server.post { slowConnection.withLock { $0 = hub.online[PlayerID("p2")] } }
        let pad = String(repeating: "x", count: max(0, messageBytes - 40))
        let started = ContinuousClock.now
        let feeding = Thread {
            var n = 0
            var next = ContinuousClock.now
            while !gone.load(ordering: .relaxed), ContinuousClock.now < started + within {
                n += 1
                let text = #"{"type":"filler","n":\#(n),"pad":"\#(pad)"}"#
                server.post {
                    guard let connection = slowConnection.withLock({ $0 }) else { return }
                    guard hub.online[PlayerID("p2")] == connection else { return gone.store(true, ordering: .relaxed) }
                    hub.transport.send(text, to: connection)
                }
                next += every
                let wait = next - ContinuousClock.now
                if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds)) }
            }
        }
        feeding.start()
        // The room sees the player disconnected (the grace starts).
        _ = try ann.next("room_updated", timeout: within + .seconds(5)) { message in
            let members = (message["room"] as? [String: Any])?["members"] as? [[String: Any]] ?? []
            return members.contains { $0["player_id"] as? String == "p2" && $0["connected"] as? Bool == false }
        }
        let after = ContinuousClock.now - started
        gone.store(true, ordering: .relaxed)
        // What had reached the kernels for it: read to the end.
        _ = try? slow.waitForClose(timeout: .seconds(10))
        let heldBack = slow.log.filter { $0.message["type"] as? String == "filler" }.count * messageBytes
        return (after, heldBack)
    }
}
