/// Player tokens: random secrets held by the player, stored only as hashes.
public enum PlayerToken {
    /// 32 random bytes from the system's CSPRNG (getrandom on Linux), as 64
    /// hex characters.
    public static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &rng)
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }

    /// What the database keeps: SHA-256 of the token, hex.
    public static func hash(_ token: String) -> String {
        SHA256.hex(Array(token.utf8))
    }

    /// Compares two secrets in time that depends only on their lengths.
    /// Hash both first when the lengths themselves could leak something.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// Whether `token` hashes to `storedHash`, in constant time.
    public static func matches(_ token: String, storedHash: String) -> Bool {
        constantTimeEquals(hash(token), storedHash)
    }
}
