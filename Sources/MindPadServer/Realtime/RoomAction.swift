import Foundation
import MindPadRules
import MindPadStorage

/// What a room asks the hub to carry out (issue 44, item 3). A room is a
/// machine: it takes an event and the time and returns these, in order; it
/// holds no hub, reads no clock and owns no timer (`RealtimeHub.perform`).
enum RoomAction {
    /// A message to one member (a message held until a result is durable
    /// is not one of these until it is let go).
    case send(OutgoingMessage, to: PlayerID)
    /// A question went out to a player (nil: their run ended): their pad
    /// now belongs to it when it may be answered by drawing (`input`).
    case questionSent(QuestionID?, to: PlayerID, input: AnswerInput?)
    /// A finished run for storage: the hub tells the room when it is
    /// durable (`resultDurable`) and what storage answered (`resultSaved`).
    case store(FinishedRun)
    /// The room's timer fires at `at` (`timerFired`), replacing one set before.
    case setTimer(RoomTimer, at: RaceInstant)
    case cancelTimer(RoomTimer)
    case memberJoined(PlayerID)
    case memberLeft(PlayerID)
    /// Everything the room will say to a player who asked
    /// (`awaitLastWords`) has been said: `left_room` may follow.
    case lastWordsSaid(PlayerID)
    /// The room is gone; its timers with it.
    case disposed
    /// A lesson's room: a message to the teacher conducting it.
    case toConductor(OutgoingMessage)
    /// A round's race began under this id (a lesson keeps it for the class's reports).
    case raceBegan(String)
}

/// A room's timers: the race's one (countdown, clock, grace) and the
/// progress coalescing one.
enum RoomTimer: Hashable {
    case tick
    case progress
}

/// A racer's finished run, to be stored with its graded answers.
struct FinishedRun {
    let result: PlayerResult
    let account: Int64
    let fish: UUID?
    /// The round's race id.
    let race: String
    let answers: [AnswerRecord]
}
