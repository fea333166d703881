import MindPadHTTP
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
    /// A WebSocket opened on `/ws?instance=<id>`: `requestedInstance` is
    /// that id (nil without one). By default the same as without it.
    func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String, requestedInstance: String?)
}

extension WebServerDelegate {
    public func webServer(_ server: WebServer, didOpen connection: ConnectionID, peer: String, requestedInstance: String?) {
        webServer(server, didOpen: connection, peer: peer)
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
    /// Told the `error` code of every error answer the transport makes
    /// itself (malformed requests, files not found); the application counts
    /// its own. Set before `start`; called on the service thread.
    public var errorCounter: (@Sendable (String) -> Void)?
    /// Told, every `lagInterval`, how late the service thread ran a timer
    /// due then (a turn that ran long, or a wait for a core): every
    /// connection waited as long. Set before `start`.
    public var lagObserver: (@Sendable (Duration) -> Void)?
    /// Told why each slow reader was disconnected (`messages`, `bytes`,
    /// `stalled`: `WebServer.dropSlowReader`). Set before `start`; called on
    /// the service thread.
    public var slowReaderObserver: (@Sendable (String) -> Void)?

    // Cross-thread state.
    private let posted = Mutex<[@Sendable () -> Void]>([])
    /// The context's address while it may be woken; 0 before start and after destroy.
    private let wakeable = Mutex<UInt>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)
    private let boundPort = Atomic<Int>(0)

