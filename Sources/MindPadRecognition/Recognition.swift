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
    /// The confidence is below the model's refusal threshold, or the model's
    /// "not a digit" output (when it has one) beats every digit: probably not a
    /// digit at all (a scribble, a letter, two digits on top of each other), or
    /// one too ambiguous to grade. Games show "?" and ask to write it again.
    public let unsure: Bool

    public init(digit: Int, confidence: Float, probabilities: DigitProbabilities, unsure: Bool) {
        self.digit = digit
        self.confidence = confidence
        self.probabilities = probabilities
        self.unsure = unsure
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
