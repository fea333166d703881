import MindPadHTTP
import CLibWebSockets
import Logging

private let lwsLogger = Logger(label: "mindpad.lws")

/// Routes libwebsockets' own log lines into swift-log, one line per event.
/// lws NOTICE lines are chatty start-up details, so they become debug.
func installLWSLogging() {
    let levels = Int32(LLL_ERR | LLL_WARN | LLL_NOTICE)
    lws_set_log_level(levels) { level, line in
        guard let line else { return }
        var text = String(cString: line)
        while let last = text.last, last.isNewline { text.removeLast() }
        // lws prefixes its own timestamp and level tag: keep the message.
        if let tag = text.range(of: "]: ") { text = String(text[tag.upperBound...]) }
        // lws logs its own normal hand-over of a socket with read bytes
        // (every WebSocket upgrade) at error level.
        let routine = text.contains("adopt_socket_readbuf: calling service")
            || text.contains("adopt_socket_readbuf: deferring handling ah")
        switch level {
        case _ where routine: lwsLogger.debug("\(text)")
        case Int32(LLL_ERR): lwsLogger.error("\(text)")
        case Int32(LLL_WARN): lwsLogger.warning("\(text)")
        default: lwsLogger.debug("\(text)")
        }
    }
}