    // Service-thread state.
    var context: OpaquePointer?
    /// The event loop the context runs on (`event_loop.c`).
    private var loop: OpaquePointer?
    var serviceThread: pthread_t?
    var nextID: UInt64 = 1
    var connections: [UInt64: WebSocketConnection] = [:]
    /// Connections given messages since the last flush, written at the end
    /// of the callback (or timer, or turn) that queued them (`flushQueued`,
    /// WebServer+WebSocket); `spareFlushList` is the other buffer, swapped
    /// in so a flush allocates nothing.
    var unflushed: [WebSocketConnection] = []
    var spareFlushList: [WebSocketConnection] = []
    /// The liveness sweeps' timers and count (WebServer+Liveness).
    var livenessTimers: ServiceTimers?
    var livenessSweep: UInt64 = 0
    var httpConnections: [UInt64: HTTPConnection] = [:]
    /// Sockets leaving HTTP for WebSocket: adopted by `webSocketVhost`
    /// between service passes, with the bytes already read.
    var pendingUpgrades: [(fd: Int32, bytes: [UInt8])] = []
    var webSocketVhost: OpaquePointer?
    var httpDate = HTTPDate()
    lazy var staticFiles = StaticFiles(root: options.webRoot, clientPages: options.clientPages)
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
            // Named from inside: on Linux that is what names the OS thread
            // (perf, /proc/<pid>/task/*/comm).
            CMindPadShims_name_thread("mindpad-lws")
            do {
                try self.createContext()
            } catch {
                failure.withLock { $0 = "\(error)" }
                ready.signal()
                self.exited.signal()
                return
            }
            ready.signal()
            self.startLivenessSweeps()
            self.serviceLoop()
            self.exited.signal()
        }
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
    ///
    /// Only the job that finds the queue empty wakes the loop: a job queued
    /// behind others is taken by the drain their wake leads to (the drain
    /// empties the queue under the same lock, so a job that sees others
    /// waiting is always ahead of that drain). Recognition completions come
    /// in bursts at thousands a second; each wake is a `write` to lws' pipe
    /// and, on `poll`, one more scan of every socket.
    public func post(_ job: @escaping @Sendable () -> Void) {
        let first = posted.withLock { jobs in
            jobs.append(job)
            return jobs.count == 1
        }
        if first { wake() }
    }

    /// Whether `stop` was asked for: answers from now on close their connection.
    var isStopping: Bool { stopRequested.load(ordering: .acquiring) }

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

    /// Two vhosts on one context: `mindpad` listens and takes every
    /// connection as a raw socket (HTTP is parsed in WebServer+HTTP), and
    /// `mindpad-ws`, which listens nowhere, adopts the sockets that ask for
    /// a WebSocket and runs lws' WebSocket server on them.
    private func createContext() throws {
        serviceThread = pthread_self()
        let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 5)
        protocols.initialize(repeating: lws_protocols(), count: 5)
        protocols[0].name = UnsafePointer(cString("mindpad-http"))
        protocols[0].callback = webServerCallback
        protocols[0].per_session_data_size = MemoryLayout<UInt64>.size
        // [1] ends the listening vhost's list; [2...] is the WebSocket vhost's.
        protocols[2].name = UnsafePointer(cString("http"))
        protocols[2].callback = webServerCallback
        protocols[2].per_session_data_size = MemoryLayout<UInt64>.size
        protocols[3].name = UnsafePointer(cString(options.subprotocol))
        protocols[3].callback = webServerCallback
        protocols[3].per_session_data_size = MemoryLayout<UInt64>.size
        protocols[3].rx_buffer_size = 16 * 1024
        protocolsStorage = protocols

        // No validity timer in lws (a hang-up of 0 turns it off): its
        // per-connection sul is re-inserted into one sorted list, a walk
        // over every connection's entry, on each ping and pong. Liveness
        // is checked by our own sweep instead (WebServer+Liveness).
        let retry = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        retry.initialize(to: lws_retry_bo_t())
        retry.pointee.secs_since_valid_ping = 0
        retry.pointee.secs_since_valid_hangup = 0
        retryStorage = retry

        var info = lws_context_creation_info()
        // UTF-8 validation of WebSocket text is a context option in 4.1.
        info.options = UInt64(LWS_SERVER_OPTION_EXPLICIT_VHOSTS) | UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
        // No fd_limit_per_thread: lws 4.1.6 sizes its tables to the
        // process's file limit, and a smaller per-thread limit switches it to
        // "slow fds handling", where `wsi_from_fd` (lib/plat/unix/unix-fds.c)
        // finds a socket's wsi by scanning the whole table on every socket
        // event: 12 % of the server's CPU at 5,000 racers with 16,256 slots.
        info.timeout_secs = 20
        info.user = Unmanaged.passUnretained(self).toOpaque()
        guard let loop = mindpad_loop_new(options.eventLoop.c) else {
            freeCStorage()
            throw WebServerError(description: "cannot create the \(options.eventLoop.rawValue) event loop")
        }
        self.loop = loop
        guard let ctx = mindpad_loop_create_context(loop, &info) else {
            destroyContext()
            freeCStorage()
            throw WebServerError(description: "libwebsockets could not create its context on the \(options.eventLoop.rawValue) loop "
                + "(for libuv, the default: is libwebsockets-evlib-uv installed? MINDPAD_EVENT_LOOP=poll runs without it)")
        }
        context = ctx

        var listen = lws_context_creation_info()
        listen.port = Int32(options.port)
        listen.iface = options.host.map { UnsafePointer(cString($0)) }
        listen.protocols = UnsafePointer(protocols)
        listen.vhost_name = UnsafePointer(cString("mindpad"))
        listen.options = UInt64(LWS_SERVER_OPTION_ADOPT_APPLY_LISTEN_ACCEPT_CONFIG)
        listen.listen_accept_role = UnsafePointer(cString("raw-skt"))
        listen.listen_accept_protocol = UnsafePointer(cString("mindpad-http"))
        if let host = options.host, host.contains(".") {
            listen.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        }
        guard let listening = lws_create_vhost(ctx, &listen) else {
            destroyContext()
            freeCStorage()
            throw WebServerError(description:
                "cannot listen on port \(options.port)\(options.host.map { " of \($0)" } ?? ""): it is in use or not permitted; "
                + "choose another with PORT=… or --port")
        }

        var ws = lws_context_creation_info()
        ws.port = CONTEXT_PORT_NO_LISTEN_SERVER
        ws.protocols = UnsafePointer(protocols + 2)
        ws.vhost_name = UnsafePointer(cString("mindpad-ws"))
        ws.retry_and_idle_policy = UnsafePointer(retry)
        ws.keepalive_timeout = 30
        webSocketVhost = lws_create_vhost(ctx, &ws)
        guard webSocketVhost != nil else {
            destroyContext()
            freeCStorage()
            throw WebServerError(description: "libwebsockets could not create the WebSocket vhost")
        }
        let port = Int(lws_get_vhost_listen_port(listening))
        boundPort.store(port, ordering: .releasing)
        wakeable.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(ctx))) }
        logger.info("listening", metadata: ["port": "\(port)", "host": "\(options.host ?? "*")",
                                            "event_loop": "\(options.eventLoop.rawValue)"])
    }

    /// Destroys the context and its loop (an event library's handles close
    /// in stages as the loop turns: `mindpad_loop_destroy` runs them out).
    private func destroyContext() {
        mindpad_loop_destroy(loop)
        loop = nil
        context = nil
    }

    private var protocolsStorage: UnsafeMutablePointer<lws_protocols>?
    private var retryStorage: UnsafeMutablePointer<lws_retry_bo_t>?

    private func freeCStorage() {
        protocolsStorage?.deallocate()
        protocolsStorage = nil
        retryStorage?.deallocate()
        retryStorage = nil
        cStrings.forEach { free($0) }
        cStrings = []
    }

    private func serviceLoop() {
        guard let loop else { return }
        var closingDeadline: ContinuousClock.Instant?
        while true {
            // One turn of the loop: waits in poll() or epoll_wait until a
            // socket is ready, an lws timer (sul) is due or another thread
            // calls lws_cancel_service; serves that; returns.
            if mindpad_loop_service(loop) < 0 { break }
            adoptPendingUpgrades()
            flushQueued()
            if stopRequested.load(ordering: .acquiring) {
                if closingDeadline == nil {
                    // Say goodbye to every client, after what is queued for
                    // it; stop once every goodbye has reached its client
                    // (below), or after 3 s for a client that takes nothing
                    // more.
                    closingDeadline = .now + .seconds(3)
                    for connection in connections.values {
                        close(connection: connection, code: 1001, reason: "server shutting down")
                    }
                    DispatchQueue.global().asyncAfter(deadline: .now() + 3.05) { [weak self] in self?.wake() }
                    lookForGoodbyes()
                }
                let allTaken = connections.values.allSatisfy(goodbyeTaken)
                if allTaken || ContinuousClock.now >= closingDeadline! { break }
            }
        }
        wakeable.withLock { $0 = 0 }
        destroyContext()
        livenessTimers = nil
        connections.removeAll()
        httpConnections.removeAll()
        webSocketVhost = nil
        freeCStorage()
        logger.info("stopped")
    }

    /// Whether a closing client has its goodbye: the close frame was
    /// written and the write side shut down (`lingering`), and the client's
    /// TCP acknowledged every byte, the FIN included (the kernel's queue is
    /// empty). Only then may the socket go: closing it while the client's
    /// last messages were unread by us makes the kernel reset the connection,
    /// and a reset throws away whatever it still held for the client, the
    /// `finished` and the 1001 among it (issue 45: 11 of 20 racers, whose
    /// reading lagged, lost them at a SIGTERM that took 0.07 s). A client
    /// that closed is gone from `connections` already.
    private func goodbyeTaken(_ c: WebSocketConnection) -> Bool {
        c.lingering && CMindPadShims_tcp_queued(c.fd) <= 0
    }

    /// While stopping: a loop turn every 10 ms, to see acknowledgements
    /// come in (they wake nothing).
    private func lookForGoodbyes() {
        livenessTimers?.schedule(after: .milliseconds(10)) { [weak self] in self?.lookForGoodbyes() }
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
    let result = dispatchCallback(server, wsi, reason, user, input, length)
    // What the callback queued (a grade, the next question, a room's
    // progress to every member) leaves now, one `send` per connection.
    server.flushQueued()
    return result
}

