import MindPadJSON
import MindPadRecognition
import MindPadRules

/// A submitted drawing read unsurely but with a few plausible digits
/// (`Recognition.choices`, `DigitReading.choices`), offered to the player
/// as a choice (`choice`) instead of being refused: they tap the reading
/// they meant (`choose`), and that is their answer, graded as usual and
/// kept with the drawing (issue 43). Kept in the player's `DrawingBuffer`
/// until it is answered or the drawing changes.
struct ChoiceOffer: Sendable {
    let question: QuestionID
    /// The reading offered, as the recognizer made it.
    let reading: DrawingReading
    /// The drawing as submitted (kept with the answer).
    let strokes: [[StrokePoint]]
    /// Each place's digits, left to right: one for a digit read surely, the
    /// options (likeliest first) where the player picks.
    let places: [[Int]]

    /// A number (`drawn_number`): `choice` shows it whole and `choose`
    /// answers with the whole number; a digit is answered with the digit.
    var isNumber: Bool {
        if case .number = reading { return true }
        return false
    }

    /// What to do with a reading that has choices: offer them, or grade
    /// these digits at once because at most one option of each place is an
    /// answer to the game at all (`accepts`: the kind's
    /// `answer(handwritten:)` takes these digits; the question's right
    /// answer is never asked). A place none of whose options is an answer
    /// grades the likeliest reading, which the game then refuses
    /// (`unreadable_answer`) as before choices.
    enum Outcome {
        case offer(ChoiceOffer)
        case grade([Int])
    }

    static func make(question: QuestionID, reading: DrawingReading, strokes: [[StrokePoint]],
                     accepts: ([Int]) -> Bool) -> Outcome {
        let likeliest = reading.handwritten.digits
        var places = reading.places
        for i in places.indices where places[i].count > 1 {
            let answers = places[i].filter { option in
                var digits = likeliest
                digits[i] = option
                return accepts(digits)
            }
            guard !answers.isEmpty else { return .grade(likeliest) }
            places[i] = answers
        }
        guard places.contains(where: { $0.count > 1 }) else { return .grade(places.map { $0[0] }) }
        return .offer(ChoiceOffer(question: question, reading: reading, strokes: strokes, places: places))
    }

    /// The digits of `answer` when it is one of the readings offered: a
    /// digit (7 or "7") among a digit's options, or a number's digits as a
    /// string, as many as offered, each place one of its options. Nil
    /// otherwise.
    func pick(_ answer: JSON) -> [Int]? {
        let digits: [Int]
        if isNumber {
            guard let text = answer.string, text.utf8.count == places.count,
                  text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            digits = text.utf8.map { Int($0) - 0x30 }
        } else if let d = DrawnDigitInput.digit(answer) {
            digits = [d]
        } else {
            return nil
        }
        guard digits.count == places.count, zip(digits, places).allSatisfy({ $1.contains($0) }) else { return nil }
        return digits
    }

    /// What `bad_choice` says: the readings offered (a number's, up to 9 of
    /// them, as strings).
    var refusal: String {
        guard isNumber else {
            return "Choose one of the digits offered: \(places[0].map(String.init).joined(separator: " or "))."
        }
        var numbers = [""]
        for place in places {
            numbers = numbers.flatMap { n in place.map { n + String($0) } }
            if numbers.count > 9 { numbers = Array(numbers.prefix(9)) }
        }
        return "Choose one of the numbers offered, as a string: \(numbers.map { "\"\($0)\"" }.joined(separator: " or "))."
    }

    /// The digits tapped, with what was offered, for the answer's record.
    func tapped(_ digits: [Int]) -> TappedChoice {
        TappedChoice(places: places.indices.filter { places[$0].count > 1 }.map {
            TappedChoice.Place(place: $0, options: places[$0], tapped: digits[$0])
        })
    }

    /// `choice`: a digit's options, or a number with each unsure place's
    /// options (`"number":"3?40","digits":[{"digit":3},{"options":[1,7]},…]`).
    var message: OutgoingMessage {
        OutgoingMessage("choice") { out in
            out.field("question", question.wire)
            if isNumber {
                out.field("number", String(places.map { $0.count > 1 ? "?" : Character(String($0[0])) }))
                out.key("digits")
                out.array(places) { out, place in
                    out.object { out in
                        if place.count > 1 {
                            out.field("options", .array(place.map(JSON.int)))
                        } else {
                            out.field("digit", place[0])
                        }
                    }
                }
            } else {
                out.field("options", .array(places[0].map(JSON.int)))
            }
        }
    }
}

/// The choice an answer was given by: each place the player picked
/// (0 for a digit), what was offered there, likeliest first, and the
/// digit tapped. Sent in `finished.result.answers` and the replay, and
/// stored with the answer (`result_answers.choice`, migration 0014) as
/// `[{"place":1,"options":[1,7],"tapped":7}]`.
struct TappedChoice: Sendable, Equatable {
    struct Place: Sendable, Equatable {
        let place: Int
        let options: [Int]
        let tapped: Int
    }
    let places: [Place]

    var json: JSON {
        .array(places.map { p in
            .object([("place", .int(p.place)), ("options", .array(p.options.map(JSON.int))), ("tapped", .int(p.tapped))])
        })
    }
}

extension DrawingReading {
    /// Whether the reading is offered as a choice before it is graded: a
    /// digit with choices, or a number with a digit that has them and none
    /// that is no digit.
    var hasChoices: Bool {
        switch self {
        case .digit(let r): !r.unsure && !r.choices.isEmpty
        case .number(let n): n.hasChoices
        }
    }

    /// Each place's digits: the digit read, or its choices.
    var places: [[Int]] {
        switch self {
        case .digit(let r): [r.choices.isEmpty ? [r.digit] : r.choices]
        case .number(let n): n.digits.map { $0.choices.isEmpty ? [$0.digit] : $0.choices }
        }
    }
}
