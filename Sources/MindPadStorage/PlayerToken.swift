/// Player tokens: random secrets held by the player, stored only as hashes.
public enum PlayerToken {
    /// 32 bytes from libcrypto's CSPRNG (`RAND_bytes`, seeded by the
    /// kernel's getrandom), as 64 hex characters.
    public static func generate() -> String {
        LibCrypto.hex(LibCrypto.randomBytes(32))
    }

    /// What the database keeps: SHA-256 (libcrypto) of the token's UTF-8
    /// bytes, lower-case hex.
    public static func hash(_ token: String) -> String {
        LibCrypto.sha256Hex(token.utf8)
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
