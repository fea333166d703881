import CLibWebSockets
import CMindPadShims
import Dispatch
import Foundation
import Logging
import Synchronization

/// What the transport asks of the application. Every method is called on the
/// lws service thread; none may block (hand slow work to a worker and answer
/// through `WebServer.post` or the `HTTPResponder`).
public protocol WebServerDelegate: AnyObject {
    func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String)
    func webServer(_ server: WebServer, didReceive text: String, from connection: ConnectionID)
    func webServer(_ server: WebServer, didClose connection: ConnectionID)
    func webServer(_ server: WebServer, handle request: HTTPRequest, responder: HTTPResponder)
}

/// Options for the libwebsockets server, with the defaults the game uses.
public struct WebServerOptions: Sendable {
    /// Address to listen on; nil listens on every interface.
    public var host: String?
    /// TCP port; 0 lets the kernel choose (read `WebServer.port` after start).
    public var port: Int
    /// Folder served as static files at `/`; nil serves none.
    public var webRoot: String?
    /// Path prefixes answered by the delegate instead of files.
    public var dynamicPrefixes: [String]
    /// Where WebSocket upgrades are accepted.
    public var webSocketPath: String
    /// The WebSocket subprotocol clients ask for.
    public var subprotocol: String
    /// Largest WebSocket message accepted; larger closes with 1009.
    public var maxMessageBytes: Int
    /// Largest HTTP request body accepted; larger answers 413.
    public var maxBodyBytes: Int
    /// Messages queued for one slow client before it is disconnected (1008).
    public var maxQueuedMessages: Int
    /// File descriptors lws sizes its tables for (≈ max connections).
    public var maxConnections: Int
    /// lws pings an idle WebSocket after this many seconds…
    public var pingAfterSeconds: UInt16
    /// …and hangs up when nothing came back for this many.
    public var hangUpAfterSeconds: UInt16
    /// Browser origins allowed to open a WebSocket (`https://example.org`),
    /// besides the server's own host, which is always allowed; `*` allows
    /// any. A request without an `Origin` header (not a browser) is let in.
    public var allowedOrigins: [String]

    public init(host: String? = nil, port: Int = 8080, webRoot: String? = nil,
                dynamicPrefixes: [String] = ["/healthz", "/api", "/metrics"],
                webSocketPath: String = "/ws", subprotocol: String = "mindpad.v1",
                maxMessageBytes: Int = 64 * 1024, maxBodyBytes: Int = 64 * 1024,
                maxQueuedMessages: Int = 512, maxConnections: Int = 16_384,
                pingAfterSeconds: UInt16 = 20, hangUpAfterSeconds: UInt16 = 45,
                allowedOrigins: [String] = []) {
        self.host = host
        self.port = port
        self.webRoot = webRoot
        self.dynamicPrefixes = dynamicPrefixes
        self.webSocketPath = webSocketPath
        self.subprotocol = subprotocol
        self.maxMessageBytes = maxMessageBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxQueuedMessages = maxQueuedMessages
        self.maxConnections = maxConnections
        self.pingAfterSeconds = pingAfterSeconds
        self.hangUpAfterSeconds = hangUpAfterSeconds
        self.allowedOrigins = allowedOrigins
    }
}

public struct WebServerError: Error, CustomStringConvertible {
    public var description: String
}

/// The libwebsockets server: one service thread owns the lws context and
/// every connection. No C type leaves this type and its extensions.
///
/// Threading: everything except `post`, `send(_:to:)`, `close(_:code:reason:)`
/// and `stop` runs on the service thread. Other threads hand it work through
/// `post`, which queues a closure and wakes the loop with
/// `lws_cancel_service`, the one lws call that is safe from any thread.
public final class WebServer: @unchecked Sendable {
    let options: WebServerOptions
    let logger: Logger
    /// Set before `start`, then used only on the service thread.
    public weak var delegate: (any WebServerDelegate)?

