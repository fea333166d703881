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

extension Recognition {
    /// The reading two networks agree on: their probabilities multiplied
    /// digit by digit and scaled to sum to 1 (each network's evidence
    /// counted once, as if they erred independently), unsure only when both
    /// are. Where the two exclude each other's digits so completely that
    /// every product is 0, their probabilities are added instead.
    public func agreeing(with other: Recognition) -> Recognition {
        var p = probabilities.storage * other.probabilities.storage
        var sum = p.sum()
        if !(sum > 0) {
            p = probabilities.storage + other.probabilities.storage
            sum = p.sum()
        }
        p /= SIMD16(repeating: sum)
        var best = 0
        for i in 1..<10 where p[i] > p[best] { best = i }
        return Recognition(digit: best, confidence: p[best], probabilities: DigitProbabilities(p),
                           unsure: unsure && other.unsure)
    }
}
