import MindPadJSON
import MindPadRules

/// One of the options shown, tapped: never drawn.
struct ChoiceInput: AnswerInputHandler {
    func notDrawn(game: GameInfo, current: Bool) -> String? {
        "\(game.names.en) is not answered by drawing; send \"submit\" with an \"answer\"."
    }

    /// Never asked: a choice question has no canvas, so its `submit` is
    /// always the tap.
    func typed(_ answer: JSON) -> Result<SubmittedAnswer, InputRefusal> { .success(.wire(answer, keypad: false)) }
}
