import MindPadJSON
import MindPadRules

/// One of the options, tapped, or, when the question is drawable (its
/// answer one digit), that digit written on the pad (the kids' exercises).
/// A tap on a drawable question is the option, whatever is drawn.
struct ChoiceOrDigitInput: AnswerInputHandler {
    func notDrawn(game: GameInfo, current: Bool) -> String? {
        current ? "This answer is not one digit: tap an option and send \"submit\" with its \"answer\"." : nil
    }

    func typed(_ answer: JSON) -> Result<SubmittedAnswer, InputRefusal> { .success(.wire(answer, keypad: false)) }

    var nothingSubmitted: String? { "Tap an option (\"answer\"), or write the digit before submitting." }
}
