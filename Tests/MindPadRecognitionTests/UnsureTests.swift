import MindPadJSON
import Testing
@testable import MindPadRecognition

private func fixtureLines(_ json: String) throws -> [JSON] {
    guard case .array(let cases) = try JSON.parse(json) else { throw RecognitionError(.malformedInput) }
    return cases
}

/// Calibrated confidence and refusal (issue 18): the bundled model carries its
/// temperature and threshold; non-digits come out unsure, digits do not.
@Suite struct UnsureTests {
    @Test func calibrationComesFromTheModelsMetadata() throws {
        let r = try Recognizer.bundled()
        #expect(r.metadata["temperature"] != nil && r.metadata["unsure_below"] != nil)
        #expect(r.temperature == Float(r.metadata["temperature"] ?? ""))
        #expect(r.unsureBelow == Float(r.metadata["unsure_below"] ?? ""))
        #expect(r.unsureBelow > 0.2 && r.unsureBelow < 0.99)
    }

    /// Held-out non-digits (the first four of each kind, not picked by outcome):
    /// Swift's confidence threshold (what an image alone is judged by) refuses
    /// exactly those Python's does, and the whole reading (the refusal rule,
    /// then the choice rule) is Python's: no digit, a choice of the same
    /// digits, or sure. Every scribble is no digit; no non-digit is read surely
    /// as a digit but a few (two digits on top of each other that make a third).
    /// (Since issue 43 the rule judges by the network's probabilities alone:
    /// it refuses fewer digits of hands it never saw, and a scribble the
    /// network holds for 4 or 9 is offered as that choice.)
    @Test func nonDigitsAreRefusedLikeInPython() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        let cases = try fixtureLines(NonDigitLinesFixture.json)
        #expect(cases.count == 16)
        var readSurely = 0
        for c in cases {
            let kind = c["kind"]?.string ?? ""
            let drawing = try RecognizeLines.parseDrawing(try #require(c["line"]?.string))
            let result = try r.recognize(drawing, in: ws)
            let python = try #require(c["confidence"]?.number)
            #expect(abs(Double(result.confidence) - python) < 1e-4)
            if abs(python - Double(r.unsureBelow)) > 1e-3 {
                #expect((result.confidence < r.unsureBelow) == (c["unsure"] == .bool(true)), "\(kind)")
            }
            // Near the choice rule's edges the network's last bits may tip it.
            let p = result.probabilities.sorted(by: >)
            let edge = abs(p[0] - r.choiceRule.below) < 1e-3 || (1...3).contains { k in
                abs(p.prefix(k).reduce(0, +) - r.choiceRule.mass) < 1e-3 }
            if !edge {
                #expect(result.unsure == (c["reading"] == .string("no digit")), "\(kind) at \(result.confidence)")
                #expect(result.choices == (c["choices"]?.array ?? []).compactMap(\.integer), "\(kind)")
            }
            // A scribble is never read surely: no digit, or (held for one of a
            // few digits) a choice the player must still pick right from.
            if kind == "scribble" { #expect(result.unsure || !result.choices.isEmpty, "a scribble read as \(result.digit)") }
            if !result.unsure && result.choices.isEmpty { readSurely += 1 }
        }
        #expect(readSurely <= 4, "\(readSurely)/16 non-digits read surely as a digit")
    }

    /// The 30 digit drawings by unseen writers are all read, none refused, but
    /// the mouse's three points of a 3 with a cusp (a ">"; NumberReadingTests'
    /// `ambiguous`).
    @Test func digitsAreNotRefused() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        var refused = 0
        for c in try fixtureLines(StrokeLinesFixture.json) {
            let result = try r.recognize(try RecognizeLines.parseDrawing(try #require(c["line"]?.string)), in: ws)
            if c["label"] == .int(3) && c["style"] == .string("cusp") { continue }
            #expect(!result.unsure, "a \(c["label"]?.number ?? -1) refused at \(result.confidence)")
            if result.unsure { refused += 1 }
        }
        #expect(refused == 0)
    }

    /// A tap or a tick of the pen on the digit pad (inside the digit, beside
    /// it, above it), written before or after the digit, changes nothing of its
    /// reading (digit, confidence, refusal): `recognize` leaves it out
    /// (`Recognizer.speckSize`). Read as ink, such marks get digits refused or
    /// misread.
    @Test func tapsAndTicksBesideADigitChangeNothing() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        var total = 0, changedAsInk = 0, readAlone = 0
        for c in try fixtureLines(StrokeLinesFixture.json) {
            let drawing = try RecognizeLines.parseDrawing(try #require(c["line"]?.string))
            let label = Int(try #require(c["label"]?.number))
            let alone = try r.recognize(drawing, in: ws)
            readAlone += alone.digit == label && !alone.unsure ? 1 : 0
            let points = drawing.strokes.joined()
            let x0 = points.map(\.x).min()!, x1 = points.map(\.x).max()!
            let y0 = points.map(\.y).min()!, y1 = points.map(\.y).max()!
            let h = y1 - y0
            let places = [((x0 + x1) / 2, (y0 + y1) / 2), (x1 + 0.3 * h, y0 + 0.6 * h), (x0 - 0.2 * h, y0 - 0.15 * h)]
            for (x, y) in places {
                for tick in [false, true] {
                    for first in [false, true] {
                        let mark = tick ? [StrokePoint(x: x, y: y), StrokePoint(x: x + 0.03 * h, y: y + 0.02 * h)]
                                        : [StrokePoint(x: x, y: y)]
                        let marked = Drawing(strokes: first ? [mark] + drawing.strokes : drawing.strokes + [mark])
                        total += 1
                        let read = try r.recognize(marked, in: ws)
                        #expect(read.digit == alone.digit && read.confidence == alone.confidence && read.unsure == alone.unsure,
                                "a \(label) with a \(tick ? "tick" : "tap") at (\(x), \(y))")
                        let asInk = try r.recognize(marked, in: ws, speckSize: 0)
                        if asInk.digit != alone.digit || asInk.unsure != alone.unsure { changedAsInk += 1 }
                    }
                }
            }
        }
        #expect(total == 360)
        // All but the squeezed 8 (read as 1) and the ">" of a 3 (NumberReadingTests' `ambiguous`).
        #expect(readAlone >= 28, "\(readAlone) of 30 read right alone")
        // Read as ink, some marks change the reading (32 of the 360 here).
        #expect(changedAsInk > 0)
    }

    /// `mindpad recognize` says whether a reading is unsure.
    @Test func recognizeLinesWritesUnsure() throws {
        let digit = try #require(try fixtureLines(StrokeLinesFixture.json).first?["line"]?.string)
        let scribble = try #require(try fixtureLines(NonDigitLinesFixture.json).first { $0["kind"]?.string == "scribble" }?["line"]?.string)
        var input = [digit, scribble][...]
        var output: [String] = []
        RecognizeLines.run(recognizer: try Recognizer.bundled(), input: { input.popFirst() }, output: { output.append($0) })
        #expect(try JSON.parse(output[0])["unsure"] == .bool(false))
        #expect(try JSON.parse(output[1])["unsure"] == .bool(true))
    }
}
