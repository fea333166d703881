import MindPadHTTP
import MindPadTransport
import Dispatch
import Foundation
import Logging
import MindPadRules
import MindPadStorage
import Synchronization

/// The one composition root: builds the database pool, result recorder,
/// player directory, recognition pool, realtime hub, HTTP routes and the
/// libwebsockets server from one `Configuration`, starts them in order and
/// stops them in reverse. The executable parses flags into a configuration
/// and calls `start`, `stopOnTerminationSignals` and `wait`; tests start it
/// in-process (with extra game kinds in `games`).
public final class MindPadApplication: Sendable {
    public let configuration: Configuration
    public let games: GameRegistry
    public let metrics = ServerMetrics()
    private let logger: Logger
    private let parts = Mutex<Parts?>(nil)
    /// A fatal error from a background thread (a migration that failed
    /// after the database came back): `wait` rethrows it.
    private let failure = Mutex<String?>(nil)
    /// When the drain began (cluster mode): `wait` gives the database until
    /// the drain's bound to take every journaled result.
    private let drainBegan = Mutex<ContinuousClock.Instant?>(nil)
    /// SIGINT or SIGTERM arrived: a drained instance waiting for the
    /// database stops waiting (an operator's stop is not to be held up to
    /// the drain's bound).
    private let interrupted = Atomic<Bool>(false)

    private struct Parts: Sendable {
        let server: WebServer
        let realtime: RealtimeHub
        let pool: DatabaseWorkerPool
        let results: ResultRecorder
        let retention: AnswerRetention
        let recognition: RecognitionPool
        let app: GameServer
        let cluster: ClusterMembership?
        let drain: DrainControl?
    }
    /// The signal handlers (`stopOnTerminationSignals`), cancelled by `wait`.
    private let signals = Mutex<[any DispatchSourceSignal]>([])

    public init(configuration: Configuration, games: GameRegistry = .standard, logger: Logger = Logger(label: "mindpad")) {
        self.configuration = configuration
        self.games = games
        self.logger = logger
    }

    /// Migrates (unless told not to), starts everything and returns the
    /// port listened on once it accepts connections.
    public func start() throws -> Int {
        let config = configuration
        guard let url = config.databaseURL else {
            throw ConfigurationError("DATABASE_URL is not set. `make run` starts a private PostgreSQL and sets it; or pass --database-url.")
        }
        logger.info("starting", metadata: [
            "version": "\(MindPadVersion.current)", "database": "\(config.redactedDatabaseURL)",
            "admin_token": "\(config.adminToken == nil ? "unset" : "set")",
            "games": "\(games.games.map(\.identifier).joined(separator: ","))",
            "weather": "\(config.weatherProvider.rawValue) \(config.weatherPlace.name)",
            "instance": "\(config.instance ?? "single")",
        ])
        if config.migrateOnStart {
            let files = try MigrationFile.load(from: URL(fileURLWithPath: config.migrationsDirectory))
            try StartupMigration(files: files, connectionString: url, logger: logger) { [weak self] error in
                self?.fail("migration failed: \(error)")
            }.run()
        }
        let pool = DatabaseWorkerPool(connectionString: url, size: config.databasePoolSize)
        let results = try ResultRecorder(pool: pool, dataDirectory: URL(fileURLWithPath: config.dataDirectory), metrics: metrics,
                                         games: games)
        let directory = PostgresPlayerDirectory(pool: pool)
        let retention = AnswerRetention(days: config.answerRetentionDays, pool: pool)
        let recognition = try RecognitionPool.bundled(threads: config.realtime.recognitionThreads, metrics: metrics)
        let webRoot = URL(fileURLWithPath: config.webRoot).standardizedFileURL.path
        if !FileManager.default.fileExists(atPath: webRoot + "/index.html") {
            logger.warning("no index.html in web root", metadata: ["web_root": "\(webRoot)"])
        }
        let server = WebServer(options: WebServerOptions(
            host: config.host, port: config.port, webRoot: webRoot,
            maxMessageBytes: config.realtime.maxMessageBytes,
            maxConnections: max(1024, config.realtime.maxConnections + 256),
            allowedOrigins: config.realtime.allowedOrigins, eventLoop: config.eventLoop, clientPages: ["replay"]))
        let realtime = RealtimeHub(options: config.realtime, games: games, players: directory, results: results,
                                   recognition: recognition, transport: LWSRealtimeTransport(server: server), metrics: metrics)
        // A locked level is refused before it is raced (create_room, join_room).
        realtime.levels = PostgresLevelDirectory(pool: pool)
        realtime.lessonDirectory = PostgresLessonDirectory(pool: pool)
        // Cluster mode: the directory, the heartbeat, the session channel.
        let cluster = config.instance.map { ClusterMembership(instance: $0, pool: pool, connectionString: url) }
        var drain: DrainControl?
        if let cluster {
            realtime.cluster = cluster
            cluster.onSessionAnnounced({ [weak realtime] account, instance, generation in
                realtime?.sessionAnnounced(account: account, instance: instance, generation: generation)
            }, relistened: { [weak realtime] in realtime?.sessionChannelRelistened() })
            let bound = RaceDuration.seconds(Int64(config.drainSeconds))
            let started = Atomic<Bool>(false)
            drain = DrainControl { [weak self, weak realtime] in
                if !started.exchange(true, ordering: .acquiringAndReleasing) {
                    cluster.setDraining()
                    self?.drainBegan.withLock { $0 = .now }
                }
                return realtime?.beginDrain(bound: bound) {
                    self?.logger.notice("drained; stopping")
                    self?.stop()
                } ?? 0
            }
            cluster.start()
        }
        let app = GameServer(configuration: config, pool: pool, directory: directory, games: games, metrics: metrics,
                             realtime: realtime, recognition: recognition, results: results, drain: drain)
        server.delegate = app
        server.errorCounter = { [metrics] in metrics.error($0, transport: "http") }
        server.lagObserver = { [metrics] in metrics.serviceLag.record($0) }
        server.slowReaderObserver = { [metrics] in metrics.slowReader($0) }
        parts.withLock { $0 = Parts(server: server, realtime: realtime, pool: pool, results: results,
                                    retention: retention, recognition: recognition, app: app, cluster: cluster, drain: drain) }
        try server.start()
        retention.start()
        // In the background: the first visitor already sees the weather.
        app.weather.prefetch()
        return server.port
    }

