import MindPadHTTP
import MindPadTransport
import Foundation
import Logging
import MindPadRules
import MindPadStorage

/// What a room needs from the hub to be opened: how often progress goes
/// out, and where it logs.
struct RoomSettings: Sendable {
    let progressInterval: RaceDuration
    let logger: Logger
    /// A lesson's room: its class's name.
    var lesson: String? = nil
}

/// Carrying out what rooms ask (`RoomAction`): sending to players,
/// membership bookkeeping, the rooms' timers, and finished runs on their
/// way to storage. The rooms are machines; this is where their effects
/// meet the world (issue 44, item 3).
extension RealtimeHub {
    /// Feeds `event` to `room` now and carries out what it asks.
    func feed(_ room: any GameRoom, _ event: RoomEvent, request: String?) {
        perform(room.handle(event, at: transport.now, request: request), for: room)
    }

    /// Grades an answer in `room` that counts at `receivedAt`; whether it
    /// was graded right (nil: not graded).
    @discardableResult
    func submit(in room: any GameRoom, _ answer: SubmittedAnswer, by player: PlayerID, to question: QuestionID,
                receivedAt: RaceInstant, request: String = ClientMessage.Kind.submit.rawValue) -> Bool? {
        let (graded, actions) = room.submit(answer, by: player, to: question, receivedAt: receivedAt, at: transport.now,
                                            request: request)
        perform(actions, for: room)
        return graded
    }

    /// Carries out `actions` of `room`, in order.
    func perform(_ actions: [RoomAction], for room: any GameRoom) {
        for action in actions {
            switch action {
            case .send(let message, let player):
                send(message, to: player)
            case .questionSent(let question, let player, let input):
                questionSent(question, to: player, input: input)
            case .store(let run):
                store(run, of: room)
            case .setTimer(let timer, let at):
                let code = room.code
                transport.cancel(roomTimers[code]?[timer])
                roomTimers[code, default: [:]][timer] = transport.schedule(at: at) { [weak self, weak room] in
                    guard let self, let room else { return }
                    self.roomTimers[code]?[timer] = nil
                    self.perform(room.timerFired(timer, at: self.transport.now), for: room)
                }
            case .cancelTimer(let timer):
                transport.cancel(roomTimers[room.code]?.removeValue(forKey: timer))
            case .memberJoined(let player):
                memberJoined(player, room: room.code)
            case .memberLeft(let player):
                memberLeft(player, room: room.code)
            case .lastWordsSaid(let player):
                if let connection = awaitingLastWords[room.code]?.removeValue(forKey: player) {
                    if awaitingLastWords[room.code]?.isEmpty == true { awaitingLastWords[room.code] = nil }
                    leftRoom(connection)
                }
            case .disposed:
                for token in (roomTimers.removeValue(forKey: room.code) ?? [:]).values { transport.cancel(token) }
                roomDisposed(room.code)
            case .toConductor(let message):
                if let connection = lessons[room.code]?.conductor { send(message, toConnection: connection) }
            case .raceBegan(let race):
                lessonRaceBegan(race, in: room)
            }
        }
    }

    func send(_ message: OutgoingMessage, to player: PlayerID) {
        guard let connection = online[player] else { return }
        send(message, toConnection: connection)
    }

    func send(_ message: OutgoingMessage, toConnection connection: ConnectionID) {
        metrics.messageOut(message.type)
        if let code = message.errorCode { metrics.error(code.rawValue, transport: "ws") }
        transport.send(message.payload, to: connection)
    }

    func reply(_ session: Session, _ error: ProtocolError) {
        send(ServerMessage.error(error), toConnection: session.connection)
    }

    func reply(_ session: Session, _ message: OutgoingMessage) {
        send(message, toConnection: session.connection)
    }

    /// A question went out to `player` (nil: their run ended): their canvas
    /// now belongs to it, if it may be answered in handwriting (`input` nil
    /// when it may not), and is read as one digit or as a number as the
    /// game's `input` says. A question sent again (the path finder's wrong
    /// guess, a reconnect) starts a clean canvas too: what was drawn was
    /// read already.
    func questionSent(_ question: QuestionID?, to player: PlayerID, input: AnswerInput?) {
        guard let connection = online[player], let session = sessions[connection] else { return }
        session.drawing.reset(to: input?.acceptsDrawing == true ? question : nil)
        session.pacer.cancel()
        session.drawing.readsNumber = input == .drawnNumber
    }

    func memberJoined(_ player: PlayerID, room code: String) {
        memberships[player] = code
    }

    func memberLeft(_ player: PlayerID, room code: String) {
        if memberships[player] == code { memberships[player] = nil }
        questionSent(nil, to: player, input: nil)
    }

    func roomDisposed(_ code: String) {
        rooms[code] = nil
        lessonRoomDisposed(code)
        if !stopping { cluster?.release(code: code) }
        logger.info("room closed", metadata: ["room": "\(code)"])
    }

    /// Hands a finished run of `room` to storage (`ResultSink`). On the
    /// service thread, the room hears once the run would survive a crash
    /// (`resultDurable`) and once storage answered (`resultSaved`, with the
    /// `result_saved` message). The run's answers keep their drawings,
    /// within `AnswerRecord`'s bounds.
    func store(_ run: FinishedRun, of room: any GameRoom) {
        let result = run.result, game = room.game, player = result.player
        let durable = { [weak self, room] in
            guard let self else { return }
            self.perform(room.resultDurable(player, at: self.transport.now), for: room)
        }
        let saved = { [weak self, room] (message: OutgoingMessage) in
            guard let self else { return }
            self.perform(room.resultSaved(player, round: result.round, message, at: self.transport.now), for: room)
        }
        let finishedAtMs = transport.wallClockMs
        var record = GameResultRecord(
            playerID: run.account, game: game.identifier, lowerScoreWins: game.boardOrder == .lowerFirst,
            mode: result.mode.rawValue, level: result.level, passMark: result.level == nil ? nil : game.passMark,
            score: result.score, correct: result.correct, answered: result.answered,
            durationMs: Int(result.rankedDuration.milliseconds),
            roomID: room.code, raceID: run.race,
            finishedAtMs: finishedAtMs, keypadAnswers: result.keypadAnswers, fishID: run.fish,
            detail: result.detail?.storedMembers.text, replayDetail: result.detail?.replay?.text,
            answers: run.answers, completed: result.completed)
        // A class's lesson keeps its pupils off the public boards unless the teacher allows them.
        record.offBoards = keepsOffBoards(room)
        let round = result.round
        let mode = result.mode
        let identifier = game.identifier
        // Called back on the service thread only: `saved` need not be Sendable.
        let callback = UncheckedBox(saved)
        let ticket = durability.add(durable)
        pendingSaves += 1
        results.record(record, durable: { [weak self] in
            guard let self else { return }
            self.transport.post { for action in self.durability.release(ticket) { action() } }
        }, completion: { [weak self] delivery in
            guard let self else { return }
            self.transport.post {
                defer { self.pendingSaves -= 1 }
                switch delivery {
                case .stored(let outcome):
                    callback.value(ServerMessage.resultSaved(game: identifier, round: round, mode: mode, personalBest: outcome.personalBest,
                                                             previousBest: outcome.previousBest, journaled: false))
                case .journaled:
                    callback.value(ServerMessage.resultSaved(game: identifier, round: round, mode: mode, personalBest: nil,
                                                             previousBest: nil, journaled: true))
                }
            }
        })
    }
}

/// A value that crosses to another thread and back unused there: it is only
/// touched on the service thread, which made it.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
