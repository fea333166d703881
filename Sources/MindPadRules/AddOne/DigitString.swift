/// A string of 1–8 decimal digits, leading zeros kept: an Add-One answer
/// (`"3240"`, `"010"`). On the wire it is a JSON string.
///
/// Anything else cannot be built, so a keypad answer that is not digits
/// (`"32a0"`, `""`, `3240` as a number) is refused when the owner decodes
/// it (`bad_answer`) instead of being graded as a wrong answer.
public struct DigitString: Sendable, Hashable, StringAnswer, CustomStringConvertible {
    /// The most digits an answer may have: what the recognizer reads at most
    /// (`Recognizer.maxNumberDigits`), and the keypad's limit.
    public static let maxCount = 8

    public let text: String

    /// `nil` unless `text` is 1…`maxCount` ASCII digits.
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    /// The digits 0–9, most significant first; nil if any is out of range
    /// or there are none or too many.
    public init?(digits: [Int]) {
        guard (1...Self.maxCount).contains(digits.count), digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        text = String(decoding: digits.map { UInt8(48 + $0) }, as: UTF8.self)
    }

    public static func isValid(_ text: String) -> Bool {
        (1...maxCount).contains(text.utf8.count) && text.utf8.allSatisfy { (48...57).contains($0) }
    }

    public static var shapeDescription: String { "1 to \(maxCount) digits 0-9 in a string, such as \"3240\"" }

    /// The digits as numbers, most significant first.
    public var digits: [Int] { text.utf8.map { Int($0) - 48 } }

    public var count: Int { text.utf8.count }

    public var description: String { text }
}
