import Foundation
import MindPadRules

/// Short room codes people read aloud and type: 4 letters (5 or 6 when the
/// 4-letter space gets crowded) from an alphabet without look-alikes — no
/// I/L (1), O/Q (0), U/V (each other). Input is case-insensitive.
enum RoomCode {
    static let alphabet = Array("ABCDEFGHJKMNPRSTWXYZ")

    /// A code not in `taken`, drawn from `generator`, at least `shortest`
    /// letters long (a cluster asks for longer codes after its directory
    /// refused short ones: `taken` only knows this instance's rooms).
    static func make(avoiding taken: (String) -> Bool, shortest: Int = 4,
                     using generator: inout some RandomNumberGenerator) -> String {
        for length in min(max(shortest, 4), 6)...6 {
            for _ in 0..<16 {
                let code = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                if !taken(code) { return code }
            }
        }
        // 20^6 = 64 million codes; reaching here means something else is wrong.
        preconditionFailure("no free room code")
    }

    /// The canonical form of what a player typed (trimmed, upper case), or
    /// nil when it cannot be a code.
    static func normalize(_ input: String) -> String? {
        let code = input.trimmingCharacters(in: .whitespaces).uppercased()
        guard (4...6).contains(code.count), code.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return code
    }
}

/// A token bucket: `rate` messages per second on average, `burst` at once.
/// Driven by the caller's clock, like everything in the realtime layer.
struct TokenBucket {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: RaceInstant

    init(rate: Double, burst: Double, now: RaceInstant) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now
    }

    /// Takes one token; false when the bucket is empty.
    mutating func take(now: RaceInstant) -> Bool {
        let seconds = Double(max(0, (now - last).milliseconds)) / 1000
        last = max(last, now)
        tokens = min(burst, tokens + seconds * rate)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
