import CLibCrypto

/// SHA-256 and secret random bytes from OpenSSL's libcrypto, the library
/// libwebsockets already loads: reviewed, tested and maintained elsewhere,
/// so this project keeps no cryptographic code of its own.
public enum LibCrypto {
    /// SHA-256 (FIPS 180-4) of `bytes`, through libcrypto's one-shot
    /// `EVP_Digest`.
    public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let contiguous = Array(bytes)
        let ok = contiguous.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when libcrypto cannot allocate or lacks
        // SHA-256 altogether; no caller could go on without it.
        precondition(ok == 1 && length == 32, "libcrypto could not compute SHA-256")
        return Array(digest.prefix(32))
    }

    /// Lower-case hex of SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: some Collection<UInt8>) -> String {
        hex(sha256(bytes))
    }

    /// `count` bytes from libcrypto's CSPRNG (`RAND_bytes`), which the
    /// kernel's getrandom(2) seeds. A system that cannot give secret bytes
    /// stops the caller rather than hand out a guessable secret.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        precondition(ok == 1, "libcrypto's RAND_bytes failed: no secure random source")
        return bytes
    }

    /// A random (version 4) UUID in its lower-case text form, from
    /// `randomBytes`: 122 secret bits, so an identifier a player sees
    /// tells nothing about the others (RFC 9562 §5.4).
    public static func uuidV4() -> String {
        var b = randomBytes(16)
        b[6] = b[6] & 0x0f | 0x40  // version 4
        b[8] = b[8] & 0x3f | 0x80  // variant 10
        let h = hex(b)
        let cut = [8, 12, 16, 20].map { h.index(h.startIndex, offsetBy: $0) }
        return [h[..<cut[0]], h[cut[0]..<cut[1]], h[cut[1]..<cut[2]], h[cut[2]..<cut[3]], h[cut[3]...]].joined(separator: "-")
    }

    /// Lower-case hex, two digits a byte.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension LibCrypto {
    /// PBKDF2-HMAC-SHA256 (RFC 8018) of `password` with `salt`, `iterations`
    /// rounds, 32 bytes: libcrypto's `PKCS5_PBKDF2_HMAC`.
    public static func pbkdf2SHA256(password: some Collection<UInt8>, salt: [UInt8], iterations: Int) -> [UInt8] {
        precondition(iterations >= 1 && iterations <= Int(Int32.max), "PBKDF2 needs 1…Int32.max iterations")
        let secret = password.map { CChar(bitPattern: $0) }
        precondition(!secret.isEmpty && !salt.isEmpty, "PBKDF2 of an empty password or salt")
        var out = [UInt8](repeating: 0, count: 32)
        let ok = out.withUnsafeMutableBufferPointer { o in
            PKCS5_PBKDF2_HMAC(secret, Int32(secret.count), salt, Int32(salt.count), Int32(iterations), EVP_sha256(),
                              Int32(o.count), o.baseAddress)
        }
        precondition(ok == 1, "libcrypto could not compute PBKDF2")
        return out
    }
}
