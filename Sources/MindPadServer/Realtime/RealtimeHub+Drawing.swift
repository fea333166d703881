import MindPadHTTP
import MindPadJSON
import MindPadRecognition
import MindPadRules

/// Strokes, live guesses and submissions. Recognition never runs here: the
/// drawing is copied to the recognizer and the result comes back through
/// `transport.post`.
extension RealtimeHub {
    func addPoints(_ points: [StrokePoint], stroke: Int, question: QuestionID, player: Session.Player, session: Session) {
        guard session.drawing.question == question else {
            // A game answered by tap or move has no canvas: say so. Any other
            // mismatch is a batch for another question (an old one, late on
            // the wire), ignored without a reply.
            guard let code = memberships[player.id], let room = rooms[code] else { return }
            let current = room.refusal(ofAnswerBy: player.id, to: question, at: transport.now) == nil
            if let message = room.game.answerInput.handler.notDrawn(game: room.game, current: current) {
                reply(session, ProtocolError(.answerNotDrawn, message, request: "points"))
            }
            return
        }
        guard !session.drawing.isBeingRead else { return }
        if let error = session.drawing.append(points, stroke: stroke) {
            return reply(session, error)
        }
        tellConductor(of: player.id) { ServerMessage.padPoints(player: player.id, question: question, stroke: stroke, points: points) }
        carryOut(session.pacer.strokesAdded(at: transport.now), for: session)
    }

    func clear(question: QuestionID, session: Session) {
        guard session.drawing.question == question, !session.drawing.isBeingRead else { return }
        session.drawing.reset(to: question)
        session.pacer.cancel()
        if let player = session.player {
            tellConductor(of: player.id) { ServerMessage.padCleared(player: player.id, question: question, undoneStroke: nil) }
        }
    }

    /// Takes back the last stroke; what is left is read again (a live guess
    /// through the pacer, as after a batch), or, with nothing left, there is
    /// nothing to read. An undo of any other stroke is ignored, like a batch
    /// for another question.
    func undo(stroke: Int, question: QuestionID, session: Session) {
        guard session.drawing.question == question, !session.drawing.isBeingRead,
              session.drawing.removeLast(stroke: stroke) else { return }
        if let player = session.player {
            tellConductor(of: player.id) { ServerMessage.padCleared(player: player.id, question: question, undoneStroke: stroke) }
        }
        if session.drawing.pointCount == 0 {
            session.pacer.cancel()
        } else {
            carryOut(session.pacer.strokesAdded(at: transport.now), for: session)
        }
    }

    /// Does what the pacer asked: read the drawing now, or wake it later.
    private func carryOut(_ action: LiveGuessPacer.Action, for session: Session) {
        switch action {
        case .none:
            break
        case .wake(let at):
            let connection = session.connection
            session.pacerTimer = transport.schedule(at: at) { [weak self] in
                guard let self, let session = self.sessions[connection] else { return }
                session.pacerTimer = nil
                self.carryOut(session.pacer.timerFired(at: self.transport.now), for: session)
            }
        case .read:
            guard let question = session.drawing.question, session.drawing.pointCount > 0, !session.isClosing else {
                return carryOut(session.pacer.readingFinished(at: transport.now), for: session)
            }
            let connection = session.connection
            let pointCount = session.drawing.pointCount
            let revision = session.drawing.revision
            let lineage = session.drawing.lineage
            read(session.drawing, hand: session.hand) { [weak self] result in
                guard let self else { return }
                self.transport.post {
                    self.liveGuessDone(connection, question: question, points: pointCount, revision: revision,
                                       lineage: lineage, result: result)
                }
            }
        }
    }

    /// Reads a drawing off the service thread, as one digit or as a number
    /// (`drawn_number`), with the player's hand; `completion` runs on a
    /// recognition thread.
    private func read(_ buffer: DrawingBuffer, hand: PlayerHand?,
                      completion: @escaping @Sendable (Result<DrawingReading, RecognitionError>) -> Void) {
        if buffer.readsNumber {
            recognition.readNumber(buffer.drawing, hand: hand) { completion($0.map(DrawingReading.number)) }
        } else {
            recognition.recognize(buffer.drawing, hand: hand) { completion($0.map(DrawingReading.digit)) }
        }
    }

