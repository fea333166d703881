/// A deterministic pseudo-random generator: xoshiro256** seeded through
/// SplitMix64, with its own unbiased bounded draw.
///
/// Why not the standard library: `Int.random(in:using:)` does not promise a
/// stable algorithm across Swift versions, and a race is only fair if every
/// racer, on every server build, gets the same questions from the same seed.
/// Everything here is specified bit for bit and pinned by test vectors.
///
/// Deliberately not a `RandomNumberGenerator`, so that nobody can pass it to
/// a stdlib API whose use of it might change.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Seeds the four words of state from `seed` with SplitMix64, as the
    /// xoshiro authors recommend (never all zero).
    public init(seed: UInt64) {
        var mixer = SplitMix64(state: seed)
        self.init(state: (mixer.next(), mixer.next(), mixer.next(), mixer.next()))
    }

    /// A generator for one item of a sequence (question `index` of a race),
    /// so that any item can be produced on its own, in any order, with the
    /// same result as every other racer gets.
    public init(seed: UInt64, stream: UInt64) {
        var outer = SplitMix64(state: seed)
        let base = outer.next()
        self.init(seed: base ^ (stream &* 0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    /// Raw xoshiro256** state, for test vectors. The state must not be all zero.
    public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(state != (0, 0, 0, 0), "xoshiro256** state must not be all zero")
        (s0, s1, s2, s3) = state
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    /// A uniform value in `0..<bound` (Lemire's multiply-and-reject: no
    /// modulo bias, usually no division).
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// A uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if span == 0 {  // the whole Int range
            return Int(truncatingIfNeeded: next())
        }
        return range.lowerBound &+ Int(truncatingIfNeeded: next(below: span))
    }

    /// A fair coin.
    public mutating func bool() -> Bool {
        next() >> 63 == 1
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014), used only to expand seeds.
struct SplitMix64: Sendable {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
