import MindPadJSON
import MindPadRules

/// A move on a board (the grid path finder); while the grid is guessed the
/// guess is written on the pad, or typed on the keypad (counted as typed).
struct MoveInput: AnswerInputHandler {
    func notDrawn(game: GameInfo, current: Bool) -> String? {
        current ? "Only the guess of the grid is written on the pad; move with \"submit\" and an \"answer\"." : nil
    }

    func typed(_ answer: JSON) -> Result<SubmittedAnswer, InputRefusal> { .success(.wire(answer, keypad: true)) }
}
