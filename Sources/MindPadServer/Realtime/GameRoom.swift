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
    case tick
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
/// is the one implementation; the hub never sees a kind's types.
/// Service thread only.
protocol GameRoom: AnyObject {
    var code: String { get }
    var game: GameInfo { get }
    var snapshot: RoomSnapshot { get }
    /// Counting down or running (for the races-running gauge).
    var isRacing: Bool { get }
    /// Feeds an event with the server time. `request` is the client message
    /// type that caused it, echoed in refusals.
    func handle(_ event: RoomEvent, request: String?)
    /// Whether an answer by `player` to `question` would be refused now.
    func refusal(ofAnswerBy player: PlayerID, to question: QuestionID) -> RaceError?
    /// Grades an answer that counts at `receivedAt`; `request` (`submit`,
    /// `choose`) is echoed in refusals. Returns whether it was graded right
    /// (nil: not graded).
    @discardableResult
    func submit(_ answer: SubmittedAnswer, by player: PlayerID, to question: QuestionID, receivedAt: RaceInstant, request: String) -> Bool?
    /// Whether the game takes these digits, read from a drawing, as an
    /// answer at all (its `answer(handwritten:)`; no question's answer is asked).
    func accepts(handwritten digits: [Int]) -> Bool
    /// Runs `then` once the room has said all it will to `player` about
    /// their runs (their `finished` and `result_saved`): `left_room` comes
    /// after them.
    func afterLastWords(to player: PlayerID, _ then: @escaping () -> Void)
}

extension GameRoom {
    /// Grades an answer sent with `submit`; whether it was graded right (nil: not graded).
    @discardableResult
    func submit(_ answer: SubmittedAnswer, by player: PlayerID, to question: QuestionID, receivedAt: RaceInstant) -> Bool? {
        submit(answer, by: player, to: question, receivedAt: receivedAt, request: ClientMessage.Kind.submit.rawValue)
    }
}
