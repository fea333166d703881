/// Teachers' passwords (migration 0019), kept only as a salted, stretched
/// hash: `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`, PBKDF2-HMAC-SHA256
/// (RFC 8018) through libcrypto with 16 random bytes of salt per password.
/// The iterations are stored with each hash, so raising them later leaves
/// older hashes readable.
public enum PasswordHash {
    /// Iterations for new hashes. OWASP's cheat sheet (2023) asks 600,000
    /// for PBKDF2-HMAC-SHA256; a sign-in then costs about that many SHA-256
    /// blocks on a database worker, once per sign-in, never per request
    /// (requests carry a token).
    public static let defaultIterations = 600_000

    /// Passwords are 8…128 characters (NIST SP 800-63B §3.1.1.2: at least
    /// 8, and long passphrases allowed); anything else is refused before
    /// hashing.
    public static let lengths = 8...128

    /// Why a password cannot be used, or nil when it can.
    public static func refusal(_ password: String) -> String? {
        lengths.contains(password.count) ? nil : "a password has \(lengths.lowerBound)–\(lengths.upperBound) characters"
    }

    /// A new hash of `password` with a fresh salt.
    public static func make(_ password: String, iterations: Int = defaultIterations) -> String {
        let salt = LibCrypto.randomBytes(16)
        let derived = LibCrypto.pbkdf2SHA256(password: password.utf8, salt: salt, iterations: iterations)
        return "pbkdf2-sha256$\(iterations)$\(LibCrypto.hex(salt))$\(LibCrypto.hex(derived))"
    }

    /// Whether `password` is the one `stored` was made from, compared in
    /// constant time; false for a stored text of any other form.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let iterations = Int(parts[1]), (1...10_000_000).contains(iterations),
              let salt = bytes(hex: parts[2]), salt.count == 16, parts[3].count == 64, !password.isEmpty else { return false }
        let derived = LibCrypto.pbkdf2SHA256(password: password.utf8, salt: salt, iterations: iterations)
        return PlayerToken.constantTimeEquals(LibCrypto.hex(derived), String(parts[3]))
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        guard hex.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            guard let b = UInt8(hex[i..<j], radix: 16) else { return nil }
            out.append(b)
            i = j
        }
        return out
    }
}
