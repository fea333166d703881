import MindPadHTTP
/// Options for the libwebsockets server, with the defaults the game uses.
public struct WebServerOptions: Sendable {
    /// Address to listen on; nil listens on every interface.
    public var host: String?
    /// TCP port; 0 lets the kernel choose (read `WebServer.port` after start).
    public var port: Int
    /// Folder served as static files at `/`; nil serves none.
    public var webRoot: String?
    /// Path prefixes (whole segments) answered by the delegate instead of files.
    public var dynamicPrefixes: [String]
    /// Where WebSocket upgrades are accepted.
    public var webSocketPath: String
    /// The WebSocket subprotocol clients ask for.
    public var subprotocol: String
    /// Largest WebSocket message accepted; larger closes with 1009.
    public var maxMessageBytes: Int
    /// Largest HTTP request body accepted; larger answers 413.
    public var maxBodyBytes: Int
    /// Seconds a client has to send a whole HTTP request once it started,
    /// and to take an answer; then the connection is closed.
    public var requestTimeoutSeconds: Int32
    /// Seconds an idle keep-alive HTTP connection is kept open.
    public var keepAliveSeconds: Int32
    /// Messages queued for one slow client before it is disconnected (1008).
    public var maxQueuedMessages: Int
    /// What the kernel may hold for one WebSocket (SO_SNDBUF, asked for when
    /// it opens; Linux doubles it for its bookkeeping and no longer grows
    /// it, where it would otherwise grow up to `net.ipv4.tcp_wmem`'s 4 MB).
    /// 0 leaves the kernel's default.
    public var socketSendBuffer: Int
    /// Bytes a client may have waiting for it, unsent or unacknowledged
    /// (the outbox, lws' buffer and the kernel's queue), before it is
    /// disconnected as a slow reader (1008).
    public var maxUnsentBytes: Int
    /// Seconds a client may take none of what waits for it (its TCP
    /// acknowledges nothing new) before it is disconnected as a slow
    /// reader (1008); 0 turns the check off. Checked once a second.
    public var stallSeconds: UInt16
    /// Connections the caller expects at most. Not passed to lws: its tables
    /// follow the process's file limit (`ulimit -n`), since a smaller
    /// per-thread limit makes lws 4.1.6 look sockets up by a linear scan
    /// (WebServer.createContext). Raise the file limit to hold more.
    public var maxConnections: Int
    /// A WebSocket client silent for this many seconds is pinged…
    public var pingAfterSeconds: UInt16
    /// …and hung up on when it has sent nothing (no message, no pong) for
    /// this many (WebServer+Liveness; checked once a second).
    public var hangUpAfterSeconds: UInt16
    /// Browser origins allowed to open a WebSocket (`https://example.org`),
    /// besides the server's own host, which is always allowed; `*` allows
    /// any. A request without an `Origin` header (not a browser) is let in.
    public var allowedOrigins: [String]
    /// The loop lws runs on (`MINDPAD_EVENT_LOOP`).
    public var eventLoop: EventLoopKind
    /// The web client's own pages, `/<page>/<id>` answered with
    /// `index.html` (the application's `replay`).
    public var clientPages: Set<String>

    public init(host: String? = nil, port: Int = 8080, webRoot: String? = nil,
                dynamicPrefixes: [String] = ["/healthz", "/api", "/metrics"],
                webSocketPath: String = "/ws", subprotocol: String = "mindpad.v1",
                maxMessageBytes: Int = 64 * 1024, maxBodyBytes: Int = 64 * 1024,
                requestTimeoutSeconds: Int32 = 20, keepAliveSeconds: Int32 = 30,
                maxQueuedMessages: Int = 512, socketSendBuffer: Int = 64 * 1024, maxUnsentBytes: Int = 512 * 1024,
                stallSeconds: UInt16 = 10, maxConnections: Int = 16_384,
                pingAfterSeconds: UInt16 = 20, hangUpAfterSeconds: UInt16 = 45,
                allowedOrigins: [String] = [], eventLoop: EventLoopKind = .standard, clientPages: Set<String> = []) {
        self.host = host
        self.port = port
        self.webRoot = webRoot
        self.dynamicPrefixes = dynamicPrefixes
        self.webSocketPath = webSocketPath
        self.subprotocol = subprotocol
        self.maxMessageBytes = maxMessageBytes
        self.maxBodyBytes = maxBodyBytes
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.keepAliveSeconds = keepAliveSeconds
        self.maxQueuedMessages = maxQueuedMessages
        self.socketSendBuffer = socketSendBuffer
        self.maxUnsentBytes = maxUnsentBytes
        self.stallSeconds = stallSeconds
        self.maxConnections = maxConnections
        self.pingAfterSeconds = pingAfterSeconds
        self.hangUpAfterSeconds = hangUpAfterSeconds
        self.allowedOrigins = allowedOrigins
        self.eventLoop = eventLoop
        self.clientPages = clientPages
    }
}
