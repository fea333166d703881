import Foundation
import MindPadJSON
import Testing
@testable import MindPadRecognition

/// The refusal rule of whole drawings (issue 18): the stroke features and the
/// trees as tools/train/refusal.py computes them, and what they refuse.
@Suite struct RefusalRuleTests {
    private func cases() throws -> [JSON] {
        guard case .array(let cases) = try JSON.parse(RefusalFixture.json) else { throw RecognitionError(.malformedInput) }
        return cases
    }

    private func numbers(_ json: JSON?) throws -> [Double] {
        let values = json?.array?.compactMap { $0.number }
        return try #require(values)
    }

    @Test func theBundledModelCarriesTheRule() throws {
        let r = try Recognizer.bundled()
        let rule = try #require(r.refusal)
        #expect(rule.nodes.count > rule.roots.count && rule.roots.count >= 10)
        #expect(rule.threshold.isFinite)
    }

    /// The five stroke features are Python's to rounding (both in Double, the
    /// same steps), the network's three to the float32 network's precision.
    @Test func featuresMatchPython() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        let all = try cases()
        #expect(all.count == 36)
        for c in all {
            let drawing = try RecognizeLines.parseDrawing(try #require(c["line"]?.string))
            let python = try numbers(c["features"])
            let swift = try r.refusalFeatures(drawing, in: ws)
            let kind = c["kind"]?.string ?? ""
            for i in 0..<3 { #expect(abs(swift[i] - python[i]) < 1e-4, "\(kind): \(RefusalRule.featureNames[i])") }
            for i in 3..<8 {
                #expect(abs(swift[i] - python[i]) <= 1e-9 * max(1, abs(python[i])), "\(kind): \(RefusalRule.featureNames[i]) \(swift[i]) vs \(python[i])")
            }
        }
    }

    /// On Python's features the trees give Python's score exactly; on Swift's
    /// own, Swift refuses what Python refuses (unless the score sits on the
    /// threshold, where the network's last bits may tip it).
    @Test func scoresAndVerdictsMatchPython() throws {
        let r = try Recognizer.bundled()
        let rule = try #require(r.refusal)
        let ws = r.makeWorkspace()
        var refusedNonDigits = 0, nonDigits = 0
        for c in try cases() {
            let python = try numbers(c["features"])
            let x = SIMD8(python[0], python[1], python[2], python[3], python[4], python[5], python[6], python[7])
            let score = try #require(c["score"]?.number)
            #expect(abs(rule.score(x) - score) < 1e-9)
            let drawing = try RecognizeLines.parseDrawing(try #require(c["line"]?.string))
            let result = try r.recognize(drawing, in: ws)
            let kind = c["kind"]?.string ?? ""
            if abs(score - rule.threshold) > 1e-3 {
                // The rule refuses what Python's refuses; the whole reading (the
                // rule, then the choice rule) is no digit where Python's is.
                #expect(rule.refuses(x) == (c["refused"] == .bool(true)), "\(kind) at \(score)")
                if c["refused"] == .bool(true) { #expect(result.unsure, "\(kind) at \(score)") }
                let p = result.probabilities.sorted(by: >)
                let edge = abs(p[0] - r.choiceRule.below) < 1e-3 || (1...3).contains { k in
                    abs(p.prefix(k).reduce(0, +) - r.choiceRule.mass) < 1e-3 }
                if !edge { #expect(result.unsure == (c["unsure"] == .bool(true)), "\(kind) at \(score)") }
            }
            if kind == "scribble" { #expect(result.unsure || !result.choices.isEmpty, "a scribble read as \(result.digit)") }
            if !kind.hasPrefix("digit") {
                nonDigits += 1
                if result.unsure { refusedNonDigits += 1 }
            }
        }
        #expect(nonDigits == 16 && refusedNonDigits >= 14, "\(refusedNonDigits)/\(nonDigits) non-digits refused")
    }

    /// A straight line, a square and a circle: counts, ink and turning as drawn,
    /// whatever the pen's sampling rate.
    @Test func strokeShapeOfKnownFigures() throws {
        let raster = Rasterizer()
        let line = Drawing(strokes: [(0...40).map { StrokePoint(x: 100, y: Double($0) * 5) }])
        let l = raster.shape(of: line)
        #expect(l.strokes == 1 && abs(l.ink - 1) < 1e-12 && l.turning == 0 && l.width == 0 && l.height == 1)

        func square(_ perSide: Int) -> Drawing {
            let corners = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0), (0.0, 0.0)]
            var points: [StrokePoint] = []
            for k in 0..<4 {
                for i in 0..<perSide {
                    let t = Double(i) / Double(perSide)
                    points.append(StrokePoint(x: corners[k].0 + t * (corners[k + 1].0 - corners[k].0),
                                              y: corners[k].1 + t * (corners[k + 1].1 - corners[k].1)))
                }
            }
            points.append(StrokePoint(x: 0, y: 0))
            return Drawing(strokes: [points])
        }
        for perSide in [4, 25, 400] {
            let s = raster.shape(of: square(perSide))
            // Kept points may cut a corner (the ink a little shorter), never its turn.
            #expect(s.ink <= 4 + 1e-9 && s.ink > 3.9, "\(perSide) points a side: \(s.ink)")
            #expect(abs(s.turning - 0.75) < 1e-9, "three corners of a quarter turn, \(perSide) points a side")
        }

        func circle(_ n: Int, strokes: Int = 1) -> Drawing {
            let points = (0...n).map { i in
                let a = 2 * Double.pi * Double(i) / Double(n)
                return StrokePoint(x: 200 + 90 * cos(a), y: 200 + 90 * sin(a))
            }
            let per = points.count / strokes
            return Drawing(strokes: (0..<strokes).map { Array(points[($0 * per)..<min(points.count, ($0 + 1) * per + 1)]) })
        }
        let sparse = raster.shape(of: circle(24)), dense = raster.shape(of: circle(2_000))
        #expect(abs(sparse.ink - Double.pi) < 0.02 && abs(dense.ink - Double.pi) < 0.02)
        #expect(abs(sparse.turning - 1) < 0.05 && abs(dense.turning - 1) < 0.05)
        #expect(raster.shape(of: circle(240, strokes: 3)).strokes == 3)
        // Empty strokes are not strokes; a single point is a stroke without ink.
        let dot = raster.shape(of: Drawing(strokes: [[], [StrokePoint(x: 5, y: 5)], []]))
        #expect(dot.strokes == 1 && dot.ink == 0 && dot.turning == 0)
    }

    /// Rules that would read out of bounds or loop are refused when loaded.
    @Test func malformedRulesAreRefused() {
        let names = #"["confidence","second","entropy","strokes","ink","turning","width","height"]"#
        func rule(features: String = names, trees: String) -> String {
            #"{"features":\#(features),"baseline":-1.5,"threshold":2,"trees":\#(trees)}"#
        }
        #expect((try? RefusalRule(json: rule(trees: "[[[0,0.5,1,2],[-1.0],[3.0]]]"))) != nil)
        let bad = [
            "not json",
            rule(features: #"["confidence"]"#, trees: "[[[1.0]]]"),
            rule(trees: "[]"),
            rule(trees: "[[]]"),
            rule(trees: "[[[0,0.5,0,1],[1.0]]]"),  // a node pointing at itself
            rule(trees: "[[[0,0.5,1,3],[1.0],[2.0]]]"),  // past the tree's end
            rule(trees: "[[[8,0.5,1,2],[1.0],[2.0]]]"),  // no 9th feature
            rule(trees: "[[[0.5,0.5,1,2],[1.0],[2.0]]]"),  // a fractional feature index
            rule(trees: #"[[[0,"x",1,2],[1.0],[2.0]]]"#),
            rule(trees: "[[[0,0.5,1],[1.0],[2.0]]]"),
        ]
        for text in bad {
            #expect(throws: RecognitionError.self, "\(text)") { try RefusalRule(json: text) }
        }
    }
}
