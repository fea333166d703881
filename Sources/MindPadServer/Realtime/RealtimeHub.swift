import MindPadHTTP
import MindPadTransport
import Foundation
import Logging
import MindPadRecognition
import MindPadRules
import MindPadStorage

/// Reads drawings off the service thread; the completion may run on any
/// thread. `RecognitionPool` in production.
public protocol DrawingRecognizer: Sendable {
    /// One digit (games answered `drawn_digit`), shifted towards the
    /// player's `hand` when there is one (`PlayerHand`).
    func recognize(_ drawing: Drawing, hand: PlayerHand?,
                   completion: @escaping @Sendable (Result<Recognition, RecognitionError>) -> Void)
    /// A number written left to right (games answered `drawn_number`).
    func readNumber(_ drawing: Drawing, hand: PlayerHand?,
                    completion: @escaping @Sendable (Result<NumberReading, RecognitionError>) -> Void)
    /// Teaches `hand` that `drawing` is `digit`; `completion` gets the hand
    /// as it then is (unchanged when the drawing cannot be read).
    func learn(_ drawing: Drawing, as digit: Int, into hand: PlayerHand,
               completion: @escaping @Sendable (PlayerHand) -> Void)
    /// A new, empty hand for the recognizer's network; nil when its weights
    /// have no `hand` model (then hands are neither applied nor learned).
    func makeHand() -> PlayerHand?
    /// The constants of the hand model (when to learn a reading).
    var handModel: HandModel? { get }
}

/// The realtime game over WebSocket (protocol `mindpad.v1`, see
/// `docs/protocol.md`): sessions, identities, rooms of every registered game
/// kind, drawing and recognition.
///
/// Threading: everything runs on the transport's service thread: the three
/// connection methods are called there, and work done elsewhere (directory
/// lookups, recognition, result storage) comes back through
/// `transport.post`. It is `@unchecked Sendable` only so those posted
/// closures can carry it back; no method may be called from another thread.
public final class RealtimeHub: @unchecked Sendable {
    let options: RealtimeOptions
    let games: GameRegistry
    let players: any PlayerDirectory
    let results: any ResultSink
    let recognition: any DrawingRecognizer
    let transport: any RealtimeTransport
    let metrics: ServerMetrics
    let logger: Logger

    var sessions: [ConnectionID: Session] = [:]
    /// The connection each identified player is on.
    var online: [PlayerID: ConnectionID] = [:]
    /// The room each player is a member of (connected or within grace).
    var memberships: [PlayerID: String] = [:]
    var rooms: [String: any GameRoom] = [:]
    /// Each room's timers (`RoomAction.setTimer`), by room code.
    var roomTimers: [String: [RoomTimer: TimerToken]] = [:]
    /// Connections waiting for a room's last words to their player
    /// (`RoomAction.lastWordsSaid`), by room code and player.
    var awaitingLastWords: [String: [PlayerID: ConnectionID]] = [:]
    /// Finished results not yet durable, and what waits for them.
    var durability = DurabilityWaits()
    /// Finished results whose `result_saved` has not come back from storage
    /// (a drain closes finished racers only after theirs).
    var pendingSaves = 0
    var random: AnyRandomNumberGenerator
    /// Cluster mode (`MINDPAD_INSTANCE`): the room directory and the
    /// cluster-wide session; nil for a single instance. Set before the
    /// first connection.
    public var cluster: ClusterMembership?
    /// Which levels players have opened, asked before a room of a level
    /// above the first is created or joined (`level_locked`); nil (tests
    /// of other things) opens every level. Set before the first connection.
    public var levels: (any LevelDirectory)?
    /// Connections that left a room whose last words to them (`finished`,
    /// `result_saved`) are still on their way: `left_room` waits for them,
    /// and so do the connection's next messages (`RealtimeHub+Leaving.swift`).
    var leaving: [ConnectionID: Leaving] = [:]
    /// Cluster mode: the highest session claim known of each account with
    /// a session here (identified, or claiming), and the sessions whose
    /// claim is on its way (`RealtimeHub+Cluster.swift`).
    var sessionClaims: [Int64: Int64] = [:]
    var claiming: [Int64: Set<ConnectionID>] = [:]
    /// Lessons open here, by room code, and the projector connections
    /// conducting them (`RealtimeHub+Lessons.swift`).
    var lessons: [String: Lesson] = [:]
    var conducting: [ConnectionID: String] = [:]
    /// Solo rooms playing work a teacher set, by room code.
    var assignmentRooms: [String: AssignmentRoom] = [:]
    /// Teachers' classes and their pupils, asked when a lesson opens or a
    /// pupil joins one; nil: lessons are refused (`unavailable`). Set
    /// before the first connection.
    public var lessonDirectory: (any LessonDirectory)?
    /// Set once the instance began draining (`RealtimeHub+Drain.swift`).
    var drain: DrainProgress?
    /// Set once the rooms are closed for the process to stop: their codes
    /// stay in the room directory, under an instance about to be marked
    /// dead, so that a player asking for one is told `room_lost`.
    var stopping = false

