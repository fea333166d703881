import MindPadStorage

/// A one-time code that signs a player in on another device (contract §6
/// of issue 19): 8 characters of an alphabet without look-alikes (no 0/O,
/// 1/I/L), about 39.6 bits, valid for minutes and usable once; guessing is
/// slowed by the failure limiter. Only its SHA-256 is stored.
struct SignInCode: Equatable {
    static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    static let length = 8
    /// How long a code may be used after it is made.
    static let validity: Duration = .seconds(600)

    /// The code's 8 characters, upper case.
    let text: String

    /// A fresh code: each character drawn uniformly from the alphabet by
    /// the system's CSPRNG (`SystemRandomNumberGenerator`: getrandom(2) on
    /// Linux), with `randomElement`'s rejection sampling, so no character
    /// is likelier than another.
    static func generate() -> SignInCode {
        var random = SystemRandomNumberGenerator()
        return SignInCode(text: String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
    }

    private init(text: String) { self.text = text }

    /// What a person typed, read leniently: any case, spaces and dashes
    /// ignored (`k7qf-3mzd`). Nil for anything that is not 8 of the
    /// alphabet's characters once so cleaned.
    init?(typed raw: String) {
        let cleaned = raw.uppercased().filter { $0 != " " && $0 != "-" }
        guard cleaned.count == Self.length, cleaned.allSatisfy(Self.alphabet.contains) else { return nil }
        text = cleaned
    }

    /// What `sign_in_codes.code_hash` holds.
    var hash: String { LibCrypto.sha256Hex(text.utf8) }
}
