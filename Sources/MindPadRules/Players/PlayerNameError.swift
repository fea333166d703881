/// Why a name was refused. `description` is safe to show the player.
public enum PlayerNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing left after trimming white space.
    case empty
    /// More than `maximum` characters after trimming.
    case tooLong(length: Int, maximum: Int)
    /// A character outside letters, digits, space, `_` and `-`.
    case disallowedCharacter(Character)
    /// Someone in the room already has this name, ignoring case.
    case taken

    /// A stable machine-readable code for clients.
    public var code: String {
        switch self {
        case .empty: "name_empty"
        case .tooLong: "name_too_long"
        case .disallowedCharacter: "name_disallowed_character"
        case .taken: "name_taken"
        }
    }

    public var description: String {
        switch self {
        case .empty:
            return "Please enter a name."
        case .tooLong(let length, let maximum):
            return "Names can be at most \(maximum) characters long (this one has \(length))."
        case .disallowedCharacter(let character):
            return "Names may contain only letters, digits, spaces, '_' and '-'; \(Self.show(character)) is not allowed."
        case .taken:
            return "Someone in this room already has that name."
        }
    }

    /// Shows a refused character visibly: printable ones quoted, the others
    /// (controls, invisible ones) as U+XXXX, so nothing odd reaches a screen.
    static func show(_ character: Character) -> String {
        let printable = character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse,
                .unassigned, .spaceSeparator:
                return false
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber,
                .otherNumber, .connectorPunctuation, .dashPunctuation, .openPunctuation,
                .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation,
                .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            @unknown default:
                return false
            }
        }
        if printable { return "'\(character)'" }
        return character.unicodeScalars
            .map { "U+" + String($0.value, radix: 16, uppercase: true) }
            .joined(separator: " ")
    }
}