    /// - Parameters:
    ///   - games: the kinds rooms can be opened for.
    ///   - players: registers names and checks tokens (`PostgresPlayerDirectory`).
    ///   - results: keeps finished runs (`ResultRecorder`).
    ///   - recognition: reads drawings (`RecognitionPool`).
    ///   - transport: the network and the service thread's clock and timers.
    ///   - random: draws room codes and seeds (tests pass a seeded one).
    public init(options: RealtimeOptions, games: GameRegistry, players: any PlayerDirectory, results: any ResultSink,
                recognition: any DrawingRecognizer, transport: any RealtimeTransport, metrics: ServerMetrics,
                random: any RandomNumberGenerator = SystemRandomNumberGenerator(),
                logger: Logger = Logger(label: "mindpad.realtime")) {
        self.options = options
        self.games = games
        self.players = players
        self.results = results
        self.recognition = recognition
        self.transport = transport
        self.metrics = metrics
        self.random = AnyRandomNumberGenerator(random)
        self.logger = logger
    }

    /// Rooms open now.
    public var roomCount: Int { rooms.count }
    /// Sessions open now.
    public var sessionCount: Int { sessions.count }
    /// Rooms counting down or racing.
    public var racingRoomCount: Int { rooms.values.reduce(0) { $0 + ($1.isRacing ? 1 : 0) } }

    // MARK: Connections

    /// `requestedInstance`: the `instance` of the `/ws?instance=…` URL, the
    /// instance the client meant to reach (cluster mode).
    public func opened(_ connection: ConnectionID, requestedInstance: String? = nil) {
        guard sessions.count < options.maxConnections else {
            metrics.refused("max_connections")
            logger.warning("connection refused: server full", metadata: ["conn": "\(connection)", "max": "\(options.maxConnections)"])
            transport.close(connection, code: 1013, reason: "server full; try again later")
            return
        }
        sessions[connection] = Session(connection: connection,
                                       bucket: TokenBucket(rate: options.messagesPerSecond, burst: options.messageBurst, now: transport.now),
                                       guessInterval: options.liveGuessInterval, requestedInstance: requestedInstance)
        send(ServerMessage.welcome(limits: [
            ("max_message_bytes", .int(options.maxMessageBytes)),
            ("max_points", .int(Rasterizer.maxPoints)), ("max_strokes", .int(Rasterizer.maxStrokes)),
            ("messages_per_second", .int(Int(options.messagesPerSecond))), ("burst", .int(Int(options.messageBurst))),
            ("reconnect_grace_ms", .int(Int(options.reconnectGrace.milliseconds))),
        ]), toConnection: connection)
    }

    public func received(_ text: String, from connection: ConnectionID) {
        guard let session = sessions[connection], !session.isClosing else { return }
        guard session.bucket.take(now: transport.now) else {
            logger.notice("rate limited", metadata: ["conn": "\(connection)", "player": "\(session.player?.id.rawValue ?? "-")"])
            reply(session, ProtocolError(.rateLimited, "Too many messages; at most \(Int(options.messagesPerSecond)) per second. Goodbye."))
            session.state = .closing(session.player)
            transport.close(connection, code: 1008, reason: "rate limit exceeded")
            return
        }
        switch ClientMessage.decode(text) {
        case .failure(let error):
            metrics.messageIn("invalid")
            reply(session, error)
        case .success(let message):
            metrics.messageIn(message.type)
            if leaving[connection] != nil { return holdWhileLeaving(message, from: session) }
            dispatch(message, from: session)
        }
    }

    public func closed(_ connection: ConnectionID) {
        guard let session = sessions.removeValue(forKey: connection) else { return }
        transport.cancel(session.pacerTimer)
        if conducting[connection] != nil { conductorLeft(connection) }
        let player: Session.Player?
        switch session.state {
        case .identified(let p), .closing(let p?): player = p
        case .unidentified, .identifying, .closing(nil): player = nil
        }
        if let player { saveHand(of: session, player: player) }
        transport.cancel(session.handSaveTimer)
        if let account = session.claiming { stopClaiming(account, connection) }
        guard let player, online[player.id] == connection else { return }
        online[player.id] = nil
        forgetClaimIfUnused(player.accountID)
        if let code = memberships[player.id], let room = rooms[code] {
            feed(room, .disconnect(player.id), request: nil)
        }
    }

    // MARK: Messages

