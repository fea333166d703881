import MindPadJSON
import Foundation
import Testing
@testable import MindPadRecognition

@Suite struct RecognizerTests {
    @Test func bundledModelLoadsWithItsMetadata() throws {
        let r = try Recognizer.bundled()
        #expect(r.metadata["architecture"] == "mindpad-cnn-v1")
        #expect(r.rasterizer.fitSize == Rasterizer().fitSize)
        #expect(r.rasterizer.penWidth == Rasterizer().penWidth)
        #expect(DigitNetwork.parameterCount == 57_802)
        #expect(DigitNetwork.multiplyAdds == 449_280)
        let url = try #require(Recognizer.bundledModelURL)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        #expect(size > 0 && size < 1_000_000)
        // An explicit file URL works too.
        let again = try Recognizer(contentsOf: url)
        #expect(again.metadata == r.metadata)
    }

    /// The bundled recognizer reads numbers with its own network (the one the
    /// number segmenter's gates were fitted to); one loaded from a file reads
    /// numbers with itself.
    @Test func numbersHaveTheirOwnNetwork() throws {
        let r = try Recognizer.bundled()
        #expect(r.numbers !== r)
        #expect(r.numbers.numbers === r.numbers)
        #expect(r.numbers.metadata["architecture"] == "mindpad-cnn-v1")
        #expect(r.numbers.metadata["temperature"] != r.metadata["temperature"])
        let alone = try Recognizer(contentsOf: try #require(Recognizer.bundledModelURL))
        #expect(alone.numbers === alone)
        // The same image, two networks: their logits differ.
        let image = try r.rasterizer.rasterize(Drawing(strokes: [[StrokePoint(x: 0, y: 0), StrokePoint(x: 40, y: 90)]]))
        #expect(r.logits(image: image, in: r.makeWorkspace()) != r.numbers.logits(image: image, in: r.makeWorkspace()))
        // Candidate digits of a number are weighed by a third network, trained
        // on the segmenter's candidates; a recognizer from one file has none.
        let candidates = try #require(r.candidates)
        #expect(candidates !== r.numbers && candidates.candidates == nil)
        #expect(candidates.metadata["training_data"]?.contains("number_pieces.py") == true)
        #expect(candidates.logits(image: image, in: r.makeWorkspace()) != r.numbers.logits(image: image, in: r.makeWorkspace()))
        #expect(alone.candidates == nil)
    }

    @Test func missingFileIsAnInvalidModel() {
        #expect(throws: RecognitionError.self) {
            try Recognizer(contentsOf: URL(fileURLWithPath: "/nonexistent/model.safetensors"))
        }
    }

    /// Same inputs, same logits as the training code (float64 NumPy reference), within 1e-4.
    @Test func goldenLogits() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        guard case .array(let cases) = try JSON.parse(GoldenLogitsFixture.json) else {
            Issue.record("bad fixture"); return
        }
        #expect(cases.count >= 5)
        for (k, c) in cases.enumerated() {
            let image = try #require(c["image"]?.array).map { Float($0.number ?? .nan) }
            let expected = try #require(c["logits"]?.array).map { $0.number ?? .nan }
            let logits = r.logits(image: image, in: ws)
            #expect(logits.count == expected.count)  // 10, or 11 with "not a digit"
            for i in 0..<min(logits.count, expected.count) {
                #expect(abs(Double(logits[i]) - expected[i]) <= 1e-4, "case \(k) logit \(i): \(logits[i]) vs \(expected[i])")
            }
        }
    }

    @Test func probabilitiesAreADistribution() throws {
        let r = try Recognizer.bundled()
        let result = try r.recognize(Drawing(strokes: [[StrokePoint(x: 1, y: 0), StrokePoint(x: 1, y: 50)]]))
        let sum = result.probabilities.reduce(0, +)
        #expect(abs(sum - 1) < 1e-5)
        #expect(result.probabilities.count == 10)
        #expect(result.confidence == result.probabilities[result.digit])
        #expect(result.probabilities.allSatisfy { $0 >= 0 && $0 <= result.confidence })
        #expect(result.digit == 1)
    }

    @Test func safeFromSeveralThreads() async throws {
        let r = try Recognizer.bundled()
        let drawings = (0..<8).map { k in
            Drawing(strokes: [(0..<40).map { i in
                let a = Double(i) / 39 * 2 * Double.pi
                return StrokePoint(x: 50 + Double(k) * 3 * cos(a), y: 50 + 40 * sin(a))
            }])
        }
        let expected = try drawings.map { try r.recognize($0) }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for t in 0..<8 {
                group.addTask {
                    let ws = r.makeWorkspace()
                    for round in 0..<200 {
                        let i = (t + round) % drawings.count
                        if try r.recognize(drawings[i], in: ws) != expected[i] { return false }
                    }
                    return true
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
