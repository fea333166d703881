import Foundation
import Logging
import Synchronization

/// One dedicated connection that LISTENs on one channel, on a thread of its
/// own (a notification arrives only on the session that listens, and that
/// session must do nothing else). When the connection drops (the server
/// restarted, an operator ended the backend) it logs, waits with backoff
/// (100 ms doubling to 5 s) and listens again; what was sent meanwhile is
/// not delivered (NOTIFY is not queued for a session that is not there).
///
/// `deliver` runs on the listener's thread, one payload at a time: hop to
/// the service thread before touching anything of it.
public final class NotificationListener: Sendable {
    private let connectionString: String
    private let channel: String
    private let applicationName: String
    private let deliver: @Sendable (PostgresNotification) -> Void
    private let onListening: @Sendable () -> Void
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    /// Times the channel was listened on (1 after the first connect, one
    /// more after every reconnect): tests wait on it.
    private let listenedCount = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    private let firstListen = DispatchSemaphore(value: 0)
    /// How often the thread looks at `stopping` while nothing arrives.
    private static let pollInterval: Duration = .milliseconds(200)

    /// - Parameters:
    ///   - applicationName: the session's `application_name`
    ///     (`pg_stat_activity`), so an operator can tell it apart.
    ///   - onListening: runs on the listener's thread each time the channel
    ///     is listened on (again): what was sent before may have been missed.
    public init(connectionString: String, channel: String, applicationName: String,
                logger: Logger = Logger(label: "mindpad.listen"),
                onListening: @escaping @Sendable () -> Void = {},
                deliver: @escaping @Sendable (PostgresNotification) -> Void) {
        self.onListening = onListening
        self.connectionString = connectionString
        self.channel = channel
        self.applicationName = applicationName
        self.logger = logger
        self.deliver = deliver
    }

    /// How many times the channel was listened on so far.
    public var listenCount: Int { listenedCount.load(ordering: .acquiring) }

    public func start() {
        let thread = Thread { [self] in
            self.run()
            self.finished.signal()
        }
        thread.name = "mindpad-listen"
        thread.start()
    }

    /// Waits until the channel is listened on for the first time; false
    /// after `timeout` (the database is down: the thread keeps trying).
    @discardableResult
    public func waitUntilListening(timeout: Duration) -> Bool {
        guard firstListen.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMilliseconds))) == .success else { return false }
        firstListen.signal()
        return true
    }

    /// Stops the thread and closes the connection; waits at most `timeout`.
    public func stop(timeout: Duration = .seconds(1)) {
        stopping.store(true, ordering: .releasing)
        _ = finished.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMilliseconds)))
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        var backoff: Duration = .milliseconds(100)
        var failing = false
        while !isStopping {
            do {
                let connection = try PostgresConnection(connectionString: connectionString, applicationName: applicationName,
                                                        timeouts: .serving)
                try connection.listen(channel)
                onListening()
                if listenedCount.add(1, ordering: .releasing).newValue == 1 { firstListen.signal() }
                if failing { logger.notice("listening again", metadata: ["channel": "\(channel)"]) }
                failing = false
                backoff = .milliseconds(100)
                while !isStopping {
                    for notification in try connection.waitForNotifications(timeout: Self.pollInterval) {
                        deliver(notification)
                    }
                }
            } catch {
                guard !isStopping else { break }
                if !failing {
                    logger.error("listen connection lost; reconnecting", metadata: ["channel": "\(channel)", "error": "\(error)"])
                }
                failing = true
                // Waits in small steps, so that a stop is not held up.
                let until = ContinuousClock.now + backoff
                while !isStopping && ContinuousClock.now < until {
                    Thread.sleep(forTimeInterval: 0.05)
                }
                backoff = min(backoff * 2, .seconds(5))
            }
        }
    }
}
