import Foundation
import Testing

@testable import MindPadRules

@Suite struct PlayerNameTests {
    @Test(arguments: ["Ann", "张伟", "Zoë", "Zoe\u{308}", "José Ramírez", "player_1", "x-ray", "Ωμέγα", "محمد", "देवनागरी", "김민준", "O", "12345678901234567890", "٣٤"])
    func acceptsLettersOfAnyScriptDigitsSpaceUnderscoreDash(raw: String) throws {
        let name = try PlayerName(validating: raw)
        #expect(name.display == raw)
    }

    @Test func trimsWhiteSpaceAtTheEnds() throws {
        let name = try PlayerName(validating: "  \tAnn Lee \n")
        #expect(name.display == "Ann Lee")
    }

    @Test func chineseNamesCountCharactersNotBytes() throws {
        let twenty = String(repeating: "张", count: 20)
        #expect(try PlayerName(validating: twenty).display.count == 20)
        #expect(throws: PlayerNameError.tooLong(length: 21, maximum: 20)) {
            try PlayerName(validating: twenty + "伟")
        }
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func refusesEmpty(raw: String) {
        #expect(throws: PlayerNameError.empty) { try PlayerName(validating: raw) }
    }

    @Test func refusesTooLong() {
        #expect(throws: PlayerNameError.tooLong(length: 21, maximum: 20)) {
            try PlayerName(validating: "abcdefghijklmnopqrstu")
        }
    }

    @Test func refusesSqlLookingNamesByTheCharacterRule() {
        #expect(throws: PlayerNameError.disallowedCharacter("'")) {
            try PlayerName(validating: "Robert'); DROP TABLE")
        }
    }

    @Test(arguments: [
        ("a<b", "<"), ("semi;colon", ";"), ("emoji😀", "😀"), ("tab\there", "\t"), ("dot.", "."),
        ("keycap1️⃣", "1️⃣"), ("zero\u{200B}width", "\u{200B}"), ("new\nline", "\n"), ("quote\"", "\""),
        ("slash/", "/"), ("percent%", "%"), ("①", "①"), ("👍🏽", "👍🏽"),
    ] as [(String, Character)])
    func refusesEverythingElse(raw: String, culprit: Character) {
        #expect(throws: PlayerNameError.disallowedCharacter(culprit)) { try PlayerName(validating: raw) }
    }

    @Test func refusesZalgo() {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 8)
        #expect(throws: PlayerNameError.self) { try PlayerName(validating: zalgo) }
    }

    @Test func uniquenessIgnoresCase() throws {
        let a = try PlayerName(validating: "Ann")
        let b = try PlayerName(validating: "aNN")
        #expect(a == b)
        #expect(a.key == b.key)
        #expect(a.display != b.display)
        #expect(Set([a, b]).count == 1)
        #expect(try PlayerName(validating: "ÉLODIE").key == PlayerName(validating: "élodie").key)
        // Canonically equivalent spellings are the same name.
        #expect(try PlayerName(validating: "Zoë") == PlayerName(validating: "Zoe\u{308}"))
    }

    @Test func reasonsHaveCodesAndSafeText() {
        #expect(PlayerNameError.empty.code == "name_empty")
        #expect(PlayerNameError.tooLong(length: 25, maximum: 20).description.contains("20"))
        #expect(PlayerNameError.disallowedCharacter(";").description.contains("';'"))
        // Invisible characters are shown as code points, never raw.
        let invisible = PlayerNameError.disallowedCharacter("\u{200B}").description
        #expect(invisible.contains("U+200B"))
        #expect(!invisible.contains("\u{200B}"))
        #expect(PlayerNameError.taken.code == "name_taken")
    }

    @Test func decodingValidates() throws {
        // A name read back from storage or a client cannot bypass the rules.
        let good = try JSONDecoder().decode([PlayerName].self, from: Data(#"["张伟"]"#.utf8))
        #expect(good.first?.display == "张伟")
        #expect(String(decoding: try JSONEncoder().encode(good), as: UTF8.self) == #"["张伟"]"#)
        #expect(throws: PlayerNameError.disallowedCharacter("'")) {
            try JSONDecoder().decode([PlayerName].self, from: Data(#"["Robert'); DROP TABLE"]"#.utf8))
        }
    }
}