    // Cross-thread state.
    private let posted = Mutex<[@Sendable () -> Void]>([])
    /// The context's address while it may be woken; 0 before start and after destroy.
    private let wakeable = Mutex<UInt>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)
    private let boundPort = Atomic<Int>(0)

    // Service-thread state.
    var context: OpaquePointer?
    var serviceThread: pthread_t?
    var nextID: UInt64 = 1
    var connections: [UInt64: WebSocketConnection] = [:]
    var transactions: [UInt64: HTTPTransaction] = [:]
    let pre = Int(CMindPadShims_lws_pre())
    private var cStrings: [UnsafeMutablePointer<CChar>] = []

    public init(options: WebServerOptions, logger: Logger = Logger(label: "mindpad.transport")) {
        self.options = options
        self.logger = logger
    }

    /// The port actually listened on, once `start` has returned.
    public var port: Int { boundPort.load(ordering: .acquiring) }

    /// Starts the service thread and returns once the port is bound.
    public func start() throws {
        installLWSLogging()
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let thread = Thread { [self] in
            do {
                try self.createContext()
            } catch {
                failure.withLock { $0 = "\(error)" }
                ready.signal()
                self.exited.signal()
                return
            }
            ready.signal()
            self.serviceLoop()
            self.exited.signal()
        }
        thread.name = "mindpad-lws"
        thread.stackSize = 1 << 20
        thread.start()
        ready.wait()
        if let message = failure.withLock({ $0 }) {
            throw WebServerError(description: message)
        }
    }

    /// Asks the loop to close every WebSocket with 1001 "going away" and stop.
    /// Safe from any thread, including a signal handler's dispatch queue.
    public func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    /// Blocks until the service thread has destroyed the context.
    public func waitUntilStopped() {
        exited.wait()
        exited.signal()
    }

    /// Runs `job` on the service thread soon. Safe from any thread.
    public func post(_ job: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(job) }
        wake()
    }

    /// Whether the caller is the service thread.
    public var isServiceThread: Bool {
        guard let t = serviceThread else { return false }
        return pthread_equal(t, pthread_self()) != 0
    }

    private func wake() {
        wakeable.withLock { address in
            if let context = OpaquePointer(bitPattern: address) { lws_cancel_service(context) }
        }
    }

    // MARK: Context lifecycle (service thread)

    private func cString(_ s: String) -> UnsafeMutablePointer<CChar> {
        let p = strdup(s)!
        cStrings.append(p)
        return p
    }

    private func createContext() throws {
        serviceThread = pthread_self()
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 3)
        protocols.initialize(repeating: lws_protocols(), count: 3)
        protocols[0].name = UnsafePointer(cString("http"))
        protocols[0].callback = webServerCallback
        protocols[0].per_session_data_size = MemoryLayout<UInt64>.size
        protocols[1].name = UnsafePointer(cString(options.subprotocol))
        protocols[1].callback = webServerCallback
        protocols[1].per_session_data_size = MemoryLayout<UInt64>.size
        protocols[1].rx_buffer_size = 16 * 1024
        protocolsStorage = protocols

        // Mounts: one callback mount per dynamic prefix, then the static root.
        var mountList: [UnsafeMutablePointer<lws_http_mount>] = []
        for prefix in options.dynamicPrefixes {
            let m = UnsafeMutablePointer<lws_http_mount>.allocate(capacity: 1)
            m.initialize(to: lws_http_mount())
            m.pointee.mountpoint = UnsafePointer(cString(prefix))
            m.pointee.mountpoint_len = UInt8(prefix.utf8.count)
            m.pointee.origin = UnsafePointer(cString("http"))
            m.pointee.protocol = UnsafePointer(cString("http"))
            m.pointee.origin_protocol = UInt8(LWSMPRO_CALLBACK.rawValue)
            mountList.append(m)
        }
        if let root = options.webRoot {
            let m = UnsafeMutablePointer<lws_http_mount>.allocate(capacity: 1)
            m.initialize(to: lws_http_mount())
            m.pointee.mountpoint = UnsafePointer(cString("/"))
            m.pointee.mountpoint_len = 1
            m.pointee.origin = UnsafePointer(cString(root))
            m.pointee.def = UnsafePointer(cString("index.html"))
            m.pointee.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
            m.pointee.cache_max_age = 60
            m.pointee.cache_reusable = 1
            m.pointee.cache_revalidate = 1
            m.pointee.cache_intermediaries = 0
            mountList.append(m)
        }
        for (a, b) in zip(mountList, mountList.dropFirst()) {
            a.pointee.mount_next = UnsafePointer(b)
        }
        mountsStorage = mountList

        let retry = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        retry.initialize(to: lws_retry_bo_t())
        retry.pointee.secs_since_valid_ping = options.pingAfterSeconds
        retry.pointee.secs_since_valid_hangup = options.hangUpAfterSeconds
        retryStorage = retry

        var info = lws_context_creation_info()
        info.port = Int32(options.port)
        info.iface = options.host.map { UnsafePointer(cString($0)) }
        info.protocols = UnsafePointer(protocols)
        info.mounts = mountList.first.map { UnsafePointer($0) }
        info.vhost_name = UnsafePointer(cString("mindpad"))
        info.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            | UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
        if let host = options.host, host.contains(".") {
            info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        }
        info.fd_limit_per_thread = UInt32(options.maxConnections)
        info.retry_and_idle_policy = UnsafePointer(retry)
        info.keepalive_timeout = 30
        info.timeout_secs = 20
        info.user = Unmanaged.passUnretained(self).toOpaque()

        guard let ctx = lws_create_context(&info) else {
            freeCStorage()
            throw WebServerError(description: "libwebsockets could not start on port \(options.port) (in use, or not permitted)")
        }
        context = ctx
        let vhost = lws_get_vhost_by_name(ctx, "mindpad")
        let listening = vhost.map { Int(lws_get_vhost_listen_port($0)) } ?? options.port
        boundPort.store(listening, ordering: .releasing)
        wakeable.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(ctx))) }
        logger.info("listening", metadata: ["port": "\(listening)", "host": "\(options.host ?? "*")"])
    }

    private var protocolsStorage: UnsafeMutablePointer<lws_protocols>?
    private var mountsStorage: [UnsafeMutablePointer<lws_http_mount>] = []
    private var retryStorage: UnsafeMutablePointer<lws_retry_bo_t>?

    private func freeCStorage() {
        protocolsStorage?.deallocate()
        protocolsStorage = nil
        mountsStorage.forEach { $0.deallocate() }
        mountsStorage = []
        retryStorage?.deallocate()
        retryStorage = nil
        cStrings.forEach { free($0) }
        cStrings = []
    }

    private func serviceLoop() {
        guard let ctx = context else { return }
        var closingDeadline: ContinuousClock.Instant?
        while true {
            if lws_service(ctx, 0) < 0 { break }
            if stopRequested.load(ordering: .acquiring) {
                if closingDeadline == nil {
                    // Say goodbye to every client, after what is queued for
                    // it; stop once every goodbye is written (the kernel
                    // delivers it after the context is gone), or after 3 s
                    // for a client whose socket takes nothing more.
                    closingDeadline = .now + .seconds(3)
                    for connection in connections.values {
                        close(connection: connection, code: 1001, reason: "server shutting down")
                    }
                    DispatchQueue.global().asyncAfter(deadline: .now() + 3.05) { [weak self] in self?.wake() }
                }
                let allSaidGoodbye = connections.values.allSatisfy(\.closeWritten)
                if allSaidGoodbye || ContinuousClock.now >= closingDeadline! { break }
            }
        }
        wakeable.withLock { $0 = 0 }
        lws_context_destroy(ctx)
        context = nil
        connections.removeAll()
        transactions.removeAll()
        freeCStorage()
        logger.info("stopped")
    }

    /// Runs the closures other threads posted.
    func drainPosted() {
        let jobs = posted.withLock { jobs -> [@Sendable () -> Void] in
            let taken = jobs
            jobs.removeAll(keepingCapacity: true)
            return taken
        }
        for job in jobs { job() }
    }

    func allocateID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }
}

