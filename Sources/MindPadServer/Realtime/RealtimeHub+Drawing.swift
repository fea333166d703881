import MindPadRecognition
import MindPadRules

/// Strokes, live guesses and submissions. Recognition never runs here: the
/// drawing is copied to the worker pool and the result comes back through
/// `WebServer.post`.
extension RealtimeHub {
    func addPoints(_ points: [StrokePoint], stroke: Int, question: QuestionID, session: Session) {
        // A batch for any other question (an old one, late on the wire) is
        // ignored without a reply.
        guard session.drawing.question == question, session.submitting == nil else { return }
        if let error = session.drawing.append(points, stroke: stroke) {
            reply(session, error)
            return
        }
        session.liveWanted = true
        pumpLiveGuess(session)
    }

    func clear(question: QuestionID, session: Session) {
        guard session.drawing.question == question else { return }
        session.drawing.reset(to: question)
        session.liveWanted = false
    }

    /// Starts a live recognition if one is wanted, none is running and the
    /// last started at least one guess interval ago; otherwise it runs when
    /// that interval is over or the running one comes back. So a player gets
    /// at most ~10 guesses a second, and always one after their last batch.
    func pumpLiveGuess(_ session: Session) {
        guard session.liveWanted, !session.liveInFlight, session.liveTimer == nil, !session.closing else { return }
        guard let question = session.drawing.question, session.drawing.pointCount > 0 else {
            session.liveWanted = false
            return
        }
        let now = ContinuousClock.now
        if let last = session.lastLiveAt, now - last < options.liveGuessInterval {
            let connection = session.connection
            session.liveTimer = timers.schedule(after: options.liveGuessInterval - (now - last)) { [weak self] in
                guard let self, let session = self.sessions[connection] else { return }
                session.liveTimer = nil
                self.pumpLiveGuess(session)
            }
            return
        }
        session.liveWanted = false
        session.liveInFlight = true
        session.lastLiveAt = now
        let connection = session.connection
        let pointCount = session.drawing.pointCount
        recognition.recognize(session.drawing.drawing) { [weak self] result in
            guard let self, let server = self.server else { return }
            server.post { self.liveGuessDone(connection, question: question, points: pointCount, result: result) }
        }
    }

    private func liveGuessDone(_ connection: ConnectionID, question: QuestionID, points: Int,
                               result: Result<Recognition, RecognitionError>) {
        guard let session = sessions[connection] else { return }
        session.liveInFlight = false
        if case .success(let recognition) = result, session.drawing.question == question,
           session.drawing.pointCount > 0, session.submitting == nil {
            reply(session, ServerMessage.guess(question: question, recognition: recognition, points: points))
        }
        pumpLiveGuess(session)
    }

    func submit(question: QuestionID, player: Session.Player, session: Session) {
        guard let code = memberships[player.id], let room = rooms[code] else {
            reply(session, ProtocolError("not_in_room", "You are not in a room; create or join one first.", request: "submit"))
            return
        }
        guard session.submitting == nil else {
            reply(session, ProtocolError("submit_pending", "Your previous answer is still being read.", request: "submit"))
            return
        }
        let isRunning: Bool
        if case .running = room.race.phase { isRunning = true } else { isRunning = false }
        guard isRunning, session.drawing.question == question else {
            // Not the question this player is on, or no race running: the
            // rules refuse it with the precise reason (stale_question,
            // unsent_question, race_over, race_not_running, not_racing,
            // already_finished) without grading anything.
            room.handle(.answer(player.id, question: question, Digit(0)!), request: "submit")
            return
        }
        guard session.drawing.pointCount > 0 else {
            reply(session, ProtocolError("empty_drawing", "Draw the digit before submitting.", request: "submit"))
            return
        }
        // The answer counts at the moment it arrived, not when the worker
        // finished reading it.
        let receivedAt = clock.now
        session.submitting = question
        session.liveWanted = false
        let connection = session.connection
        recognition.recognize(session.drawing.drawing) { [weak self] result in
            guard let self, let server = self.server else { return }
            server.post { self.submissionRead(connection, player: player.id, question: question, receivedAt: receivedAt, result: result) }
        }
    }

    private func submissionRead(_ connection: ConnectionID, player: PlayerID, question: QuestionID, receivedAt: RaceInstant,
                                result: Result<Recognition, RecognitionError>) {
        sessions[connection]?.submitting = nil
        switch result {
        case .failure(let error):
            if let session = sessions[connection] {
                reply(session, ProtocolError(Self.snakeCase(error.code.rawValue), error.description, request: "submit"))
            }
        case .success(let recognition):
            guard let code = memberships[player], let room = rooms[code], let digit = Digit(recognition.digit) else { return }
            room.submittedConfidence[player] = recognition.confidence
            room.handle(.answer(player, question: question, digit), at: receivedAt, request: "submit")
            room.submittedConfidence[player] = nil
        }
    }

    static func snakeCase(_ camel: String) -> String {
        var out = ""
        for c in camel {
            if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}
