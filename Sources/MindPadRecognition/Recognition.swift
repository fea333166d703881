/// The recognized digit, its probability and the whole distribution.
public struct Recognition: Sendable, Equatable {
    /// 0...9, the most probable digit.
    public let digit: Int
    /// Probability of `digit` (softmax of the logits).
    public let confidence: Float
    /// Probabilities of 0...9; they sum to 1.
    public let probabilities: DigitProbabilities
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
