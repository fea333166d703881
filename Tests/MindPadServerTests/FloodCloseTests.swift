import Foundation
import MindPadRules
import Testing
@testable import MindPadServer

/// A client that floods gets told why before it is closed: the
/// `rate_limited` error and the 1008 close frame reach it even when its
/// surplus messages are still unread in the server's socket when the
/// server closes, and the connection ends in order (a lingering close),
/// never with a reset, over real sockets.
@Suite struct FloodCloseTests {
    /// Far beyond the burst (80) in one write, then read: every time the
    /// client reads the reason, whatever the server had not read yet.
    @Test(arguments: [200, 5_000])
    func aFloodInOneWriteIsToldWhyEveryTime(messages: Int) throws {
        try HubOnlyDelegate.serve { server, _ in
            for round in 0..<20 {
                let gus = try RealtimeClient(port: server.port, label: "gus\(round)")
                try gus.sendTextsAtOnce(Array(repeating: #"{"type":"start"}"#, count: messages))
                let code = try gus.waitForClose()
                #expect(code == 1008, "round \(round): \(gus.closeFrame.map { "\($0)" } ?? "-")")
                #expect(gus.inbox.contains { $0["code"] as? String == "rate_limited" }, "round \(round)")
                // The server closed with most of the flood unread: it must
                // end the stream with a FIN, not a reset (a reset throws
                // away whatever the server's kernel had not sent yet, the
                // reason and the close frame included).
                #expect(gus.streamEnd() == 0, "round \(round): the connection was reset")
            }
        }
    }
}
