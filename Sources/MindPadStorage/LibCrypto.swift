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