private func dispatchCallback(_ server: WebServer, _ wsi: OpaquePointer, _ reason: lws_callback_reasons,
                              _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    let session = user?.assumingMemoryBound(to: UInt64.self)
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        server.drainPosted()
        return 0
    case LWS_CALLBACK_RAW_ADOPT:
        return server.httpAdopted(wsi, session: session)
    case LWS_CALLBACK_RAW_RX:
        return server.httpReceived(wsi, session: session, bytes: input, length: length)
    case LWS_CALLBACK_RAW_WRITEABLE:
        return server.httpWritable(wsi, session: session)
    case LWS_CALLBACK_RAW_CLOSE:
        server.httpClosed(session: session)
        return 0
    case LWS_CALLBACK_HTTP:
        // A request on a handed-over socket that lws did not upgrade (it
        // was refused above, and the client sent another): HTTP is served
        // on the listening vhost only, so the connection ends here.
        return -1
    case LWS_CALLBACK_ESTABLISHED:
        return server.webSocketOpened(wsi, session: session)
    case LWS_CALLBACK_RECEIVE:
        return server.webSocketReceived(wsi, session: session, bytes: input, length: length)
    case LWS_CALLBACK_RECEIVE_PONG:
        server.webSocketPonged(session: session)
        return 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return server.webSocketWritable(wsi, session: session)
    case LWS_CALLBACK_CLOSED:
        server.webSocketClosed(session: session)
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
