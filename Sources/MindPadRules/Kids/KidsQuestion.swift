/// A kids' question: what is asked, the picture, the options to tap, and
/// which option is right. Stays on the server; the racer gets `KidsPrompt`.
public struct KidsQuestion: Sendable, Hashable, CustomStringConvertible {
    /// What the client asks, as a key it translates: `count`, `more`,
    /// `less`, `colour`, `position_top`…, `odd_one_out`, `add`, `subtract`,
    /// `multiply`, `divide`.
    public let ask: String
    public let level: Int
    public let picture: KidsPicture
    /// 2–4 options (comparing has its two boxes), all values distinct.
    public let options: [KidsOption]
    /// The right option's value.
    public let answer: String
    /// Whether the answer is a number (counting and the operations), which
    /// the child may write instead of tapping when it is one digit.
    public let isNumeric: Bool

    /// `nil` unless exactly one option is `answer` and the values are distinct.
    public init?(ask: String, level: Int, picture: KidsPicture, options: [KidsOption], answer: String, isNumeric: Bool) {
        guard options.filter({ $0.value == answer }).count == 1,
              Set(options.map(\.value)).count == options.count else { return nil }
        self.ask = ask
        self.level = level
        self.picture = picture
        self.options = options
        self.answer = answer
        self.isNumeric = isNumeric
    }

    /// Whether the child may write the answer on the pad: a number 0–9.
    public var isDrawable: Bool {
        isNumeric && answer.utf8.count == 1 && answer.utf8.allSatisfy { (48...57).contains($0) }
    }

    public var description: String {
        "\(ask) L\(level) [\(options.map(\.value).joined(separator: ","))] = \(answer)"
    }
}

/// One option to tap: its `value` (the answer it stands for) and, for
/// picture options, the thing and colour to draw.
public struct KidsOption: Sendable, Hashable, Codable {
    public let value: String
    public let thing: KidsThing?
    public let colour: KidsColour?

    public init(value: String, thing: KidsThing? = nil, colour: KidsColour? = nil) {
        self.value = value
        self.thing = thing
        self.colour = colour
    }

    public init(number: Int) {
        self.init(value: String(number))
    }
}

/// What a racer is sent: the question without which option is right
/// (`{"ask":"count","level":2,"picture":{…},"options":[…],"drawable":true}`).
public struct KidsPrompt: Sendable, Hashable, Codable {
    public let ask: String
    public let level: Int
    public let picture: KidsPicture
    public let options: [KidsOption]
    /// The child may write the answer (one digit) on the pad.
    public let drawable: Bool

    public init(_ question: KidsQuestion) {
        ask = question.ask
        level = question.level
        picture = question.picture
        options = question.options
        drawable = question.isDrawable
    }
}

/// A kids' answer: the value of the option tapped (`"7"`, `"red"`, `"a"`,
/// `"cat"`, `"2"`), or a digit written on the pad. On the wire a JSON
/// string of 1–16 characters `a-z`, `0-9`, `_`; anything else cannot be
/// built, so it is refused (`bad_answer`) rather than graded as wrong.
public struct KidsAnswer: Sendable, Hashable, StringAnswer, CustomStringConvertible {
    public let value: String
    public var text: String { value }

    public init?(_ value: String) {
        guard (1...16).contains(value.utf8.count),
              value.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }) else { return nil }
        self.value = value
    }

    public static var shapeDescription: String { "an option's value: 1 to 16 characters a-z, 0-9 or _, such as \"7\" or \"red\"" }

    public var description: String { value }
}
