import Foundation
import Logging
import MindPadRecognition
import MindPadRules
import MindPadStorage

/// The server's monotonic clock as the rules read it.
struct ServiceClock {
    private let origin = ContinuousClock.now

    var now: RaceInstant {
        let elapsed = ContinuousClock.now - origin
        return RaceInstant(milliseconds: elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// The realtime game over WebSocket (protocol `mindpad.v1`, see
/// `docs/protocol.md`): sessions, identities, rooms and their races, drawing
/// and recognition.
///
/// Threading: everything runs on the lws service thread — the three
/// connection methods are called by `GameServer`'s delegate methods, and
/// work done elsewhere (directory lookups, recognition, result storage)
/// comes back through `WebServer.post`. It is `@unchecked Sendable` only so
/// those posted closures can carry it back; no method may be called from
/// another thread.
public final class RealtimeHub: @unchecked Sendable {
    let options: RealtimeOptions
    let players: any PlayerDirectory
    let results: any ResultSink
    let recognition: RecognitionPool
    let logger: Logger
    let clock = ServiceClock()

    private(set) weak var server: WebServer?
    private(set) var timers: ServiceTimers!
    var sessions: [ConnectionID: Session] = [:]
    /// The connection each identified player is on.
    var online: [PlayerID: ConnectionID] = [:]
    /// The room each player is a member of (connected or within grace).
    var memberships: [PlayerID: String] = [:]
    var rooms: [String: RoomOwner] = [:]
    /// Finished results not yet durable, and what waits for them.
    var durability = DurabilityWaits()
    private var random = SystemRandomNumberGenerator()

    /// - Parameters:
    ///   - players: registers names and checks tokens (`PostgresPlayerDirectory`).
    ///   - results: keeps finished runs (`ResultRecorder`).
    ///   - recognition: the worker threads that read drawings.
    public init(options: RealtimeOptions, players: any PlayerDirectory, results: any ResultSink,
                recognition: RecognitionPool, logger: Logger = Logger(label: "mindpad.realtime")) {
        self.options = options
        self.players = players
        self.results = results
        self.recognition = recognition
        self.logger = logger
    }

    /// Rooms open now (service thread).
    public var roomCount: Int { rooms.count }

    // MARK: Connections (called by GameServer on the service thread)

    public func opened(_ connection: ConnectionID, on server: WebServer) {
        attach(server)
        guard sessions.count < options.maxConnections else {
            ServerMetrics.shared.refused("max_connections")
            logger.warning("connection refused: server full", metadata: ["conn": "\(connection)", "max": "\(options.maxConnections)"])
            server.close(connection, code: 1013, reason: "server full; try again later")
            return
        }
        sessions[connection] = Session(connection: connection,
                                       bucket: TokenBucket(rate: options.messagesPerSecond, burst: options.messageBurst))
        send(ServerMessage.welcome(limits: [
            ("max_message_bytes", .int(server.options.maxMessageBytes)),
            ("max_points", .int(Rasterizer.maxPoints)), ("max_strokes", .int(Rasterizer.maxStrokes)),
            ("messages_per_second", .int(Int(options.messagesPerSecond))), ("burst", .int(Int(options.messageBurst))),
            ("reconnect_grace_ms", .int(Int(options.reconnectGrace.milliseconds))),
        ]).text, toConnection: connection)
    }

    public func received(_ text: String, from connection: ConnectionID, on server: WebServer) {
        attach(server)
        guard let session = sessions[connection], !session.closing else { return }
        guard session.bucket.take() else {
            session.closing = true
            logger.notice("rate limited", metadata: ["conn": "\(connection)", "player": "\(session.player?.id.rawValue ?? "-")"])
            reply(session, ProtocolError("rate_limited", "Too many messages; at most \(Int(options.messagesPerSecond)) per second. Goodbye."))
            server.close(connection, code: 1008, reason: "rate limit exceeded")
            return
        }
        switch ClientMessage.decode(text) {
        case .failure(let error):
            ServerMetrics.shared.messageIn("invalid")
            reply(session, error)
        case .success(let message):
            ServerMetrics.shared.messageIn(message.type)
            dispatch(message, from: session)
        }
    }

    public func closed(_ connection: ConnectionID, on server: WebServer) {
        guard let session = sessions.removeValue(forKey: connection) else { return }
        timers?.cancel(session.liveTimer)
        guard let player = session.player, online[player.id] == connection else { return }
        online[player.id] = nil
        if let code = memberships[player.id], let room = rooms[code] {
            room.handle(.disconnect(player.id))
        }
    }

    private func attach(_ server: WebServer) {
        guard self.server == nil else { return }
        self.server = server
        timers = ServiceTimers(server: server)
    }

    // MARK: Messages

    private func dispatch(_ message: ClientMessage, from session: Session) {
        if case .identify(let name, let token) = message {
            identify(session, name: name, token: token)
            return
        }
        guard let player = session.player else {
            reply(session, ProtocolError("not_identified", "Send \"identify\" with your name first.", request: message.type))
            return
        }
        switch message {
        case .identify:
            break
        case .createRoom(let mode, let maxPlayers, let maxSpectators):
            createRoom(mode: mode, maxPlayers: maxPlayers, maxSpectators: maxSpectators, for: player, session: session)
        case .joinRoom(let input):
            joinRoom(input, for: player, session: session)
        case .leaveRoom:
            guard let room = room(of: player, session: session, request: "leave_room") else { return }
            room.handle(.leave(player.id), request: "leave_room")
            if memberships[player.id] == nil { reply(session, ServerMessage.leftRoom(code: room.code)) }
        case .ready(let flag):
            room(of: player, session: session, request: "ready")?.handle(.setReady(player.id, flag), request: "ready")
        case .start:
            room(of: player, session: session, request: "start")?.handle(.start(by: player.id), request: "start")
        case .rematch:
            room(of: player, session: session, request: "rematch")?
                .handle(.rematch(by: player.id, seed: UInt64.random(in: .min ... .max, using: &random)), request: "rematch")
        case .points(let question, let stroke, let points):
            addPoints(points, stroke: stroke, question: question, session: session)
        case .clear(let question):
            clear(question: question, session: session)
        case .submit(let question):
            submit(question: question, player: player, session: session)
        }
    }

    private func room(of player: Session.Player, session: Session, request: String) -> RoomOwner? {
        guard let code = memberships[player.id], let room = rooms[code] else {
            reply(session, ProtocolError("not_in_room", "You are not in a room; create or join one first.", request: request))
            return nil
        }
        return room
    }

    private func createRoom(mode: GameMode, maxPlayers: Int?, maxSpectators: Int?, for player: Session.Player, session: Session) {
        if let code = memberships[player.id] {
            reply(session, ProtocolError("already_in_room", "You are already in room \(code); leave it first.", request: "create_room"))
            return
        }
        guard rooms.count < options.maxRooms else {
            reply(session, ProtocolError("server_full", "No more rooms can be opened right now; try again later.", request: "create_room"))
            return
        }
        let code = RoomCode.make(avoiding: { rooms[$0] != nil }, using: &random)
        let race = MindPadRace(kind: MindPadArithmetic(), configuration: options.raceConfiguration(mode: mode, maxPlayers: maxPlayers, maxSpectators: maxSpectators),
                               seed: UInt64.random(in: .min ... .max, using: &random), now: clock.now)
        let room = RoomOwner(code: code, race: race, hub: self)
        rooms[code] = room
        logger.info("room created", metadata: ["room": "\(code)", "mode": "\(mode.rawValue)", "conn": "\(session.connection)"])
        room.handle(.join(player.id, name: player.name), request: "create_room")
    }

    private func joinRoom(_ input: String, for player: Session.Player, session: Session) {
        if let code = memberships[player.id] {
            reply(session, ProtocolError("already_in_room", "You are already in room \(code); leave it first.", request: "join_room"))
            return
        }
        guard let code = RoomCode.normalize(input), let room = rooms[code] else {
            reply(session, ProtocolError("room_not_found", "There is no room with that code.", request: "join_room"))
            return
        }
        room.handle(.join(player.id, name: player.name), request: "join_room")
    }

    // MARK: What rooms call back

    func send(_ message: WireJSON, to player: PlayerID) {
        send(text: message.text, to: player)
    }

    func send(text: String, to player: PlayerID) {
        guard let connection = online[player] else { return }
        send(text, toConnection: connection)
    }

    func send(_ text: String, toConnection connection: ConnectionID) {
        ServerMetrics.shared.messageOut(ServerMetrics.messageType(of: text))
        server?.send(text, to: connection)
    }

    func reply(_ session: Session, _ error: ProtocolError) {
        send(ServerMessage.error(error).text, toConnection: session.connection)
    }

    func reply(_ session: Session, _ message: WireJSON) {
        send(message.text, toConnection: session.connection)
    }

    /// A question went out to `player` (nil: their run ended): their canvas
    /// now belongs to it.
    func questionSent(_ question: QuestionID?, to player: PlayerID) {
        guard let connection = online[player], let session = sessions[connection] else { return }
        if session.drawing.question != question { session.drawing.reset(to: question) }
    }

    func memberJoined(_ player: PlayerID, room code: String) {
        memberships[player] = code
    }

    func memberLeft(_ player: PlayerID, room code: String) {
        if memberships[player] == code { memberships[player] = nil }
        questionSent(nil, to: player)
    }

    func roomDisposed(_ code: String) {
        rooms[code] = nil
        logger.info("room closed", metadata: ["room": "\(code)"])
    }

    /// Hands a finished run to storage and tells the player what became of
    /// it; `durable` runs on the service thread once the run would survive a
    /// crash (`ResultSink.record(_:durable:completion:)`).
    func store(_ result: PlayerResult, room code: String, durable: @escaping () -> Void = {}) {
        guard let databaseID = Int64(result.player.rawValue.dropFirst()) else { return durable() }
        let record = GameResultRecord(
            playerID: databaseID, mode: result.mode.rawValue, score: result.score, correct: result.correct,
            answered: result.answered,
            durationMs: Int(result.mode == .timeAttack ? result.scoreReachedAfter.milliseconds : result.duration.milliseconds),
            roomID: code, raceID: "\(code)-\(result.round)",
            finishedAtMs: Int64(Date().timeIntervalSince1970 * 1000))
        let player = result.player
        let round = result.round
        let mode = result.mode
        let ticket = durability.add(durable)
        results.record(record, durable: { [weak self] in
            guard let self, let server = self.server else { return }
            server.post { for action in self.durability.release(ticket) { action() } }
        }, completion: { [weak self] delivery in
            guard let self, let server = self.server else { return }
            server.post {
                switch delivery {
                case .stored(let outcome):
                    self.send(ServerMessage.resultSaved(round: round, mode: mode, personalBest: outcome.personalBest,
                                                        previousBest: outcome.previousBest, journaled: false), to: player)
                case .journaled:
                    self.send(ServerMessage.resultSaved(round: round, mode: mode, personalBest: nil,
                                                        previousBest: nil, journaled: true), to: player)
                }
            }
        })
    }
}

extension ClientMessage {
    var type: String {
        switch self {
        case .identify: "identify"
        case .createRoom: "create_room"
        case .joinRoom: "join_room"
        case .leaveRoom: "leave_room"
        case .ready: "ready"
        case .start: "start"
        case .rematch: "rematch"
        case .points: "points"
        case .clear: "clear"
        case .submit: "submit"
        }
    }
}
