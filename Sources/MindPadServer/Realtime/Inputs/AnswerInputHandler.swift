import MindPadJSON
import MindPadRules

/// How the hub takes answers of one kind of input (`AnswerInput`): one
/// handler per input, as the browser has one module per input
/// (`web/js/inputs/`), so the hub's `submit` and `points` hold no policy of
/// their own. The drawing itself is read the same way for every input that
/// has a canvas; a handler says what else an input takes and what it tells
/// a client that does the wrong thing.
protocol AnswerInputHandler: Sendable {
    /// Said (`answer_not_drawn`) to strokes for a question whose canvas is
    /// not open; nil: nothing is said (a late batch for an old question).
    /// `current`: whether the question is the racer's current one.
    func notDrawn(game: GameInfo, current: Bool) -> String?
    /// A `submit` carrying an `answer` for a question that takes a drawing:
    /// the answer as it counts (typed on the keypad or tapped), or the
    /// `bad_answer` message.
    func typed(_ answer: JSON) -> Result<SubmittedAnswer, InputRefusal>
    /// Said (`answer_missing`) to a `submit` with neither an answer nor a
    /// drawing; nil: `empty_drawing`, as for any empty pad.
    var nothingSubmitted: String? { get }
}

/// A typed or tapped answer the input refuses (`bad_answer`).
struct InputRefusal: Error {
    let message: String
}

extension AnswerInputHandler {
    var nothingSubmitted: String? { nil }
}

extension AnswerInput {
    /// The hub's handler of this input.
    var handler: any AnswerInputHandler {
        switch self {
        case .drawnDigit: DrawnDigitInput()
        case .drawnNumber: DrawnNumberInput()
        case .choice: ChoiceInput()
        case .choiceOrDigit: ChoiceOrDigitInput()
        case .move: MoveInput()
        }
    }
}