    func dispatch(_ message: ClientMessage, from session: Session) {
        if case .identify(let name, let token) = message {
            identify(session, name: name, token: token)
            return
        }
        // A teacher's projector is no player (`RealtimeHub+Lessons.swift`).
        if case .hostLesson(let token, let classID, let game, let mode, let level) = message {
            return hostLesson(session, token: token, classID: classID, game: game, mode: mode, level: level)
        }
        if case .lesson(let action, let player) = message { return conductLesson(action, player: player, session: session) }
        guard let player = session.player else {
            reply(session, ProtocolError(.notIdentified, "Send \"identify\" with your name first.", request: message.type))
            return
        }
        switch message {
        case .identify:
            break
        case .createRoom(let game, let mode, let maxPlayers, let maxSpectators, let fish, let level, let assignment):
            if let assignment {
                return playAssignment(assignment, game: game, mode: mode, level: level, fish: fish, for: player, session: session)
            }
            createRoom(game: game, mode: mode, maxPlayers: maxPlayers, maxSpectators: maxSpectators, fish: fish, level: level,
                       for: player, session: session)
        case .joinRoom(let input, let fish):
            joinRoom(input, fish: fish, for: player, session: session)
        case .leaveRoom:
            guard let room = room(of: player, session: session, request: message.type) else { return }
            leave(room, player: player, session: session, request: message.type)
        case .ready(let flag):
            if let room = room(of: player, session: session, request: message.type) { feed(room, .setReady(player.id, flag), request: message.type) }
        case .start:
            if let refusal = drainRefusal(request: message.type) { return reply(session, refusal) }
            if let room = room(of: player, session: session, request: message.type) { feed(room, .start(by: player.id), request: message.type) }
        case .rematch:
            if let refusal = drainRefusal(request: message.type) { return reply(session, refusal) }
            let seed = UInt64.random(in: .min ... .max, using: &random)
            if let room = room(of: player, session: session, request: message.type) { feed(room, .rematch(by: player.id, seed: seed), request: message.type) }
        case .points(let question, let stroke, let points):
            addPoints(points, stroke: stroke, question: question, player: player, session: session)
        case .clear(let question):
            clear(question: question, session: session)
        case .undo(let question, let stroke):
            undo(stroke: stroke, question: question, session: session)
        case .submit(let question, let answer):
            submit(question: question, answer: answer, player: player, session: session)
        case .choose(let question, let answer):
            choose(question: question, answer: answer, player: player, session: session)
        case .reading(let learn, let forget):
            setReading(learn: learn, forget: forget, player: player, session: session)
        case .hostLesson, .lesson:
            break
        }
    }

    func room(of player: Session.Player, session: Session, request: String) -> (any GameRoom)? {
        guard let code = memberships[player.id], let room = rooms[code] else {
            reply(session, ProtocolError(.notInRoom, "You are not in a room; create or join one first.", request: request))
            return nil
        }
        return room
    }

    func createRoom(game identifier: String, mode: GameMode, maxPlayers: Int?, maxSpectators: Int?, fish: UUID?,
                            level: Int?, for player: Session.Player, session: Session) {
        let request = ClientMessage.Kind.createRoom.rawValue
        if let code = memberships[player.id] {
            return reply(session, ProtocolError(.alreadyInRoom, "You are already in room \(code); leave it first.", request: request))
        }
        let game: GameRegistry.Entry
        switch hostedGame(identifier, mode: mode, request: request) {
        case .success(let entry): game = entry
        case .failure(let refusal): return reply(session, refusal)
        }
        if let refusal = Self.fishRefusal(fish, game: game.info, request: request) { return reply(session, refusal) }
        if let refusal = Self.levelRefusal(level, game: game.info, request: request) { return reply(session, refusal) }
        // A level above the first must be open to the player: asked first.
        let level = game.info.hasLevels ? level ?? 1 : level
        whenLevelOpen(level, of: game.info, for: player, session: session, request: request) { [unowned self] in
            openRoom(game: game, mode: mode, maxPlayers: maxPlayers, maxSpectators: maxSpectators, fish: fish, level: level,
                     for: player, session: session)
        }
    }

