import Testing
import MindPadJSON
import MindPadRules

/// Shapes a game kind could use for its prompts and answers.
private struct Prompt: Codable, Equatable {
    enum Shape: String, Codable { case circle, square }
    var maskedResult: String
    var hiddenPosition: Int
    var options: [Shape]
    var hint: String?
    var nested: [String: Int]
    var ratio: Double
    var flag: Bool
    var small: UInt8
}

@Suite struct CodableTests {
    @Test func encodesInDeclarationOrderWithSnakeCaseKeys() throws {
        let p = Prompt(maskedResult: "8?", hiddenPosition: 1, options: [.circle, .square], hint: nil,
                       nested: ["k": 1], ratio: 0.5, flag: true, small: 7)
        let json = try JSONValueEncoder().encode(p)
        #expect(json.text == #"{"masked_result":"8?","hidden_position":1,"options":["circle","square"],"nested":{"k":1},"ratio":0.5,"flag":true,"small":7}"#)
        #expect(try JSONValueDecoder().decode(Prompt.self, from: json) == p)
    }

    @Test func decodesFromParsedTextAndRefusesWrongShapes() throws {
        let decoder = JSONValueDecoder()
        let text = #"{"masked_result":"1?","hidden_position":0,"options":[],"hint":"h","nested":{},"ratio":2,"flag":false,"small":255}"#
        let p = try decoder.decode(Prompt.self, from: try JSON.parse(text))
        #expect(p.hint == "h" && p.ratio == 2 && p.small == 255)
        let wrong = [
            #"{"masked_result":1,"hidden_position":0,"options":[],"nested":{},"ratio":2,"flag":false,"small":1}"#,
            #"{"masked_result":"1","hidden_position":0.5,"options":[],"nested":{},"ratio":2,"flag":false,"small":1}"#,
            #"{"masked_result":"1","hidden_position":0,"options":["triangle"],"nested":{},"ratio":2,"flag":false,"small":1}"#,
            #"{"masked_result":"1","hidden_position":0,"options":[],"nested":{},"ratio":2,"flag":false,"small":256}"#,
            #"{"hidden_position":0,"options":[],"nested":{},"ratio":2,"flag":false,"small":1}"#,
            #"[1]"#,
        ]
        for w in wrong {
            #expect(throws: DecodingError.self, "\(w)") { try decoder.decode(Prompt.self, from: try JSON.parse(w)) }
        }
    }

    @Test func theArithmeticPromptAndDigitKeepTheirWireForm() throws {
        let kind = MindPadArithmetic()
        let question = kind.question(seed: 7, index: 3, mode: .normal)
        let json = try JSONValueEncoder().encode(kind.prompt(for: question))
        let keys: [String]
        if case .object(let members) = json { keys = members.map(\.0) } else { keys = [] }
        #expect(keys == ["text", "ascii_text", "lhs", "operation", "rhs", "masked_result", "hidden_position", "difficulty"])
        #expect(json["operation"]?.string.map { ["+", "-", "*", "/"].contains($0) } == true)
        #expect(try JSONValueEncoder().encode(Digit(7)!) == .int(7))
        #expect(try JSONValueDecoder().decode(Digit.self, from: .int(4)) == Digit(4))
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Digit.self, from: .int(10)) }
    }
}
