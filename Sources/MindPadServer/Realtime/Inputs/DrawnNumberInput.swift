import MindPadJSON
import MindPadRules

/// A whole number written on the pad (Add-One), or typed on the keypad:
/// 1 to `DigitString.maxCount` digits in a string, graded as typed and
/// counted (`keypad_answers`).
struct DrawnNumberInput: AnswerInputHandler {
    func notDrawn(game: GameInfo, current: Bool) -> String? { nil }

    func typed(_ answer: JSON) -> Result<SubmittedAnswer, InputRefusal> {
        guard let typed = answer.string, DigitString.isValid(typed) else {
            return .failure(InputRefusal(message: "A keypad \"answer\" is 1 to \(DigitString.maxCount) digits 0-9 in a string, such as \"3240\"."))
        }
        return .success(.wire(answer, keypad: true))
    }
}