    private func liveGuessDone(_ connection: ConnectionID, question: QuestionID, points: Int, revision: Int, lineage: Int,
                               result: Result<DrawingReading, RecognitionError>) {
        guard let session = sessions[connection] else { return }
        if case .success(let reading) = result, !session.drawing.isBeingRead {
            session.drawing.remember(reading, of: revision)
        }
        // A reading of ink since taken away (undone, cleared) is no guess; the
        // pacer reads what is left next.
        if case .success(let reading) = result, session.drawing.question == question, session.drawing.lineage == lineage,
           session.drawing.pointCount > 0, !session.drawing.isBeingRead, let guess = reading.guess(question: question, points: points) {
            reply(session, guess)
            if let player = session.player {
                tellConductor(of: player.id) {
                    ServerMessage.padGuess(player: player.id, question: question, read: reading.shown, confidence: reading.confidence)
                }
            }
        }
        carryOut(session.pacer.readingFinished(at: transport.now), for: session)
    }

    func submit(question: QuestionID, answer: JSON?, player: Session.Player, session: Session) {
        let request = ClientMessage.Kind.submit.rawValue
        guard let room = room(of: player, session: session, request: request) else { return }
        // The rules say first whether this answer would count at all
        // (stale_question, unsent_question, race_over, race_not_running,
        // not_racing, already_finished), before anything is read.
        if let refusal = room.refusal(ofAnswerBy: player.id, to: question, at: transport.now) {
            return reply(session, ProtocolError(refusal, request: request))
        }
        // The answer counts at the moment it arrived, not when it was read.
        let receivedAt = transport.now
        let input = room.game.answerInput
        // A choice_or_digit question takes a drawing only when drawable, and
        // a move game's only while its grid is guessed (the canvas then
        // belongs to the question); otherwise, like a tap game, an answer.
        let drawable = input.isHandwriting || session.drawing.question == question
        guard drawable else {
            guard let answer else {
                return reply(session, ProtocolError(.answerMissing, "Send your answer as \"answer\" with \"submit\".", request: request))
            }
            submit(in: room, .wire(answer, keypad: false), by: player.id, to: question, receivedAt: receivedAt)
            return
        }
        guard !session.drawing.isBeingRead else {
            return reply(session, ProtocolError(.submitPending, "Your previous answer is still being read.", request: request))
        }
        // An answer typed or tapped where it could be written: the input
        // says how it counts (its handler: Inputs/).
        let handler = input.handler
        if let answer {
            switch handler.typed(answer) {
            case .success(let submitted): submit(in: room, submitted, by: player.id, to: question, receivedAt: receivedAt)
            case .failure(let refusal): reply(session, ProtocolError(.badAnswer, refusal.message, request: request))
            }
            return
        }
        if let nothing = handler.nothingSubmitted, session.drawing.pointCount == 0 {
            return reply(session, ProtocolError(.answerMissing, nothing, request: request))
        }
        guard session.drawing.question == question, session.drawing.pointCount > 0 else {
            return reply(session, ProtocolError(.emptyDrawing, "Write your answer before submitting.", request: request))
        }
        // The same drawing submitted again while its choice is open: the
        // same choice (the drawing is unchanged, or the offer would be gone).
        if let offer = session.drawing.offer, offer.question == question {
            return reply(session, offer.message)
        }
        session.drawing.isBeingRead = true
        session.pacer.cancel()
        let connection = session.connection
        // The drawing as submitted, kept with the answer (it is frozen while
        // read, and the next question starts a new one).
        let strokes = session.drawing.strokes
        if let reading = session.drawing.currentReading {
            // A live guess read exactly this drawing: grade from its reading.
            metrics.readingsReused.increment()
            return submissionRead(connection, player: player.id, question: question, receivedAt: receivedAt,
                                  strokes: strokes, result: .success(reading))
        }
        read(session.drawing, hand: session.hand) { [weak self] result in
            guard let self else { return }
            self.transport.post {
                self.submissionRead(connection, player: player.id, question: question, receivedAt: receivedAt,
                                    strokes: strokes, result: result)
            }
        }
    }

