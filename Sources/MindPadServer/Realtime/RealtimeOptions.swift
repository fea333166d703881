import Foundation
import MindPadRules

/// How rooms, races and the WebSocket protocol are tuned. Every field has the
/// game's default; environment variables (read in `init(environment:)`, the
/// one place they are mapped) let operators and tests change them.
public struct RealtimeOptions: Sendable {
    /// `MINDPAD_TIME_ATTACK_SECONDS`: length of a Time Attack race. Default 150.
    public var timeAttackLength: RaceDuration = .seconds(150)
    /// `MINDPAD_COUNTDOWN_SECONDS`: from the host's start to the first
    /// question. Default 3.
    public var countdown: RaceDuration = .seconds(3)
    /// `MINDPAD_RECONNECT_GRACE_SECONDS`: how long a dropped player keeps
    /// their place and race. Default 15.
    public var reconnectGrace: RaceDuration = .seconds(15)
    /// `MINDPAD_RECOGNITION_THREADS`: recognition worker threads. Default 2.
    public var recognitionThreads: Int = 2
    /// `MINDPAD_ALLOWED_ORIGINS`: comma-separated browser origins allowed
    /// besides the server's own host (`*` for any). Default none.
    public var allowedOrigins: [String] = []
    /// Messages a connection may send per second on average…
    public var messagesPerSecond: Double = 40
    /// …and in one burst; beyond that it gets `rate_limited` and a 1008 close.
    public var messageBurst: Double = 80
    /// Live guesses per player: at most one per this interval (≤ 10/s).
    public var liveGuessInterval: RaceDuration = .milliseconds(100)
    /// Progress broadcasts per room: at most one per this interval (5 Hz).
    public var progressInterval: RaceDuration = .milliseconds(200)
    /// How long a player's hand may go unstored after it learned a drawing
    /// (at most one write per player per this; and at once when they leave).
    public var handSaveDelay: RaceDuration = .seconds(60)
    /// Whether the host may start only once every other racer is ready and
    /// connected (`players_not_ready` otherwise). A host alone (solo play)
    /// never waits. Default true.
    public var requireReady: Bool = true
    /// Seats in a new room when the creator does not say; at most 8.
    public var defaultMaxPlayers: Int = 8
    /// Rooms open at once; creating one more is refused with `server_full`.
    /// `MINDPAD_MAX_ROOMS`.
    public var maxRooms: Int = 10_000
    /// How long a lesson waits for its teacher's projector to come back
    /// before it ends (`MINDPAD_LESSON_AWAY_SECONDS`).
    public var lessonAwayLimit: RaceDuration = .seconds(600)
    /// Racers in a lesson's room (a class of 30, and room to spare).
    public static let lessonSeats = 60
    /// `MINDPAD_MAX_CONNECTIONS`: WebSocket sessions open at once; one more
    /// is closed at once with 1013 (try again later). Default 16,000.
    public var maxConnections: Int = 16_000
    /// `MINDPAD_MAX_MESSAGE_BYTES`: largest client message; larger closes
    /// with 1009. Default 64 KiB. (Applied by the transport.)
    public var maxMessageBytes: Int = 64 * 1024

    public init() {}

    /// Reads the environment variables named above; a malformed value throws.
    public init(environment: [String: String]) throws {
        self.init()
        func seconds(_ key: String, _ range: ClosedRange<Double>) throws -> RaceDuration? {
            guard let text = environment[key], !text.isEmpty else { return nil }
            guard let value = Double(text), range.contains(value) else {
                throw ConfigurationError("\(key) must be a number of seconds in \(range.lowerBound)…\(range.upperBound), got \(text)")
            }
            return .milliseconds(Int64((value * 1000).rounded()))
        }
        if let v = try seconds("MINDPAD_TIME_ATTACK_SECONDS", 1...3600) { timeAttackLength = v }
        if let v = try seconds("MINDPAD_COUNTDOWN_SECONDS", 0...60) { countdown = v }
        if let v = try seconds("MINDPAD_RECONNECT_GRACE_SECONDS", 0...600) { reconnectGrace = v }
        if let text = environment["MINDPAD_RECOGNITION_THREADS"], !text.isEmpty {
            guard let n = Int(text), (1...64).contains(n) else {
                throw ConfigurationError("MINDPAD_RECOGNITION_THREADS must be 1…64, got \(text)")
            }
            recognitionThreads = n
        }
        func integer(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = environment[key], !text.isEmpty else { return nil }
            guard let n = Int(text), range.contains(n) else {
                throw ConfigurationError("\(key) must be \(range.lowerBound)…\(range.upperBound), got \(text)")
            }
            return n
        }
        if let n = try integer("MINDPAD_MAX_ROOMS", 1...1_000_000) { maxRooms = n }
        if let v = try seconds("MINDPAD_LESSON_AWAY_SECONDS", 1...86_400) { lessonAwayLimit = v }
        if let n = try integer("MINDPAD_MAX_CONNECTIONS", 1...1_000_000) { maxConnections = n }
        if let n = try integer("MINDPAD_MAX_MESSAGE_BYTES", 1024...(16 << 20)) { maxMessageBytes = n }
        if let n = try integer("MINDPAD_MESSAGES_PER_SECOND", 1...100_000) { messagesPerSecond = Double(n) }
        if let n = try integer("MINDPAD_MESSAGE_BURST", 1...100_000) { messageBurst = Double(n) }
        if let text = environment["MINDPAD_ALLOWED_ORIGINS"] {
            allowedOrigins = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// The rules' configuration for a new room.
    func raceConfiguration(mode: GameMode, maxPlayers: Int?, maxSpectators: Int?) -> RaceConfiguration {
        RaceConfiguration(
            mode: mode, maxPlayers: maxPlayers ?? defaultMaxPlayers, maxSpectators: maxSpectators ?? 16,
            requireReady: requireReady, countdown: countdown,
            timeAttackLength: timeAttackLength, reconnectGrace: reconnectGrace)
    }
}
