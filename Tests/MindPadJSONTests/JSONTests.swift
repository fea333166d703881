import Foundation
import Testing
@testable import MindPadJSON

@Suite struct JSONTests {
    @Test func parsesValues() throws {
        let v = try JSON.parse(#" {"a": [1, -2.5e1, true, false, null, 0, -0.5], "s": "x\"\u00e9\n\ud83d\ude00", "o": {}} "#)
        #expect(v["a"] == .array([.int(1), .double(-25), .bool(true), .bool(false), .null, .int(0), .double(-0.5)]))
        #expect(v["s"]?.string == "x\"é\n😀")
        #expect(v["o"] == .object([]))
        #expect(v["missing"] == nil)
    }

    @Test func integersStayIntegersAndBigOnesBecomeDoubles() throws {
        #expect(try JSON.parse("123456789012345678") == .int(123_456_789_012_345_678))
        #expect(try JSON.parse("-42") == .int(-42))
        #expect(try JSON.parse("9223372036854775807") == .int(Int.max))
        // Beyond an Int: read as a Double.
        #expect(try JSON.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSON.parse("123456789012345678901234") == .double(123_456_789_012_345_678_901_234))
        #expect(try JSON.parse("1e2").integer == 100)
        #expect(try JSON.parse("1.5").integer == nil)
        // Overflowing exponents are numbers (infinite), so a caller can say why they are refused.
        #expect(try JSON.parse("1e999") == .double(.infinity))
    }

    @Test func refusesInvalidJSON() {
        for text in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"abc", "tru", "[1] [2]", "{'a': 1}", "+1",
                     "NaN", "Infinity", "\"a\u{01}b\"", "[" + String(repeating: "[", count: 40) + "]"] {
            #expect(throws: JSON.SyntaxError.self, "\(text)") { try JSON.parse(text) }
        }
    }

    @Test func nonFiniteTokensOnlyWhenAllowed() throws {
        #expect(try JSON.parse("[NaN, Infinity, -Infinity]", allowNonFinite: true)
            == .array([.double(.nan), .double(.infinity), .double(-.infinity)]))
    }

    @Test func writesCompactTextInOrder() {
        let v = JSON.object(omittingNils: [("type", .string("x")), ("b", .int(2)), ("a", .double(0.5)), ("n", nil), ("l", .array([.null, .bool(true)]))])
        #expect(v.text == #"{"type":"x","b":2,"a":0.5,"l":[null,true]}"#)
        #expect(JSON.double(.nan).text == "null")
    }

    @Test func escapesControlAndInvisibleCharacters() throws {
        let hostile = "a\"b\\c\n\u{1}\u{202E}evil\u{2028}\u{200B}\u{FEFF}z"
        let text = JSON.string(hostile).text
        #expect(text == #""a\"b\\c\n\u0001\u202eevil\u2028\u200b\ufeffz""#)
        // Every escape reads back as the same string.
        #expect(try JSON.parse(text) == .string(hostile))
        for scalar in text.unicodeScalars { #expect(scalar.value >= 0x20 && scalar.value < 0x7F) }
    }

    @Test func roundTripsWhatItWrites() throws {
        let values: [JSON] = [
            .object([("x", .array([.int(-3), .double(1.25), .string("汉字 ✓"), .object([])]))]),
            .string(""), .int(Int.max), .int(Int.min + 1), .double(1e-7),
        ]
        for v in values { #expect(try JSON.parse(v.text) == v) }
    }

    /// Random values, written and read back: equal, every time; and
    /// Foundation's reader accepts every text written.
    @Test func randomValuesRoundTripAndFoundationAgrees() throws {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("aZ09 _\"\\\n\t\u{1}é汉😀\u{202E}\u{2028}{}[],:")
        func string() -> String { String((0..<next(8)).map { _ in alphabet[next(alphabet.count)] }) }
        func value(_ depth: Int) -> JSON {
            switch next(depth > 3 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(next(2) == 0)
            case 2: return .int(next(2_000_001) - 1_000_000)
            case 3: return .double(Double(next(2_000_001) - 1_000_000) / 64)
            case 4: return .string(string())
            case 5: return .array((0..<next(4)).map { _ in value(depth + 1) })
            default: return .object((0..<next(4)).map { _ in (string(), value(depth + 1)) })
            }
        }
        for _ in 0..<2_000 {
            let v = value(0)
            let text = v.text
            #expect(try JSON.parse(text) == v, "\(text)")
            // Another implementation reads what we write.
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil, "\(text)")
        }
    }

    /// The writer the server's messages use: separators, left-out nils,
    /// the headroom in front (not part of the text), and integers at the
    /// edges, each read back by the decoder.
    @Test func writerWritesMembersAfterItsHeadroom() throws {
        var out = JSONWriter(headroom: 16)
        out.object { out in
            out.field("type", "x")
            out.field("gone", nil as String?)
            out.field("null", orNull: nil)
            out.field("min", Int.min)
            out.field("max", Int.max)
            out.field("zero", 0)
            out.field("neg", -40)
            out.field("d", 0.1)
            out.field("inf", Double.infinity)
            out.key("list")
            out.array([1, 22, 333]) { $0.int($1) }
            out.key("nested")
            out.object { out in
                out.key("e")
                out.array([Int]()) { $0.int($1) }
                out.key("o")
                out.object { _ in }
            }
            out.key("k\u{1}")
            out.value(.object([("a", .array([.string("\u{202E}"), .bool(true)]))]))
        }
        #expect(out.bytes.prefix(16).allSatisfy { $0 == 0 })
        let text = #"{"type":"x","null":null,"min":-9223372036854775808,"max":9223372036854775807,"zero":0,"neg":-40,"#
            + #""d":0.1,"inf":null,"list":[1,22,333],"nested":{"e":[],"o":{}},"k\u0001":{"a":["\u202e",true]}}"#
        #expect(out.text == text)
        #expect(out.bytes.count == 16 + text.utf8.count)
        let parsed = try JSON.parse(out.text)
        // Int.min's magnitude is beyond an Int: the reader makes it a Double.
        #expect(parsed["min"]?.number == Double(Int.min) && parsed["max"] == .int(Int.max) && parsed["neg"] == .int(-40))
        #expect(parsed["k\u{1}"]?["a"] == .array([.string("\u{202E}"), .bool(true)]))
    }
}
