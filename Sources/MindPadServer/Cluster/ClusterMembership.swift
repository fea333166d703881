import Dispatch
import Foundation
import Logging
import MindPadStorage
import Synchronization

/// This instance's part in a cluster (`MINDPAD_INSTANCE` set): its row in
/// `instances` and its heartbeat, the room directory's queries, and the
/// session announcements (`NOTIFY mindpad_session`, heard on a dedicated
/// connection by `NotificationListener`). Every query runs on the database
/// workers; completions run on a worker thread, so callers hop back to the
/// service thread themselves. Absent in single-instance mode.
public final class ClusterMembership: Sendable {
    public let instance: String
    private let pool: DatabaseWorkerPool
    private let logger: Logger
    private let listener: NotificationListener
    /// Registered since start (the heartbeat registers again while not).
    private let registered = Atomic<Bool>(false)
    private let heartbeatTimer = Mutex<(any DispatchSourceTimer)?>(nil)
    /// What to do with an announcement: the account, the instance it
    /// identified on and the claim's generation. Set once, before `start`.
    private let sessionHandler = SessionHandlerSlot()

    public init(instance: String, pool: DatabaseWorkerPool, connectionString: String,
                logger: Logger = Logger(label: "mindpad.cluster")) {
        self.instance = instance
        self.pool = pool
        self.logger = logger
        let handler = sessionHandler
        let listenLogger = logger
        listener = NotificationListener(connectionString: connectionString, channel: RoomDirectoryStore.sessionChannel,
                                        applicationName: "mindpad-listen-\(instance)", logger: logger,
                                        onListening: { handler.relistened?() }) { notification in
            guard let (account, instance, generation) = ClusterMembership.readAnnouncement(notification.payload) else {
                listenLogger.warning("unreadable session announcement", metadata: ["payload": "\(notification.payload.prefix(80))"])
                return
            }
            handler.announced?(account, instance, generation)
        }
    }

    /// Times the session channel was listened on (tests wait on it).
    public var listenCount: Int { listener.listenCount }

    /// `<account id> <instance id> <generation>` (migration 0017); an
    /// instance of a version before it announced `<account id> <instance id>`
    /// (generation nil). Anything else is not ours.
    static func readAnnouncement(_ payload: String) -> (Int64, String, Int64?)? {
        let parts = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let account = Int64(parts[0]), !parts[1].isEmpty else { return nil }
        guard parts.count == 3 else { return (account, String(parts[1]), nil) }
        guard let generation = Int64(parts[2]), generation > 0 else { return nil }
        return (account, String(parts[1]), generation)
    }

    /// `handler(account, instance, generation)` runs on the listener's
    /// thread for every session claim announced, this instance's own
    /// included. `relistened` runs each time the channel is listened on
    /// again after the connection dropped (announcements may have been
    /// missed: `sessionGenerations` says what they were).
    public func onSessionAnnounced(_ handler: @escaping @Sendable (Int64, String, Int64?) -> Void,
                                   relistened: @escaping @Sendable () -> Void = {}) {
        sessionHandler.announced = handler
        sessionHandler.relistened = relistened
    }

