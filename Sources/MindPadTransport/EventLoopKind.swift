import MindPadHTTP
import CMindPadShims

/// The event loop the lws context runs on (`MINDPAD_EVENT_LOOP`): lws' own
/// `poll()` loop, or libuv (waits in `epoll_wait`) through Debian's lws
/// event-library plugin. The loop itself lives in C
/// (`CMindPadShims/event_loop.c`, which also says why not libev), shared
/// with the bench's load generator and lws echo, which read the same variable.
public enum EventLoopKind: String, Sendable, CaseIterable {
    case poll, libuv

    /// The one used when nothing is set (decided in `event_loop.c`).
    public static var standard: EventLoopKind { EventLoopKind(c: mindpad_loop_default()) }

    /// Reads `poll` or `libuv`; empty means the default; nil for
    /// anything else.
    public init?(name text: String) {
        let c = mindpad_loop_parse(text)
        guard c >= 0 else { return nil }
        self.init(c: c)
    }

    init(c: Int32) {
        self = EventLoopKind(rawValue: String(cString: mindpad_loop_name(c))) ?? .poll
    }

    var c: Int32 {
        switch self {
        case .poll: Int32(MINDPAD_LOOP_POLL.rawValue)
        case .libuv: Int32(MINDPAD_LOOP_LIBUV.rawValue)
        }
    }
}
