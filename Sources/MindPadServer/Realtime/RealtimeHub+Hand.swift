import MindPadHTTP
import MindPadRecognition
import MindPadRules
import MindPadStorage

/// The reader learns each player's hand (issue 43; `PlayerHand`). The hand
/// comes with `identify` (stored in `player_hands`), is applied to every
/// drawing the player writes, learns on a recognition worker from answers
/// whose digit is known without trusting the reader (a tapped choice, or a
/// sure reading graded right: never the question's expected answer used to
/// read), and is stored at most once per `handSaveDelay` and when the
/// player leaves. `reading` switches the learning off (forgetting the hand)
/// or on, or forgets what was learned.
extension RealtimeHub {
    /// The hand a player identified with: their stored one, a new one when
    /// none is stored (or it is of another network), nil when they switched
    /// the learning off or the weights have no hand model.
    func hand(from stored: StoredHand) -> PlayerHand? {
        guard stored.learns, let fresh = recognition.makeHand() else { return nil }
        guard let bytes = stored.bytes, let hand = try? PlayerHand(bytes: bytes, width: fresh.width) else { return fresh }
        return hand
    }

    /// After a drawn answer of one digit was graded (`correct`; nil: not
    /// graded): teaches the player's hand the digit they tapped, or the
    /// digit read when the reading was sure (`HandModel.learnAbove`, no
    /// choice) and graded right.
    func learnFrom(_ reading: Recognition, strokes: [[StrokePoint]], tapped: [Int]?, correct: Bool?, session: Session) {
        guard session.hand != nil, let model = recognition.handModel, !strokes.isEmpty else { return }
        let digit: Int
        if let tapped {
            guard tapped.count == 1 else { return }
            digit = tapped[0]
        } else if correct == true, reading.choices.isEmpty, reading.confidence >= model.learnAbove {
            digit = reading.digit
        } else {
            return
        }
        session.toLearn.append((Drawing(strokes: strokes), digit))
        learnNext(session)
    }

    private func learnNext(_ session: Session) {
        guard !session.isLearning, let hand = session.hand, !session.toLearn.isEmpty else { return }
        let next = session.toLearn.removeFirst()
        session.isLearning = true
        let connection = session.connection
        recognition.learn(next.drawing, as: next.digit, into: hand) { [weak self] taught in
            guard let self else { return }
            self.transport.post { self.learned(connection, taught) }
        }
    }

    private func learned(_ connection: ConnectionID, _ taught: PlayerHand) {
        guard let session = sessions[connection] else { return }
        session.isLearning = false
        // Switched off (or forgotten) while it learned: that drawing goes too.
        guard let hand = session.hand, hand.width == taught.width, taught.learned >= hand.learned else {
            return learnNext(session)
        }
        session.hand = taught
        session.handUnsaved = true
        metrics.handsLearned.increment()
        if session.handSaveTimer == nil {
            session.handSaveTimer = transport.schedule(at: transport.now + options.handSaveDelay) { [weak self] in
                guard let self, let session = self.sessions[connection] else { return }
                session.handSaveTimer = nil
                self.saveHand(of: session)
            }
        }
        learnNext(session)
    }

    /// Stores the player's hand when it learned since it was last stored.
    func saveHand(of session: Session, player: Session.Player? = nil) {
        guard session.handUnsaved, let hand = session.hand, let player = player ?? session.player else { return }
        session.handUnsaved = false
        transport.cancel(session.handSaveTimer)
        session.handSaveTimer = nil
        let metrics = metrics
        players.keepHand(playerID: player.accountID, bytes: hand.bytes, learned: hand.learned) { saved in
            if saved { metrics.handsSaved.increment() }
        }
    }

    /// A newer session of the same player here takes over the older one's
    /// hand as it is in memory (it may have learned since it was stored).
    func handOver(from old: Session, to new: Session) {
        guard old.hand != nil, new.hand != nil else { return }
        new.hand = old.hand
        new.handUnsaved = old.handUnsaved
        old.handUnsaved = false
        transport.cancel(old.handSaveTimer)
        old.handSaveTimer = nil
    }

    /// `reading`: `learn` false switches the learning off and forgets the
    /// hand, true switches it on (a new hand); `forget` forgets what was
    /// learned and goes on learning. Answered with `reading` once stored.
    func setReading(learn: Bool?, forget: Bool, player: Session.Player, session: Session) {
        let request = ClientMessage.Kind.reading.rawValue
        let learns = learn ?? (session.hand != nil)
        guard recognition.makeHand() != nil else {
            return reply(session, ProtocolError(.unavailable, "This server's reader does not learn hands.", request: request))
        }
        session.hand = learns ? (forget || session.hand == nil ? recognition.makeHand() : session.hand) : nil
        session.handUnsaved = false
        session.toLearn = []
        transport.cancel(session.handSaveTimer)
        session.handSaveTimer = nil
        let connection = session.connection
        players.setHandLearning(playerID: player.accountID, learns: learns, forget: forget || !learns) { [weak self] stored in
            guard let self else { return }
            self.transport.post {
                guard let session = self.sessions[connection] else { return }
                guard stored else {
                    return self.reply(session, ProtocolError(.unavailable, "Your reading settings could not be stored; try again in a moment.",
                                                             request: request))
                }
                self.reply(session, ServerMessage.reading(learns: session.hand != nil, learned: session.hand?.learned ?? 0))
            }
        }
    }
}
