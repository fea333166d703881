/// Something that happened to a room, delivered by its owner together with
/// the server time it happened at.
public enum RaceEvent<Kind: GameKind>: Sendable {
    /// A new member. In the lobby or countdown they take a free seat (or
    /// wait as a spectator if the seats are full); once the race runs or
    /// has finished they spectate and race from the next rematch.
    case join(PlayerID, name: PlayerName)
    /// The member leaves for good. A racer's result so far still counts.
    case leave(PlayerID)
    /// The member's connection dropped; they keep their place for the
    /// reconnection grace period.
    case disconnect(PlayerID)
    /// The member is back (within the grace period); racers are re-sent
    /// their current question.
    case reconnect(PlayerID)
    /// Lobby only: the member is (not) ready.
    case setReady(PlayerID, Bool)
    /// Lobby only, host only: start the countdown.
    case start(by: PlayerID)
    /// A racer's answer to the question they were sent as `question`.
    /// `confidence` is how sure the reading of a handwritten answer was
    /// (0…1); it is only passed on to the outcome. `keypad`: the answer was
    /// typed on the on-screen keypad rather than written (counted in the
    /// result's `keypadAnswers`).
    case answer(PlayerID, question: QuestionID, Kind.Answer, confidence: Double? = nil, keypad: Bool = false)
    /// Finished races only, host only: back to the lobby for another round
    /// in the same room with a new seed (the owner draws it).
    case rematch(by: PlayerID, seed: UInt64)
    /// The owner's timer fired (see `RaceEffect.scheduleTick`). Every other
    /// event also processes deadlines that are due, so a late tick is harmless.
    case tick
    /// A lesson's room only (`RaceConfiguration.conducted`): what the
    /// teacher conducting it asks. Refusals go to the teacher
    /// (`RaceEffect.conductorRefused`).
    case conduct(Conduct)
}

/// What the teacher conducting a lesson's room asks of it.
public enum Conduct: Sendable, Hashable {
    /// Lobby only: the countdown starts, whoever is ready.
    case start
    /// While the race runs: every racer's clock stops and answers are
    /// refused (`RaceError.paused`) until `resume`.
    case pause
    case resume
    /// While the race runs: it ends now; runs still going end as not
    /// completed, their results so far kept.
    case stop
    /// Once the race has finished: back to the lobby for the next round,
    /// with a new seed (the owner draws it).
    case nextRound(seed: UInt64)
    /// The lesson is over: every member leaves (a run still going ends as
    /// not completed) and the room closes.
    case close
}
