import MindPadHTTP
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
        if !stopping { cluster?.release(code: code) }
        logger.info("room closed", metadata: ["room": "\(code)"])
    }

    /// Hands a finished run to storage. On the service thread, `durable`
    /// runs once the run would survive a crash
    /// (`ResultSink.record(_:durable:completion:)`), and `saved` gets the
    /// `result_saved` message once storage answered.
    /// `race`: the round's id; `answers`: the run's graded answers with
    /// their drawings, kept with the result (within `AnswerRecord`'s bounds).
    func store(_ result: PlayerResult, account: Int64, fish: UUID?, game: GameInfo, room code: String,
               race: String, answers: [AnswerRecord],
               durable: @escaping () -> Void, saved: @escaping (OutgoingMessage) -> Void) {
        let finishedAtMs = transport.wallClockMs
        let record = GameResultRecord(
            playerID: account, game: game.identifier, lowerScoreWins: game.boardOrder == .lowerFirst,
            mode: result.mode.rawValue, level: result.level, passMark: result.level == nil ? nil : game.passMark,
            score: result.score, correct: result.correct, answered: result.answered,
            durationMs: Int(result.rankedDuration.milliseconds),
            roomID: code, raceID: race,
            finishedAtMs: finishedAtMs, keypadAnswers: result.keypadAnswers, fishID: fish,
            detail: result.detail?.storedMembers.text, replayDetail: result.detail?.replay?.text,
            answers: answers, completed: result.completed)
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
