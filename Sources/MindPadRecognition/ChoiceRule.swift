/// When a reading is unsure but a few digits are plausible, the player is
/// offered the likeliest two or three and taps the one they meant, instead
/// of being told to write it again (issue 43, "A choice instead of a
/// refusal"). This rule says which: the reading's calibrated probabilities
/// in, a verdict out.
///
/// - `below` (metadata `choice_below`): a reading whose confidence is at
///   least this is sure: graded as read, no choice.
/// - `mass` (`choice_mass`): otherwise the choice is the fewest top digits
///   whose probabilities sum to at least this, likeliest first…
/// - `max` (`choice_max`): …and at most this many. When even `max` digits do
///   not reach `mass`, the reading is no digit at all (`Recognition.unsure`:
///   "write it again").
///
/// The constants ride in the weights file's metadata, where the training
/// side fits them (tools/train); a file without them gets `standard`.
/// A drawing the refusal rule or the "not a digit" output turns down is no
/// digit whatever this rule says: the rule judges only readings of digits.
public struct ChoiceRule: Sendable, Equatable {
    public let below: Float
    public let mass: Float
    public let max: Int

    /// The most digits ever offered.
    public static let mostOptions = 3

    /// The defaults when the metadata has no constants: a reading under 0.8
    /// (calibrated: about one in five of those is read wrong) is offered as
    /// a choice of the fewest top digits holding 95 % of the probability,
    /// at most 3 of them; a reading whose top 3 hold less is no digit.
    public static let standard = ChoiceRule(below: 0.8, mass: 0.95, max: 3)

    public init(below: Float, mass: Float, max: Int) {
        precondition((0...1).contains(below) && mass > 0 && mass <= 1 && (2...Self.mostOptions).contains(max),
                     "a choice rule's constants out of range")
        self.below = below
        self.mass = mass
        self.max = max
    }

    /// The rule of a weights file: `choice_below` (0…1), `choice_mass`
    /// (over 0, up to 1) and `choice_max` (2 or 3) from its metadata, each
    /// `standard`'s where missing; a value out of range refuses the file.
    public init(metadata: [String: String]) throws(RecognitionError) {
        func value(_ key: String, _ fallback: Float, _ valid: (Float) -> Bool) throws(RecognitionError) -> Float {
            guard let text = metadata[key] else { return fallback }
            guard let v = Float(text), v.isFinite, valid(v) else {
                throw RecognitionError(.invalidModel, detail: "metadata \(key)=\(text)")
            }
            return v
        }
        let standard = Self.standard
        let below = try value("choice_below", standard.below) { (0...1).contains($0) }
        let mass = try value("choice_mass", standard.mass) { $0 > 0 && $0 <= 1 }
        let max = try value("choice_max", Float(standard.max)) { (2...Float(Self.mostOptions)).contains($0) && $0.rounded() == $0 }
        self.init(below: below, mass: mass, max: Int(max))
    }

    /// What a reading's probabilities say.
    public enum Verdict: Sendable, Equatable {
        /// Read surely enough: graded as read.
        case sure
        /// The digits to offer, likeliest first (2…`max` of them).
        case choices([Int])
        /// Not even `max` digits hold `mass`: no digit at all.
        case noDigit
    }

    /// The verdict on ten probabilities (ties go to the smaller digit).
    /// Allocates only for a choice.
    public func verdict(_ p: DigitProbabilities) -> Verdict {
        // The top four digits, likeliest first, without sorting all ten:
        // each digit goes in after every digit at least as likely.
        var top = SIMD4<Int32>(repeating: 0)
        var n = 0
        for d in 0..<10 {
            var k = Swift.min(n, 3)
            if n == 4 {
                guard p[d] > p[Int(top[3])] else { continue }
            } else {
                n += 1
            }
            while k > 0 && p[d] > p[Int(top[k - 1])] {
                top[k] = top[k - 1]
                k -= 1
            }
            top[k] = Int32(d)
        }
        guard p[Int(top[0])] < below else { return .sure }
        var sum: Float = 0
        for k in 0..<max {
            sum += p[Int(top[k])]
            if sum >= mass {
                return k == 0 ? .sure : .choices((0...k).map { Int(top[$0]) })
            }
        }
        return .noDigit
    }
}
