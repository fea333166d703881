import Foundation

/// What a player's hand may do to a reading: the constants of the pull, from
/// the weights file's `hand` metadata (chosen by tools/train/adapt.py). See
/// `PlayerHand`.
public struct HandModel: Sendable, Equatable {
    /// Hidden units of the network (fc1's width).
    public let width: Int
    /// The mean squared distance of a drawing's hidden vector to its digit's mean.
    public let sigma2: Float
    /// How strongly a player's own prototype of a digit pulls a drawing near it.
    public let lambda: Float
    /// A prototype of n drawings pulls n / (n + shrink) as hard as it can.
    public let shrink: Float
    /// How near is near: the pull falls off as exp(−d² / (2 · kernel · sigma2)).
    public let kernel: Float
    /// Only a digit the network gives at least this probability (without the
    /// hand) is pulled: the hand settles among the digits a drawing could be.
    public let gate: Float
    /// A digit's count stops here: the prototype then follows its player (an exponential mean).
    public let maxCount: Int
    /// A reading outright at this confidence or more, graded right, is learned
    /// (a tapped choice always is).
    public let learnAbove: Float

    /// `{"sigma2":…,"lambda":…,"shrink":…,"kernel":…,"gate":…,"n_max":…,"learn_above":…}`
    /// for a network of `width` hidden units.
    public init(json: String, width: Int) throws(RecognitionError) {
        func bad(_ why: String) -> RecognitionError { RecognitionError(.invalidModel, detail: "metadata hand: \(why)") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw bad("not a JSON object")
        }
        func number(_ key: String, _ valid: ClosedRange<Double>) throws(RecognitionError) -> Double {
            guard let v = (object[key] as? NSNumber)?.doubleValue, v.isFinite, valid.contains(v) else { throw bad(key) }
            return v
        }
        guard (1...4096).contains(width) else { throw bad("width \(width)") }
        self.width = width
        sigma2 = Float(try number("sigma2", 1e-6...1e9))
        lambda = Float(try number("lambda", 0...1000))
        shrink = Float(try number("shrink", 0.01...1000))
        kernel = Float(try number("kernel", 1e-3...100))
        gate = Float(try number("gate", 0...1))
        maxCount = Int(try number("n_max", 1...Double(UInt16.max)))
        learnAbove = Float(try number("learn_above", 0...1))
    }
}

/// A small adaptation of the reader to one player's hand: for each digit, how
/// many of the player's own drawings of it were learned and their mean hidden
/// vector m_c (the network's fc1 after its ReLU): the player's prototype of
/// the digit. Reading that player's drawing, digit c's calibrated logit gains
///
///     lambda · n_c / (n_c + shrink) · exp(−|h − m_c|² / (2 · kernel · sigma2))
///
/// a pull towards c as strong as the drawing's h is near the player's own
/// c, and nothing far from it: a drawing unlike anything the player taught
/// is read as everyone's is, and a digit never learned moves nothing. Only
/// digits the network finds plausible without the hand (`HandModel.gate`)
/// are pulled (`Recognizer`), so a wrong label learned (a tap gone astray)
/// cannot turn a sure reading.
/// (A linear shift, measured beside it, let some writers' other digits
/// drift: docs/recognition.md, "A reader that learns each hand".) It never sees a
/// question's expected answer: the server teaches it only a tapped choice or
/// a confident reading graded right (docs/recognition.md, "A reader that
/// learns each hand"). Stored as `bytes` (10 counts and 10 × width means in
/// half precision: 1,300 bytes at 64 hidden units); kept in half precision in
/// memory too, so a hand read back is the hand that was stored.
public struct PlayerHand: Sendable, Equatable {
    /// Drawings learned per digit (at most the model's `maxCount`).
    public private(set) var counts: [UInt16]
    /// Each digit's mean hidden vector, 10 × width (0 where its count is 0).
    private(set) var means: [Float16]

    public init(width: Int) {
        counts = Array(repeating: 0, count: 10)
        means = Array(repeating: 0, count: 10 * width)
    }

    public var width: Int { means.count / 10 }

    /// Drawings learned in all (each digit's count stops at the model's `maxCount`).
    public var learned: Int { counts.reduce(0) { $0 + Int($1) } }

    /// Learns one drawing of `digit` whose hidden vector (after the ReLU) is `hidden`.
    public mutating func learn(hidden: UnsafeBufferPointer<Float>, digit: Int, model: HandModel) {
        precondition((0..<10).contains(digit) && hidden.count == width && width == model.width)
        let n = min(Int(counts[digit]) + 1, model.maxCount)
        counts[digit] = UInt16(n)
        let rate = 1 / Float(n)
        for i in 0..<width {
            let m = Float(means[digit * width + i])
            means[digit * width + i] = Float16(m + (hidden[i] - m) * rate)
        }
    }

    /// What each digit's calibrated logit gains for this hand (lanes 10–15: 0).
    func shift(hidden: UnsafeBufferPointer<Float>, model: HandModel) -> SIMD16<Float> {
        var out = SIMD16<Float>()
        guard hidden.count == width, width == model.width else { return out }
        let scale = -0.5 / (model.kernel * model.sigma2)
        for c in 0..<10 where counts[c] > 0 {
            let n = Float(counts[c])
            var d2: Float = 0
            for i in 0..<width {
                let d = hidden[i] - Float(means[c * width + i])
                d2 += d * d
            }
            out[c] = model.lambda * n / (n + model.shrink) * Foundation.exp(d2 * scale)
        }
        return out
    }

    // MARK: storage

    private static let magic: [UInt8] = Array("MPH1".utf8)

    /// "MPH1", the width (UInt16), 10 counts (UInt16), 10 × width means (Float16), little-endian.
    public var bytes: [UInt8] {
        var out = Self.magic
        func put(_ v: UInt16) { out.append(UInt8(v & 0xff)); out.append(UInt8(v >> 8)) }
        put(UInt16(width))
        counts.forEach(put)
        means.forEach { put($0.bitPattern) }
        return out
    }

    /// A stored hand; throws when the bytes are not one, or are of another width.
    public init(bytes: [UInt8], width: Int) throws(RecognitionError) {
        func bad(_ why: String) -> RecognitionError { RecognitionError(.malformedInput, detail: "player hand: \(why)") }
        guard bytes.count == 6 + 20 + 20 * width, Array(bytes.prefix(4)) == Self.magic else { throw bad("\(bytes.count) bytes") }
        func get(_ k: Int) -> UInt16 { UInt16(bytes[k]) | UInt16(bytes[k + 1]) << 8 }
        guard Int(get(4)) == width else { throw bad("width \(get(4)), not \(width)") }
        counts = (0..<10).map { get(6 + 2 * $0) }
        means = (0..<10 * width).map { Float16(bitPattern: get(26 + 2 * $0)) }
        guard means.allSatisfy(\.isFinite) else { throw bad("a mean is not finite") }
    }
}
