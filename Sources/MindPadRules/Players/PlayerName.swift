/// A validated display name.
///
/// Rules, applied after trimming white space at both ends:
/// - 1 to 20 characters (user-perceived characters, so `张伟` is 2);
/// - every character is a letter of any script (with its combining marks),
///   a decimal digit of any script, a space, `_` or `-`;
/// - nothing else: no punctuation, quotes, symbols, emoji, control or
///   invisible characters, so `Robert'); DROP TABLE` is refused by the
///   character rule alone.
/// Names are unique without regard to case: compare `key`, never `display`.
public struct PlayerName: Sendable, Hashable, Codable, CustomStringConvertible {
    public static let maximumLength = 20

    /// The trimmed name as the player typed it.
    public let display: String
    /// The case-insensitive identity: the lowercased display name. Two names
    /// with the same key cannot be in one room.
    public let key: String

    /// Validates `raw`, or throws the first rule it breaks.
    public init(validating raw: String) throws(PlayerNameError) {
        let trimmed = Self.trim(raw)
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= Self.maximumLength else {
            throw .tooLong(length: trimmed.count, maximum: Self.maximumLength)
        }
        for character in trimmed where !Self.isAllowed(character) {
            throw .disallowedCharacter(character)
        }
        display = trimmed
        key = trimmed.lowercased()
    }

    /// Equality and hashing go by `key`, so `Ann` and `ANN` are the same name.
    public static func == (lhs: PlayerName, rhs: PlayerName) -> Bool {
        lhs.key == rhs.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        try self.init(validating: raw)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(display)
    }

    public var description: String { display }

    static func trim(_ raw: String) -> String {
        var scalars = Substring(raw)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// A letter (with combining marks after it), a decimal digit, a space,
    /// `_` or `-`. Checked scalar by scalar, so a permitted base cannot smuggle
    /// in a disallowed scalar (an emoji modifier, a zero-width joiner, a
    /// keycap mark on a digit).
    static func isAllowed(_ character: Character) -> Bool {
        let scalars = Array(character.unicodeScalars)
        guard let base = scalars.first else { return false }
        if scalars.count == 1, base == " " || base == "_" || base == "-" { return true }
        let marks = scalars.dropFirst()
        switch base.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return marks.count <= 4 && marks.allSatisfy(isCombiningMark)
        case .decimalNumber:
            return marks.isEmpty
        case .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol,
            .currencySymbol, .modifierSymbol, .otherSymbol, .spaceSeparator, .lineSeparator,
            .paragraphSeparator, .control, .format, .surrogate, .privateUse, .unassigned:
            return false
        @unknown default:
            return false
        }
    }

    /// Combining marks that belong to a letter (accents, vowel signs), not
    /// enclosing marks or variation selectors, which turn text into symbols.
    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        if (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value) {
            return false
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark:
            return true
        case .enclosingMark, .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter,
            .otherLetter, .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation,
            .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol,
            .otherSymbol, .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
            .surrogate, .privateUse, .unassigned:
            return false
        @unknown default:
            return false
        }
    }
}
