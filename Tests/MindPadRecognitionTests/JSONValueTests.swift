import Testing
@testable import MindPadRecognition

@Suite struct JSONValueTests {
    @Test func parsesValues() throws {
        let v = try JSONValue.parse(#" {"a": [1, -2.5e1, true, false, null], "s": "x\"\u00e9\n\ud83d\ude00", "o": {}} "#)
        #expect(v["a"] == .array([.number(1), .number(-25), .bool(true), .bool(false), .null]))
        #expect(v["s"]?.string == "x\"é\n😀")
        #expect(v["o"] == .object([]))
    }

    @Test func refusesInvalidJSON() {
        for text in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"abc", "tru", "[1] [2]", "{'a': 1}", "+1"] {
            #expect(throws: JSONValue.SyntaxError.self, "\(text)") { try JSONValue.parse(text) }
        }
    }
}
