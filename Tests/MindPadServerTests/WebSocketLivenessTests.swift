@testable import MindPadHTTP
@testable import MindPadTransport
import Foundation
import MindPadServer
import MindPadTestSupport
import Testing

/// Dead-peer detection (WebServer+Liveness): a client that sends nothing is
/// pinged, then closed; one that answers the pings stays.
@Suite struct WebSocketLivenessTests {
    let delegate = ScriptedDelegate()
    let server: WebServer

    init() throws {
        server = WebServer(options: WebServerOptions(host: "127.0.0.1", port: 0, webRoot: nil,
                                                     pingAfterSeconds: 1, hangUpAfterSeconds: 3))
        server.delegate = delegate
        try server.start()
    }

    private func shutDown() {
        server.stop()
        server.waitUntilStopped()
    }

    @Test func aSilentPeerIsPingedThenClosed() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port, timeoutSeconds: 10)
        #expect(try ws.receiveText().hasPrefix("welcome"))
        // Nothing sent: a ping comes, goes unanswered, and the server hangs
        // up without a close frame (a dead peer would take none).
        #expect(try ws.receive() == .ping(Array("live".utf8)))
        let pinged = ContinuousClock.now
        #expect(ws.socket.closesWithoutData())
        // Not at once: the peer had two sweeps to answer (the ping goes at
        // pingAfterSeconds of silence, the hang-up at hangUpAfterSeconds).
        #expect(ContinuousClock.now - pinged >= .milliseconds(1500))
    }

    @Test func aPeerThatAnswersPingsStaysOpen() throws {
        defer { shutDown() }
        let ws = try TestWebSocket(port: server.port, timeoutSeconds: 10)
        #expect(try ws.receiveText().hasPrefix("welcome"))
        // Only pongs for twice the hang-up time.
        var pings = 0
        let end = ContinuousClock.now + .seconds(6)
        while ContinuousClock.now < end {
            guard case .ping(let payload) = try ws.receive() else {
                Issue.record("expected only pings from an otherwise quiet server")
                return
            }
            pings += 1
            try ws.sendFrame(opcode: 0xA, payload: payload)
        }
        #expect(pings >= 2)
        try ws.sendText("still here")
        #expect(try ws.receiveText() == "still here")
    }
}