    private func submissionRead(_ connection: ConnectionID, player: PlayerID, question: QuestionID, receivedAt: RaceInstant,
                                strokes: [[StrokePoint]], result: Result<DrawingReading, RecognitionError>) {
        let session = sessions[connection]
        if let session, session.drawing.question == question { session.drawing.isBeingRead = false }
        switch result {
        case .failure(let error):
            if let session { reply(session, ProtocolError(ProtocolErrorCode(error), error.description, request: "submit")) }
        case .success(let reading) where reading.unsure:
            // Not graded: the player writes it again (the question stays theirs).
            if let session {
                reply(session, ProtocolError(.unsureDrawing, "That does not look like a digit: write it again.", request: "submit"))
            }
        case .success(let reading) where reading.hasChoices:
            // Unsure, but a few digits are plausible: the player picks
            // (`choose`), and the answer counts when the tap arrives.
            guard let session, session.drawing.question == question,
                  let code = memberships[player], let room = rooms[code] else { return }
            // The rules first, as for the submit: no choice for an answer
            // that could not count any more (the race ended meanwhile).
            if let refusal = room.refusal(ofAnswerBy: player, to: question, at: transport.now) {
                return reply(session, ProtocolError(refusal, request: "submit"))
            }
            switch ChoiceOffer.make(question: question, reading: reading, strokes: strokes,
                                    accepts: { room.accepts(handwritten: $0) }) {
            case .offer(let offer):
                session.drawing.offer = offer
                metrics.choicesOffered.increment()
                reply(session, offer.message)
            case .grade(let digits):
                submit(in: room, .handwriting(HandwrittenAnswer(digits: digits), confidence: reading.confidence, strokes: strokes),
                            by: player, to: question, receivedAt: receivedAt)
            }
        case .success(let reading):
            guard let code = memberships[player], let room = rooms[code] else { return }
            let correct = submit(in: room, .handwriting(reading.handwritten, confidence: reading.confidence, strokes: strokes),
                                      by: player, to: question, receivedAt: receivedAt)
            if let session, case .digit(let r) = reading {
                learnFrom(r, strokes: strokes, tapped: nil, correct: correct, session: session)
            }
        }
    }

    /// The player's pick among the readings `choice` offered: graded as
    /// their answer, at the moment it arrived, with the drawing and what
    /// was offered. The race rules are asked first (as for `submit`); a
    /// pick that is not one of the readings offered is refused and the
    /// offer stays; with no offer open (withdrawn by a change of the
    /// drawing, or never made) there is nothing to pick.
    func choose(question: QuestionID, answer: JSON, player: Session.Player, session: Session) {
        let request = ClientMessage.Kind.choose.rawValue
        guard let room = room(of: player, session: session, request: request) else { return }
        if let refusal = room.refusal(ofAnswerBy: player.id, to: question, at: transport.now) {
            return reply(session, ProtocolError(refusal, request: request))
        }
        guard session.drawing.question == question, let offer = session.drawing.offer, offer.question == question else {
            return reply(session, ProtocolError(.noChoice, "There is no choice open for this question: submit your drawing again.",
                                                request: request))
        }
        guard let digits = offer.pick(answer) else {
            return reply(session, ProtocolError(.badChoice, offer.refusal, request: request))
        }
        let receivedAt = transport.now
        session.drawing.offer = nil
        metrics.choicesTaken.increment()
        let correct = submit(in: room, .handwriting(HandwrittenAnswer(digits: digits), confidence: offer.reading.confidence,
                                               strokes: offer.strokes, choice: offer.tapped(digits)),
                                  by: player.id, to: question, receivedAt: receivedAt, request: request)
        // The digit the player tapped is the digit they meant: the hand
        // learns it whether or not it was the right answer.
        if case .digit(let r) = offer.reading, correct != nil {
            learnFrom(r, strokes: offer.strokes, tapped: digits, correct: correct, session: session)
        }
    }
}

/// A drawing as read: one digit (`drawn_digit`) or a number (`drawn_number`).
enum DrawingReading: Sendable {
    case digit(Recognition)
    case number(NumberReading)

    /// The digits read, left to right, for the game's `answer(handwritten:)`.
    var handwritten: HandwrittenAnswer {
        switch self {
        case .digit(let r): HandwrittenAnswer(digits: [r.digit])
        case .number(let n): HandwrittenAnswer(digits: n.digits.map(\.digit))
        }
    }

    /// The recognizer could not tell a digit (of a number: any of its
    /// digits): not graded (`unsure_drawing`). A reading with choices is
    /// not unsure: it is offered (`hasChoices`).
    var unsure: Bool {
        switch self {
        case .digit(let r): r.unsure
        case .number(let n): n.digits.contains(where: \.unsure)
        }
    }

    /// How sure the reading is (a number: its least sure digit).
    var confidence: Double {
        switch self {
        case .digit(let r): Double(r.confidence)
        case .number(let n): Double(n.confidence)
        }
    }

    /// The live `guess`; nil when a number reading found no digit at all.
    func guess(question: QuestionID, points: Int) -> OutgoingMessage? {
        switch self {
        case .digit(let r): ServerMessage.guess(question: question, recognition: r, points: points)
        case .number(let n):
            n.digits.isEmpty ? nil : ServerMessage.guess(question: question, number: n, points: points)
        }
    }
}
