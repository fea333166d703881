import Foundation
import MindPadRules
import MindPadStorage

/// What rooms call back: sending to players, membership bookkeeping, and
/// finished runs on their way to storage.
extension RealtimeHub {
    func send(_ message: OutgoingMessage, to player: PlayerID) {
        guard let connection = online[player] else { return }
        send(message, toConnection: connection)
    }

    func send(_ message: OutgoingMessage, toConnection connection: ConnectionID) {
        metrics.messageOut(message.type)
        if let code = message.errorCode { metrics.error(code.rawValue, transport: "ws") }
        transport.send(message.text, to: connection)
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
    /// game's `input` says.
    func questionSent(_ question: QuestionID?, to player: PlayerID, input: AnswerInput?) {
        guard let connection = online[player], let session = sessions[connection] else { return }
        let drawingFor = input?.acceptsDrawing == true ? question : nil
        if session.drawing.question != drawingFor || session.drawing.isBeingRead {
            session.drawing.reset(to: drawingFor)
            session.pacer.cancel()
        }
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
        logger.info("room closed", metadata: ["room": "\(code)"])
    }

    /// Hands a finished run to storage. On the service thread, `durable`
    /// runs once the run would survive a crash
    /// (`ResultSink.record(_:durable:completion:)`), and `saved` gets the
    /// `result_saved` message once storage answered.
    func store(_ result: PlayerResult, account: Int64, fish: UUID?, game: GameInfo, room code: String,
               durable: @escaping () -> Void, saved: @escaping (OutgoingMessage) -> Void) {
        let record = GameResultRecord(
            playerID: account, game: game.identifier, lowerScoreWins: game.boardOrder == .lowerFirst,
            mode: result.mode.rawValue, level: result.level, score: result.score, correct: result.correct, answered: result.answered,
            durationMs: Int(result.mode == .timeAttack ? result.scoreReachedAfter.milliseconds : result.duration.milliseconds),
            roomID: code, raceID: "\(code)-\(result.round)",
            finishedAtMs: Int64(Date().timeIntervalSince1970 * 1000), keypadAnswers: result.keypadAnswers, fishID: fish)
        let round = result.round
        let mode = result.mode
        let identifier = game.identifier
        // Called back on the service thread only: `saved` need not be Sendable.
        let callback = UncheckedBox(saved)
        let ticket = durability.add(durable)
        results.record(record, durable: { [weak self] in
            guard let self else { return }
            self.transport.post { for action in self.durability.release(ticket) { action() } }
        }, completion: { [weak self] delivery in
            guard let self else { return }
            self.transport.post {
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
