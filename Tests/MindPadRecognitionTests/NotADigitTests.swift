import Foundation
import MindPadJSON
import Testing
@testable import MindPadRecognition

/// The bundled model's tensors with `fc2` as 10 digit lanes plus, when
/// `notADigit` is given, an 11th lane with zero weights and that bias.
private func variant(of r: Recognizer, notADigit bias: Float?) throws -> Recognizer {
    try Recognizer(safetensors: safetensorsFile(try tensors(notADigit: bias), metadata: r.metadata))
}

/// As `variant`, with `fc2`'s 11th column (when `laneColumn` is given) that column's weights.
private func tensors(notADigit bias: Float?, laneColumn: [Float]? = nil) throws -> [(String, SafeTensors.Tensor)] {
    let file = try SafeTensors(bytes: [UInt8](try Data(contentsOf: try #require(Recognizer.bundledModelURL))))
    var tensors: [(String, SafeTensors.Tensor)] = []
    for (name, _) in DigitNetwork.shapes {
        var t = try #require(file.tensors[name])
        if name == "fc2.weight" {
            let n = t.shape[1]
            let rows = (0..<64).map { i in Array(t.values[(i * n)..<(i * n + 10)]) }
            t = .init(shape: [64, bias == nil ? 10 : 11],
                      values: rows.enumerated().flatMap { i, row in bias == nil ? row : row + [laneColumn?[i] ?? 0] })
        } else if name == "fc2.bias" {
            t = .init(shape: [bias == nil ? 10 : 11], values: Array(t.values[0..<10]) + (bias.map { [$0] } ?? []))
        }
        tensors.append((name, t))
    }
    return tensors
}

/// The bundled model's tensors (10 lanes) with a "not a digit" head whose one live
/// hidden unit copies fc1's hidden unit `unit` (its weights and bias), read out by
/// nad2 with weight 1: so the head's logit is ReLU(fc1 unit), the same as an 11th
/// fc2 lane with a 1 for that unit. `width` hidden units, the others zero.
private func headTensors(copying unit: Int, width: Int) throws -> [(String, SafeTensors.Tensor)] {
    var t = try tensors(notADigit: nil)
    let fc1 = try #require(t.first { $0.0 == "fc1.weight" }?.1), fc1b = try #require(t.first { $0.0 == "fc1.bias" }?.1)
    var w1 = [Float](repeating: 0, count: 800 * width), b1 = [Float](repeating: 0, count: width)
    for i in 0..<800 { w1[i * width + 1] = fc1.values[i * 64 + unit] }
    b1[1] = fc1b.values[unit]
    var w2 = [Float](repeating: 0, count: width)
    w2[1] = 1
    t += [("nad1.weight", .init(shape: [800, width], values: w1)), ("nad1.bias", .init(shape: [width], values: b1)),
          ("nad2.weight", .init(shape: [width, 1], values: w2)), ("nad2.bias", .init(shape: [1], values: [0]))]
    return t
}

/// The optional 11th output, "not a digit" (issue 18): it costs no lane of its
/// own, decides only `unsure`, and a 10-output file reads as it always did.
@Suite struct NotADigitTests {
    private func drawings() throws -> [Drawing] {
        let lines = try JSON.parse(StrokeLinesFixture.json).array ?? []
        let others = try JSON.parse(NonDigitLinesFixture.json).array ?? []
        return try (lines + others).map { try RecognizeLines.parseDrawing(try #require($0["line"]?.string)) }
    }

    @Test func tenAndElevenOutputFilesLoad() throws {
        let r = try Recognizer.bundled()
        let ten = try variant(of: r, notADigit: nil)
        let eleven = try variant(of: r, notADigit: 0)
        #expect(!ten.hasNotADigitOutput && eleven.hasNotADigitOutput)
        let ws = ten.makeWorkspace()
        let image = [Float](repeating: 0, count: 784)
        #expect(ten.logits(image: image, in: ws).count == 10)
        #expect(eleven.logits(image: image, in: ws).count == 11)
        #expect(Array(eleven.logits(image: image, in: ws)[..<10]) == ten.logits(image: image, in: ws))
    }

    /// A "not a digit" lane that never wins changes nothing; one that always wins
    /// refuses every drawing and still says which digit it looks most like.
    @Test func theLaneDecidesOnlyUnsure() throws {
        let r = try Recognizer.bundled()
        let ten = try variant(of: r, notADigit: nil)
        let never = try variant(of: r, notADigit: -1e4)
        let always = try variant(of: r, notADigit: 1e4)
        let ws = r.makeWorkspace()
        var refusedByTen = 0
        for d in try drawings() {
            let a = try ten.recognize(d, in: ws)
            #expect(try never.recognize(d, in: ws) == a)
            let b = try always.recognize(d, in: ws)
            #expect(b.unsure && b.digit == a.digit && b.confidence == a.confidence && b.probabilities == a.probabilities)
            if a.unsure { refusedByTen += 1 }
        }
        #expect(refusedByTen > 0 && refusedByTen < 46)
    }

    /// The lane wins exactly when its logit is above every digit's.
    @Test func unsureWhenTheLaneIsLargest() throws {
        let r = try Recognizer.bundled()
        let ten = try variant(of: r, notADigit: nil)
        let ws = r.makeWorkspace()
        for d in try drawings().prefix(8) {
            let a = try ten.recognize(d, in: ws)
            let top = ten.logits(image: ws.lastImage, in: ws).max()!
            let above = try variant(of: r, notADigit: top + 0.01).recognize(d, in: ws)
            let below = try variant(of: r, notADigit: top - 0.01).recognize(d, in: ws)
            #expect(above.unsure)
            #expect(below == a)
        }
    }

    /// The head form of the output: its logit is computed from the conv features
    /// like fc1's units (checked against the 11th-lane form on the same unit), and
    /// the digit logits are those of the 10-output file.
    @Test func aHeadOnTheConvFeatures() throws {
        let r = try Recognizer.bundled()
        let ten = try variant(of: r, notADigit: nil)
        let ws = r.makeWorkspace()
        for unit in [0, 17, 63] {
            var column = [Float](repeating: 0, count: 64)
            column[unit] = 1
            let lane = try Recognizer(safetensors: safetensorsFile(try tensors(notADigit: 0, laneColumn: column), metadata: r.metadata))
            let head = try Recognizer(safetensors: safetensorsFile(try headTensors(copying: unit, width: 8), metadata: r.metadata))
            #expect(head.hasNotADigitOutput)
            var live = 0
            for d in try drawings() {
                _ = try ten.recognize(d, in: ws)
                let image = ws.lastImage
                let a = head.logits(image: image, in: ws), b = lane.logits(image: image, in: ws)
                #expect(a.count == 11 && Array(a[..<10]) == ten.logits(image: image, in: ws))
                #expect(abs(a[10] - b[10]) <= 1e-5 * max(1, abs(b[10])))
                if b[10] > 0 { live += 1 }
            }
            #expect(live > 0)  // the unit is active on some drawing: the comparison is not 0 == 0
        }
    }

    /// A head that is incomplete, of a width not a multiple of 4, or beside an
    /// 11th fc2 lane is refused as an invalid model.
    @Test func badHeadsAreRefused() throws {
        let r = try Recognizer.bundled()
        let good = try headTensors(copying: 0, width: 8)
        let cases: [[(String, SafeTensors.Tensor)]] = [
            good.filter { $0.0 != "nad2.bias" },
            try headTensors(copying: 0, width: 6),
            try tensors(notADigit: 0) + good.filter { $0.0.hasPrefix("nad") },
        ]
        for tensors in cases {
            #expect(throws: RecognitionError.self) {
                _ = try Recognizer(safetensors: safetensorsFile(tensors, metadata: r.metadata))
            }
        }
    }
}
