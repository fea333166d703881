import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadRules

/// Something that happens to a room other than an answer: the events of
/// `RaceEvent` that are the same for every game kind.
enum RoomEvent {
    /// `fish`: the pet fish the player brings (games that play with fish).
    case join(Session.Player, fish: UUID?)
    case leave(PlayerID)
    case disconnect(PlayerID)
    case reconnect(PlayerID)
    case setReady(PlayerID, Bool)
    case start(by: PlayerID)
    case rematch(by: PlayerID, seed: UInt64)
    /// A lesson's room: what the teacher conducting it asks.
    case conduct(Conduct)
}

/// An answer as the hub received it, before the room's kind reads it.
enum SubmittedAnswer {
    /// Handwriting, as the recognizer read it (or as the player picked it
    /// among the readings offered: `choice`), and the strokes it was read
    /// from (kept with the answer for review and replay).
    case handwriting(HandwrittenAnswer, confidence: Double, strokes: [[StrokePoint]], choice: TappedChoice? = nil)
    /// A tap or a move, or an answer typed on the keypad of a game answered
    /// in handwriting (`keypad`, counted in the result): the kind's
    /// `Answer` as the client sent it.
    case wire(JSON, keypad: Bool)
}

/// One room as the hub sees it, whatever game it plays: `RoomOwner<Kind>`
/// is the one implementation; the hub never sees a kind's types. A room is
/// a machine: each call takes the time and returns what the hub is to carry
/// out (`RoomAction`, `RealtimeHub.perform`). Service thread only.
protocol GameRoom: AnyObject {
    var code: String { get }
    var game: GameInfo { get }
    var snapshot: RoomSnapshot { get }
    /// Counting down or running (for the races-running gauge).
    var isRacing: Bool { get }
    /// Feeds an event at `now`. `request` is the client message type that
    /// caused it, echoed in refusals.
    func handle(_ event: RoomEvent, at now: RaceInstant, request: String?) -> [RoomAction]
    /// A timer the room set (`RoomAction.setTimer`) fired.
    func timerFired(_ timer: RoomTimer, at now: RaceInstant) -> [RoomAction]
    /// Whether an answer by `player` to `question` would be refused at `now`.
    func refusal(ofAnswerBy player: PlayerID, to question: QuestionID, at now: RaceInstant) -> RaceError?
    /// Grades an answer that counts at `receivedAt` (`now` is the time of
    /// the call); `request` (`submit`, `choose`) is echoed in refusals.
    /// `graded`: whether it was graded right (nil: not graded).
    func submit(_ answer: SubmittedAnswer, by player: PlayerID, to question: QuestionID, receivedAt: RaceInstant,
                at now: RaceInstant, request: String) -> (graded: Bool?, actions: [RoomAction])
    /// Whether the game takes these digits, read from a drawing, as an
    /// answer at all (its `answer(handwritten:)`; no question's answer is asked).
    func accepts(handwritten digits: [Int]) -> Bool
    /// A stored run of `player` (`RoomAction.store`) is durable.
    func resultDurable(_ player: PlayerID, at now: RaceInstant) -> [RoomAction]
    /// Storage answered for `player`'s run of `round`: `saved` is its `result_saved`.
    func resultSaved(_ player: PlayerID, round: Int, _ saved: OutgoingMessage, at now: RaceInstant) -> [RoomAction]
    /// Asks for `RoomAction.lastWordsSaid(player)` once the room has said all
    /// it will to `player` about their runs (their `finished` and
    /// `result_saved`): `left_room` comes after them.
    func awaitLastWords(of player: PlayerID) -> [RoomAction]
    /// A lesson's room: the whole picture (`room`) for its teacher.
    func conductorPicture(at now: RaceInstant) -> [RoomAction]
}