    /// `create_room` once its request was checked (the level's lock may
    /// have been asked of the database meanwhile: what may have changed is
    /// checked again).
    func openRoom(game: GameRegistry.Entry, mode: GameMode, maxPlayers: Int?, maxSpectators: Int?, fish: UUID?,
                  level: Int?, for player: Session.Player, session: Session, assignment: AssignmentRoom? = nil) {
        let request = ClientMessage.Kind.createRoom.rawValue
        let identifier = game.info.identifier
        if let code = memberships[player.id] {
            return reply(session, ProtocolError(.alreadyInRoom, "You are already in room \(code); leave it first.", request: request))
        }
        guard rooms.count < options.maxRooms else {
            return reply(session, ProtocolError(.serverFull, "No more rooms can be opened right now; try again later.", request: request))
        }
        // A draining instance sends the client to another one.
        if drain != nil { return reply(session, ServerMessage.moved(room: nil, instance: nil)) }
        let open = { [unowned self] (code: String) in
            let seed = UInt64.random(in: .min ... .max, using: &random)
            var configuration = options.raceConfiguration(mode: mode, maxPlayers: maxPlayers, maxSpectators: maxSpectators)
            // A game with levels races one: level 1 unless asked.
            configuration.level = game.info.levels.isEmpty ? nil : level ?? 1
            let room = game.openRoom(code, configuration, seed, transport.now, RoomSettings(progressInterval: options.progressInterval, logger: logger))
            rooms[code] = room
            if let assignment { assignmentRooms[code] = assignment }
            logger.info("room created", metadata: ["room": "\(code)", "game": "\(identifier)", "mode": "\(mode.rawValue)",
                                                   "level": "\(configuration.level.map(String.init) ?? "-")", "conn": "\(session.connection)"])
            feed(room, .join(player, fish: fish), request: request)
        }
        // In a cluster the code is reserved in the directory first.
        if cluster != nil { return reserveRoom(game: identifier, for: player, session: session, open: open) }
        open(RoomCode.make(avoiding: { rooms[$0] != nil }, using: &random))
    }

    private func joinRoom(_ input: String, fish: UUID?, for player: Session.Player, session: Session) {
        let request = ClientMessage.Kind.joinRoom.rawValue
        if let code = memberships[player.id] {
            return reply(session, ProtocolError(.alreadyInRoom, "You are already in room \(code); leave it first.", request: request))
        }
        guard let code = RoomCode.normalize(input) else {
            return reply(session, ProtocolError(.roomNotFound, "There is no room with that code.", request: request))
        }
        guard let room = rooms[code] else {
            // In a cluster the room may be open on another instance.
            if cluster != nil { return findRoom(code, for: player, session: session) }
            return reply(session, ProtocolError(.roomNotFound, "There is no room with that code.", request: request))
        }
        if let refusal = Self.fishRefusal(fish, game: room.game, request: request) { return reply(session, refusal) }
        // A lesson's room: the class's pupils only, at the teacher's level.
        if lessons[code] != nil { return joinLesson(room, player: player, session: session) }
        // A room of a level above the first: it must be open to the joiner too.
        whenLevelOpen(room.snapshot.level, of: room.game, for: player, session: session, request: request) { [unowned self] in
            guard rooms[code] === room else {
                return reply(session, ProtocolError(.roomNotFound, "There is no room with that code.", request: request))
            }
            if let code = memberships[player.id] {
                return reply(session, ProtocolError(.alreadyInRoom, "You are already in room \(code); leave it first.", request: request))
            }
            feed(room, .join(player, fish: fish), request: request)
        }
    }

    /// The game `identifier` if this server hosts it in `mode`; else why not
    /// (`unknown_game`, `mode_not_offered`), for `create_room` and `host_lesson`.
    func hostedGame(_ identifier: String, mode: GameMode, request: String) -> Result<GameRegistry.Entry, ProtocolError> {
        guard let game = games.entry(identifier) else {
            let known = games.games.map(\.identifier).joined(separator: ", ")
            return .failure(ProtocolError(.unknownGame, "There is no game \"\(ClientMessage.printable(identifier))\"; games: \(known).", request: request))
        }
        guard game.info.modes.contains(mode) else {
            let offered = game.info.modes.map(\.rawValue).joined(separator: ", ")
            return .failure(ProtocolError(.modeNotOffered, "\(game.info.names.en) is played in \(offered).", request: request))
        }
        return .success(game)
    }

    /// A level the game does not have (out of its ladder, or any level of a
    /// game without levels): a client bug, said clearly.
    static func levelRefusal(_ level: Int?, game: GameInfo, request: String) -> ProtocolError? {
        guard let level, !game.hasLevel(level) else { return nil }
        if game.levels.isEmpty {
            return ProtocolError(.badLevel, "\(game.names.en) has no levels; send \"level\" only to a game with levels.", request: request)
        }
        return ProtocolError(.badLevel, "\(game.names.en) has levels 1 to \(game.levels.count); \(level) is not one of them.", request: request)
    }

    /// A fish brought to a game not played with one: a client bug, said clearly.
    private static func fishRefusal(_ fish: UUID?, game: GameInfo, request: String) -> ProtocolError? {
        guard fish != nil, !game.playsWithFish else { return nil }
        return ProtocolError(.badFish, "\(game.names.en) is not played with a fish; send \"fish\" only to a fish game.", request: request)
    }
}

/// A random number generator held as a value of one concrete type.
struct AnyRandomNumberGenerator: RandomNumberGenerator {
    private var base: any RandomNumberGenerator
    init(_ base: any RandomNumberGenerator) { self.base = base }
    mutating func next() -> UInt64 { base.next() }
}
