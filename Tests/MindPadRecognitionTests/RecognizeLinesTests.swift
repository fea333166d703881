import MindPadJSON
import Testing
@testable import MindPadRecognition

private func run(_ lines: [String]) throws -> [String] {
    var input = lines[...]
    var output: [String] = []
    RecognizeLines.run(recognizer: try Recognizer.bundled(), input: { input.popFirst() }, output: { output.append($0) })
    return output
}

private func errorCode(_ line: String) throws -> String? {
    let out = try run([line])
    guard let message = try JSON.parse(out[0])["error"]?.string else { return nil }
    return String(message.prefix { $0 != ":" })
}

@Suite struct RecognizeLinesTests {
    /// Three drawings per digit by writers training never saw, through the whole
    /// server path (JSON → drawing → rasterizer → network → JSON).
    @Test func recognizesStrokeDrawingsEndToEnd() throws {
        guard case .array(let cases) = try JSON.parse(StrokeLinesFixture.json) else {
            Issue.record("bad fixture"); return
        }
        #expect(cases.count == 30)
        let lines = cases.map { $0["line"]?.string ?? "" }
        let out = try run(lines)
        #expect(out.count == lines.count)
        var correct = 0
        for (c, line) in zip(cases, out) {
            let reply = try JSON.parse(line)
            let digit = try #require(reply["digit"]?.number)
            let confidence = try #require(reply["confidence"]?.number)
            let probabilities: [Double] = (reply["probabilities"]?.array ?? []).compactMap { $0.number }
            let python: [Double] = (c["probabilities"]?.array ?? []).compactMap { $0.number }
            #expect(probabilities.count == 10)
            // Same numbers as the Python pipeline (its own rasterizer and float64 network).
            for i in 0..<10 { #expect(abs(probabilities[i] - python[i]) < 1e-4) }
            var best = 0
            for i in python.indices where python[i] > python[best] { best = i }
            #expect(Int(digit) == best)
            #expect(confidence == probabilities.max())
            #expect(abs(probabilities.reduce(0, +) - 1) < 1e-4)
            if Int(digit) == Int(c["label"]?.number ?? -1) { correct += 1 }
        }
        #expect(correct >= 28, "\(correct)/30 correct")
    }

    @Test func badLinesGetAnErrorAndProcessingGoesOn() throws {
        let good = #"{"width": 300, "height": 300, "strokes": [[[150, 20, 0], [150, 120, 40], [148, 260, 90]]]}"#
        let lines = [
            good,
            "{not json",
            "",
            #"{"width": 300, "height": 300, "strokes": [[[NaN, 1, 0]]]}"#,
            good,
        ]
        let out = try run(lines)
        #expect(out.count == 5)
        #expect(try JSON.parse(out[0])["digit"]?.number == 1)
        #expect(try JSON.parse(out[4])["digit"]?.number == 1)
        for i in 1...3 { #expect(try JSON.parse(out[i])["error"]?.string != nil, "line \(i): \(out[i])") }
    }

    @Test func errorCodes() throws {
        #expect(try errorCode("{not json") == "malformedInput")
        #expect(try errorCode("") == "malformedInput")
        #expect(try errorCode("[1, 2]") == "malformedInput")
        #expect(try errorCode("{}") == "malformedInput")
        #expect(try errorCode(#"{"strokes": 5}"#) == "malformedInput")
        #expect(try errorCode(#"{"strokes": [[[1]]]}"#) == "malformedInput")
        #expect(try errorCode(#"{"strokes": [[["1", 2, 3]]]}"#) == "malformedInput")
        #expect(try errorCode(#"{"strokes": [[[null, 2, 3]]]}"#) == "malformedInput")
        #expect(try errorCode(#"{"strokes": [[[1, 2, 3, 4]]]}"#) == "malformedInput")
        #expect(try errorCode(#"{"strokes": [[[1, 2, 3]]]} trailing"#) == "malformedInput")
        #expect(try errorCode(#"{"strokes": []}"#) == "emptyDrawing")
        #expect(try errorCode(#"{"strokes": [[], []]}"#) == "emptyDrawing")
        #expect(try errorCode(#"{"strokes": [[[NaN, 2, 3]]]}"#) == "nonFiniteValue")
        #expect(try errorCode(#"{"strokes": [[[1, Infinity, 3]]]}"#) == "nonFiniteValue")
        #expect(try errorCode(#"{"strokes": [[[1, -Infinity, 3]]]}"#) == "nonFiniteValue")
        #expect(try errorCode(#"{"strokes": [[[1e999, 2, 3]]]}"#) == "nonFiniteValue")
        #expect(try errorCode(#"{"strokes": [[[1, 2, NaN]]]}"#) == "nonFiniteValue")
        #expect(try errorCode(#"{"strokes": [[[1e9, 2, 3]]]}"#) == "coordinateOutOfRange")
        let point = "[1.5, 2.5, 3]"
        let tooMany = #"{"strokes": [["# + Array(repeating: point, count: 10_001).joined(separator: ",") + "]]}"
        #expect(try errorCode(tooMany) == "tooManyPoints")
        let limit = #"{"strokes": [["# + Array(repeating: point, count: 10_000).joined(separator: ",") + "]]}"
        #expect(try errorCode(limit) == nil)
        let strokes65 = #"{"strokes": ["# + Array(repeating: "[[1, 2]]", count: 65).joined(separator: ",") + "]}"
        #expect(try errorCode(strokes65) == "tooManyStrokes")
        let long = #"{"pad": ""# + String(repeating: "x", count: RecognizeLines.maxLineBytes) + #"", "strokes": []}"#
        #expect(try errorCode(long) == "lineTooLong")
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(try errorCode(#"{"strokes": "# + deep + "}") == "malformedInput")
    }

    @Test func extraFieldsAndMissingTimesAreAccepted() throws {
        let line = #"{"id": "abc", "width": 10, "height": 10, "pen": {"w": 3}, "strokes": [[[5, 1], [5, 9]]]}"#
        let reply = try JSON.parse(try run([line])[0])
        #expect(reply["digit"]?.number == 1)
    }

    @Test func errorOutputIsValidJSON() throws {
        for code in RecognitionError.Code.allCases {
            let line = RecognizeLines.encode(RecognitionError(code))
            let message = try #require(try JSON.parse(line)["error"]?.string)
            #expect(message.hasPrefix(code.rawValue + ": "))
        }
    }
}
