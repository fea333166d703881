/// The recognized digit, its probability and the whole distribution.
public struct Recognition: Sendable, Equatable {
    /// 0...9, the most probable digit.
    public let digit: Int
    /// Probability of `digit`: the softmax of the logits divided by the model's
    /// calibrated temperature, so that of the drawings read with confidence p,
    /// about p are read right.
    public let confidence: Float
    /// Probabilities of 0...9; they sum to 1.
    public let probabilities: DigitProbabilities
    /// Probably no digit at all (a scribble, a letter, two digits on top of
    /// each other): the refusal rule refuses the drawing, the model's "not a
    /// digit" output (when it has one) beats every digit, or not even the
    /// choice rule's most digits hold its share of the probability
    /// (`ChoiceRule`). Games show "?" and ask to write it again.
    public let unsure: Bool
    /// The digits to offer the player, likeliest first (2 or 3 of them),
    /// when the reading is unsure but these are plausible (`ChoiceRule`):
    /// the player taps the one they meant. Empty when the reading is sure
    /// enough, and when it is `unsure` (no digit).
    public let choices: [Int]

    public init(digit: Int, confidence: Float, probabilities: DigitProbabilities, unsure: Bool, choices: [Int] = []) {
        self.digit = digit
        self.confidence = confidence
        self.probabilities = probabilities
        self.unsure = unsure
        self.choices = unsure ? [] : choices
    }

    /// The same reading judged by `rule` (a reading of the "not a digit"
    /// output or refused by the refusal rule stays `unsure`; `refused`
    /// says so).
    func judged(by rule: ChoiceRule, refused: Bool) -> Recognition {
        guard !refused else {
            return Recognition(digit: digit, confidence: confidence, probabilities: probabilities, unsure: true)
        }
        switch rule.verdict(probabilities) {
        case .sure:
            return Recognition(digit: digit, confidence: confidence, probabilities: probabilities, unsure: false)
        case .choices(let digits):
            return Recognition(digit: digit, confidence: confidence, probabilities: probabilities, unsure: false, choices: digits)
        case .noDigit:
            return Recognition(digit: digit, confidence: confidence, probabilities: probabilities, unsure: true)
        }
    }
}

/// Ten probabilities indexed by digit, stored inline (no heap allocation).
public struct DigitProbabilities: Sendable, Equatable, RandomAccessCollection {
    var storage: SIMD16<Float>

    init(_ storage: SIMD16<Float>) { self.storage = storage }

    public var startIndex: Int { 0 }
    public var endIndex: Int { 10 }
    public subscript(digit: Int) -> Float {
        precondition((0..<10).contains(digit), "digit out of range")
        return storage[digit]
    }
}

extension Recognition {
    /// The reading two networks agree on: their probabilities multiplied
    /// digit by digit and scaled to sum to 1 (each network's evidence
    /// counted once, as if they erred independently), its choices by `rule`
    /// (the first network's); no digit when both are `unsure`, or when the
    /// rule finds none in the agreed probabilities. Where the two exclude
    /// each other's digits so completely that every product is 0, their
    /// probabilities are added instead.
    public func agreeing(with other: Recognition, rule: ChoiceRule = .standard) -> Recognition {
        var p = probabilities.storage * other.probabilities.storage
        var sum = p.sum()
        if !(sum > 0) {
            p = probabilities.storage + other.probabilities.storage
            sum = p.sum()
        }
        p /= SIMD16(repeating: sum)
        var best = 0
        for i in 1..<10 where p[i] > p[best] { best = i }
        return Recognition(digit: best, confidence: p[best], probabilities: DigitProbabilities(p), unsure: false)
            .judged(by: rule, refused: unsure && other.unsure)
    }
}