/// The one C entry point: finds the `WebServer` through the context's user
/// pointer and dispatches on the reason. Callbacks can come with a wsi that
/// has no context user yet (during creation) or no protocol: nil-check all.
func webServerCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                       _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let raw = lws_context_user(ctx) else { return 0 }
    let server = Unmanaged<WebServer>.fromOpaque(raw).takeUnretainedValue()
    let session = user?.assumingMemoryBound(to: UInt64.self)
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        server.drainPosted()
        return 0
    case LWS_CALLBACK_HTTP:
        return server.httpRequestStarted(wsi, session: session, path: input, length: length)
    case LWS_CALLBACK_HTTP_BODY:
        return server.httpBody(wsi, session: session, bytes: input, length: length)
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return server.httpBodyComplete(wsi, session: session)
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return server.httpWritable(wsi, session: session)
    case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        server.httpClosed(session: session)
        return 0
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return server.confirmUpgrade(wsi, to: input)
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return server.webSocketFilter(wsi)
    case LWS_CALLBACK_ESTABLISHED:
        return server.webSocketOpened(wsi, session: session)
    case LWS_CALLBACK_RECEIVE:
        return server.webSocketReceived(wsi, session: session, bytes: input, length: length)
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return server.webSocketWritable(wsi, session: session)
    case LWS_CALLBACK_CLOSED:
        server.webSocketClosed(session: session)
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