    /// Ends every run in progress (each goes to storage), closes every
    /// client with 1001 and stops the server. Safe from any thread.
    public func stop() {
        guard let (server, realtime) = parts.withLock({ p in p.map { ($0.server, $0.realtime) } }) else { return }
        // Runs in progress end and go to storage; the 1001 goodbyes wait
        // until every finished run is durable (at most 3 s).
        server.post {
            realtime.closeRoomsForShutdown { server.stop() }
        }
    }

    /// Cluster mode: begins draining (docs/architecture.md, "Cluster"), and
    /// the application stops once the racing rooms ended. False for a
    /// single instance, which does not drain. Safe from any thread.
    @discardableResult
    public func drain() -> Bool {
        guard let (server, control) = parts.withLock({ p in p.map { ($0.server, $0.drain) } }), let control else { return false }
        server.post { _ = control.drain() }
        return true
    }

    /// Cluster mode: how many times the session channel was listened on
    /// (1 once listening, one more after each reconnect); 0 otherwise.
    public var clusterListenCount: Int { parts.withLock { $0?.cluster?.listenCount } ?? 0 }

    /// SIGINT and SIGTERM call `stop`; SIGUSR1 calls `drain`.
    public func stopOnTerminationSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGUSR1, SIG_IGN)
        for number in [SIGINT, SIGTERM] { signal(number, SIG_IGN) }
        signals.withLock { signals in
            let usr1 = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
            usr1.setEventHandler { [weak self] in
                guard let self else { return }
                if self.drain() {
                    self.logger.notice("draining", metadata: ["signal": "SIGUSR1"])
                } else {
                    self.logger.warning("SIGUSR1 ignored: only an instance of a cluster (MINDPAD_INSTANCE) drains")
                }
            }
            usr1.resume()
            signals.append(usr1)
            for number in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [weak self] in
                    self?.logger.info("shutting down", metadata: ["signal": "\(number == SIGINT ? "SIGINT" : "SIGTERM")"])
                    self?.interrupted.store(true, ordering: .releasing)
                    self?.stop()
                }
                source.resume()
                signals.append(source)
            }
        }
        // A signal sent before this line ends the process (or, for SIGUSR1,
        // is lost): tests that signal wait for it.
        logger.debug("handling signals", metadata: ["stop": "SIGINT,SIGTERM", "drain": "SIGUSR1"])
    }

    /// Blocks until the server has stopped, then lets the recognition
    /// workers finish, writes (or journals) the results still queued and
    /// closes the database connections. Throws a fatal error a background
    /// thread reported.
    ///
    /// A drained instance (cluster mode) is done only once PostgreSQL has
    /// every result it finished: it waits for the database until the
    /// drain's bound (at least `drainStorageFloor` after its rooms ended),
    /// and throws `DrainIncomplete` if its journal still holds results, so
    /// that the process exits non-zero (75) rather than report a drain that
    /// stored nothing. A plain stop (SIGTERM) journals and exits 0: the
    /// results are written when an instance starts on the same data directory.
    public func wait() throws {
        guard let p = parts.withLock({ $0 }) else { return }
        p.server.waitUntilStopped()
        p.recognition.shutdown()
        p.retention.stop()
        // Results still queued are written, or journaled if the database
        // cannot take them in time.
        p.results.flush(timeout: .seconds(2))
        let drained = drainBegan.withLock { $0 }
        if let drained {
            let deadline = max(drained + .seconds(configuration.drainSeconds), .now + Self.drainStorageFloor)
            let waiting = p.results.backlog
            if waiting > 0 {
                logger.warning("drained; waiting for the database to store the journaled results", metadata: [
                    "results": "\(waiting)", "journal": "\(p.results.journal.url.path)",
                    "until_s": "\(Int(((deadline - .now) / .seconds(1)).rounded()))",
                ])
            }
            // A second at a time, so that SIGTERM or SIGINT ends the wait.
            while ContinuousClock.now < deadline && !interrupted.load(ordering: .acquiring) {
                if p.results.waitUntilSettled(timeout: min(.seconds(1), deadline - .now)) { break }
            }
        }
        // Dead at once for the other instances: its rooms are room_lost.
        p.cluster?.stop()
        p.pool.shutdown(timeout: .seconds(1))
        p.results.shutdown()
        signals.withLock { s in
            s.forEach { $0.cancel() }
            s.removeAll()
        }
        withExtendedLifetime(p.app) {}
        parts.withLock { $0 = nil }
        let left = p.results.journal.pending()
        if !left.isEmpty {
            // Say what is left and where, whatever the stop.
            let level: Logger.Level = drained == nil ? .warning : .critical
            logger.log(level: level, drained == nil
                       ? "stopped with results only in the journal; an instance started on this data directory writes them"
                       : "DRAIN INCOMPLETE: the database did not take every result before the instance stopped (the drain's bound, or SIGTERM); they are only in the journal", metadata: [
                "results": "\(left.count)", "journal": "\(p.results.journal.url.path)",
                "result_ids": "\(left.prefix(20).map(\.resultID).joined(separator: ","))\(left.count > 20 ? ",…" : "")",
                "remedy": "start an instance with the same MINDPAD_DATA_DIR once PostgreSQL is reachable",
            ])
        }
        logger.info("bye")
        if let message = failure.withLock({ $0 }) { throw ConfigurationError(message) }
        if drained != nil && !left.isEmpty {
            throw DrainIncomplete(results: left.count, journal: p.results.journal.url.path)
        }
    }

    /// How long a drained instance waits for the database after its rooms
    /// ended, even when the drain's bound has passed.
    static let drainStorageFloor: Duration = .seconds(5)

    private func fail(_ message: String) {
        failure.withLock { $0 = $0 ?? message }
        stop()
    }
}

/// A drain ended with finished results that only its journal holds
/// (`MindPadApplication.wait`). The process exits with `exitCode`.
public struct DrainIncomplete: Error, CustomStringConvertible {
    public let results: Int
    public let journal: String
    /// EX_TEMPFAIL: the results are safe on this disk; run again later.
    public static let exitCode: Int32 = 75
    public var description: String {
        "drain incomplete: \(results) finished results are only in \(journal); start an instance with this data directory once PostgreSQL is reachable"
    }
}
