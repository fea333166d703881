import MindPadJSON
import MindPadRules

/// One digit written on the pad (MindPad), or typed (keyboard-only play,
/// issue 19: one digit 0-9, as a number or a one-character string; counted
/// as typed).
struct DrawnDigitInput: AnswerInputHandler {
    func notDrawn(game: GameInfo, current: Bool) -> String? { nil }

    func typed(_ answer: JSON) -> Result<SubmittedAnswer, InputRefusal> {
        guard let digit = Self.digit(answer) else {
            return .failure(InputRefusal(message: "A typed \"answer\" is one digit 0-9, such as 7 or \"7\"."))
        }
        return .success(.wire(.int(digit), keypad: true))
    }

    /// A typed hidden digit: 7 or "7"; nil for anything else.
    static func digit(_ answer: JSON) -> Int? {
        if let n = answer.integer, (0...9).contains(n) { return n }
        if let s = answer.string, s.count == 1, let n = Int(s), (0...9).contains(n) { return n }
        return nil
    }
}