    /// Registers and listens (waiting up to `within` for each, so that the
    /// instance serves only once both are done; a database that is down
    /// leaves them to the heartbeat and the listener's retries), and starts
    /// the heartbeat.
    public func start(within: Duration = .seconds(3)) {
        let done = DispatchSemaphore(value: 0)
        register { done.signal() }
        listener.start()
        _ = done.wait(timeout: .now() + .milliseconds(Int(within.wholeMilliseconds)))
        if !listener.waitUntilListening(timeout: within) {
            logger.error("not listening for sessions yet; retrying", metadata: ["instance": "\(instance)"])
        }
        let interval = Int(ClusterTiming.heartbeat.components.seconds)
        heartbeatTimer.withLock { slot in
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + .seconds(interval), repeating: .seconds(interval))
            timer.setEventHandler { [weak self] in self?.beat() }
            timer.resume()
            slot = timer
        }
    }

    /// Stops the heartbeat and the listener and marks the instance stopped
    /// (dead at once, so its rooms are `room_lost`); waits at most `timeout`
    /// for the database. Before the pool shuts down.
    public func stop(timeout: Duration = .seconds(1)) {
        heartbeatTimer.withLock { t in
            t?.cancel()
            t = nil
        }
        listener.stop()
        let done = DispatchSemaphore(value: 0)
        let instance = self.instance
        pool.run({ try RoomDirectoryStore($0).markStopped(instance: instance) }, within: timeout) { _ in done.signal() }
        _ = done.wait(timeout: .now() + .milliseconds(Int(timeout.wholeMilliseconds)))
    }

    private func register(then: @escaping @Sendable () -> Void = {}) {
        let instance = self.instance
        pool.run({ try RoomDirectoryStore($0).register(instance: instance) }) { [self] result in
            switch result {
            case .success:
                if !registered.exchange(true, ordering: .acquiringAndReleasing) {
                    logger.info("registered in the cluster", metadata: ["instance": "\(instance)"])
                }
            case .failure(let error):
                logger.error("could not register in the cluster; retrying with the heartbeat",
                             metadata: ["instance": "\(instance)", "error": "\(error)"])
            }
            then()
        }
    }

    private func beat() {
        guard registered.load(ordering: .acquiring) else { return register() }
        let instance = self.instance
        pool.run({ try RoomDirectoryStore($0).heartbeat(instance: instance) }) { [self] result in
            switch result {
            case .success(true): break
            case .success(false):
                registered.store(false, ordering: .releasing)
                register()
            case .failure(let error):
                logger.warning("heartbeat failed", metadata: ["instance": "\(instance)", "error": "\(error)"])
            }
        }
    }

    // MARK: The directory (completions on a worker thread)

    /// Reserves `code` for a new room here: true, or false when a live
    /// instance holds it.
    public func reserve(code: String, game: String, completion: @escaping @Sendable (Result<Bool, PostgresError>) -> Void) {
        let instance = self.instance
        pool.run({ try RoomDirectoryStore($0).reserve(code: code, instance: instance, game: game) },
                 within: .seconds(2), completion: completion)
    }

    public func lookup(code: String, completion: @escaping @Sendable (Result<RoomDirectoryEntry?, PostgresError>) -> Void) {
        pool.run({ try RoomDirectoryStore($0).lookup(code: code) }, within: .seconds(2), completion: completion)
    }

    /// The room is gone; a failure is only logged (the row goes when this
    /// instance starts again, and a dead owner's code is taken over anyway).
    public func release(code: String) {
        let instance = self.instance
        pool.run({ try RoomDirectoryStore($0).release(code: code, instance: instance) }) { [logger] result in
            if case .failure(let error) = result {
                logger.warning("could not release a room code", metadata: ["room": "\(code)", "error": "\(error)"])
            }
        }
    }

    /// Claims `account`'s session for this instance (migration 0017):
    /// `completion(.success(generation))` once the claim and its
    /// announcement committed, a failure when the database did not answer
    /// within 2 s (the claim may still commit later).
    public func claimSession(account: Int64, completion: @escaping @Sendable (Result<Int64, PostgresError>) -> Void) {
        let instance = self.instance
        pool.run({ try RoomDirectoryStore($0).claimSession(account: account, instance: instance) },
                 within: .seconds(2)) { [logger] result in
            if case .failure(let error) = result {
                logger.warning("could not claim a session", metadata: ["account": "\(account)", "error": "\(error)"])
            }
            completion(result)
        }
    }

    /// The latest claim of each of `accounts` (after the listener missed
    /// announcements).
    public func sessionGenerations(accounts: [Int64], completion: @escaping @Sendable (Result<[Int64: Int64], PostgresError>) -> Void) {
        pool.run({ try RoomDirectoryStore($0).sessionGenerations(accounts: accounts) }, within: .seconds(5), completion: completion)
    }

    public func setDraining() {
        let instance = self.instance
        pool.run({ try RoomDirectoryStore($0).setDraining(instance: instance) }) { [logger] result in
            if case .failure(let error) = result {
                logger.warning("could not mark the instance draining", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// The session handlers, set after the listener that calls them was made.
private final class SessionHandlerSlot: Sendable {
    private let value = Mutex<(@Sendable (Int64, String, Int64?) -> Void)?>(nil)
    private let again = Mutex<(@Sendable () -> Void)?>(nil)

    var announced: (@Sendable (Int64, String, Int64?) -> Void)? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    var relistened: (@Sendable () -> Void)? {
        get { again.withLock { $0 } }
        set { again.withLock { $0 = newValue } }
    }
}
