import Foundation
import MindPadRules
import Testing

@testable import MindPadRecognition

/// The bundled reader with a player's hand (issue 43): a player whose 1s sit
/// on the reader's 1/7 boundary, who taps "1" when offered, is read as
/// meaning 1 afterwards, and their 7s are still 7s. The boundary is found
/// through the bundled weights (the flag's slope at which an unadapted
/// reading is torn between 1 and 7), so the test holds for retrained weights.
struct PlayerHandReadingTests {
    /// A one-stroke 1 (or 7) on a 300-px pad: a flag of `flag` × the stem's
    /// height ending at the stem's top, `slope` degrees below the horizontal,
    /// then the stem, leaning `lean` px to the left at its foot; every point
    /// moved by up to `wobble` px (a consistent hand's own noise).
    static func one(slope: Double, flag: Double = 0.5, lean: Double = 0, wobble: Double = 0,
                    random: inout SeededGenerator) -> Drawing {
        let top = (x: 160.0, y: 40.0), height = 220.0
        let start = (x: top.x - flag * height * cos(slope * .pi / 180), y: top.y + flag * height * sin(slope * .pi / 180))
        var points: [StrokePoint] = []
        var t = 0.0
        func add(_ x: Double, _ y: Double) {
            points.append(StrokePoint(x: x + Double.random(in: -wobble...wobble, using: &random),
                                      y: y + Double.random(in: -wobble...wobble, using: &random), t: t))
            t += 12
        }
        for k in 0...10 { let u = Double(k) / 10; add(start.x + (top.x - start.x) * u, start.y + (top.y - start.y) * u) }
        for k in 1...20 { let u = Double(k) / 20; add(top.x - lean * u, top.y + height * u) }
        return Drawing(strokes: [points])
    }

    /// The flag slope (of 0…60 degrees) whose unadapted reading gives 1 the
    /// probability nearest to `target`.
    static func boundary(_ recognizer: Recognizer, target: Float) throws -> Double {
        let workspace = recognizer.makeWorkspace()
        var random = SeededGenerator(seed: 1)
        var best = (slope: 0.0, gap: Float.infinity)
        for slope in stride(from: 0.0, through: 60.0, by: 1.0) {
            let p = try recognizer.recognize(one(slope: slope, random: &random), in: workspace).probabilities[1]
            if abs(p - target) < best.gap { best = (slope, abs(p - target)) }
        }
        return best.slope
    }

    @Test func aPlayerWhoTapsOneOnTheBoundaryIsReadAsMeaningOne() throws {
        let recognizer = try Recognizer.bundled()
        let model = try #require(recognizer.hand, "the bundled weights carry a hand model")
        let workspace = recognizer.makeWorkspace()
        let slope = try Self.boundary(recognizer, target: 0.3)
        var random = SeededGenerator(seed: 43)
        func theirOne() -> Drawing { Self.one(slope: slope + .random(in: -1.5...1.5, using: &random), wobble: 2, random: &random) }
        // Their 7: the same bar, flatter and on a leaning stem.
        func theirSeven() -> Drawing {
            Self.one(slope: .random(in: 0...4, using: &random), flag: 0.6, lean: 60, wobble: 2, random: &random)
        }
        let theirOnes = (0..<30).map { _ in theirOne() }, sevens = (0..<20).map { _ in theirSeven() }
        func readOnes(by hand: PlayerHand?) throws -> (right: Int, p1: Float) {
            var right = 0, p1: Float = 0
            for d in theirOnes.suffix(20) {
                let r = try recognizer.recognize(d, in: workspace, hand: hand)
                if r.digit == 1 && r.choices.isEmpty && !r.unsure { right += 1 }
                p1 += r.probabilities[1] / 20
            }
            return (right, p1)
        }
        var hand = try #require(recognizer.makeHand())
        let before = try readOnes(by: hand)  // an empty hand reads as no hand
        #expect(try readOnes(by: nil) == before)
        #expect(before.p1 < 0.6)
        // The player taps "1" for their first 10 ones (the 7s they write are
        // read surely and graded right: learned as 7).
        for d in theirOnes.prefix(10) { try recognizer.learn(d, as: 1, into: &hand, in: workspace) }
        for d in sevens.prefix(5) {
            let r = try recognizer.recognize(d, in: workspace)
            #expect(r.digit == 7)
            if r.confidence >= model.learnAbove { try recognizer.learn(d, as: 7, into: &hand, in: workspace) }
        }
        #expect(hand.counts[1] == 10)
        let after = try readOnes(by: hand)
        #expect(after.p1 > before.p1 + 0.2, "P(1) \(before.p1) -> \(after.p1)")
        #expect(after.right > before.right)
        // Their 7s are still read as 7s.
        for d in sevens.suffix(15) {
            #expect(try recognizer.recognize(d, in: workspace, hand: hand).digit == 7)
        }
        // Another player's hand, taught nothing, reads as before.
        #expect(try readOnes(by: recognizer.makeHand()) == before)
    }
}
