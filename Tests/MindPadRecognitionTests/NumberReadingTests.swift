import Foundation
import MindPadJSON
import Testing
@testable import MindPadRecognition

/// The fixture's 30 digit drawings (3 per digit, writers training never saw),
/// each read correctly on its own: the parts numbers are built from here, so a
/// wrong number is the segmenter's fault.
private let fixtureDigits: [(digit: Int, style: String, drawing: Drawing)] = {
    guard case .array(let cases) = try? JSON.parse(StrokeLinesFixture.json) else { return [] }
    return cases.compactMap { c in
        guard let line = c["line"]?.string, let label = c["label"]?.number, let style = c["style"]?.string,
              let drawing = try? RecognizeLines.parseDrawing(line)
        else { return nil }
        return (Int(label), style, drawing)
    }
}()

private func digit(_ d: Int, _ style: String? = nil, _ k: Int = 0) -> Drawing {
    let all = fixtureDigits.filter { $0.digit == d && (style == nil ? !ambiguous($0) : $0.style == style) }
    return all[k % all.count].drawing
}

/// Two fixture drawings no reader should be held to. The squeezed one-stroke
/// 8 ("sloop") reads as a 1 with a small loop: the single-digit network
/// takes it for a 1 (0.997 since issue 43), and so do the number reader's
/// networks. The 3 with a cusp is a mouse's three points, a ">": the
/// number network takes it for no digit, and the single-digit network
/// trained on every writer source (issue 43) for a 7 at 0.53 (the one
/// before it, trained on the synthetic writers alone, for a 3). Tests that
/// need an 8 or a 3 beside other digits take one of the others.
private func ambiguous(_ f: (digit: Int, style: String, drawing: Drawing)) -> Bool {
    (f.digit == 8 && f.style == "sloop") || (f.digit == 3 && f.style == "cusp")
}

private func box(_ strokes: [[StrokePoint]]) -> InkBox {
    var b = InkBox(x0: .infinity, y0: .infinity, x1: -.infinity, y1: -.infinity)
    for s in strokes {
        for p in s {
            b.x0 = min(b.x0, p.x); b.x1 = max(b.x1, p.x)
            b.y0 = min(b.y0, p.y); b.y1 = max(b.y1, p.y)
        }
    }
    return b
}

/// Writes a number left to right from fixture digits, like a player on the
/// wide pad: each digit scaled to `height` × its size, its box `gap` heights
/// after the previous one (negative: overlapping boxes), its bottom on the
/// baseline + `lift` heights; `joined` runs the pen on from the previous digit's
/// last stroke into this one's first (one stroke across both).
private struct NumberWriter {
    var height = 100.0
    var baseline = 300.0
    var strokes: [[StrokePoint]] = []
    /// Where each digit's own ink went, in order.
    var boxes: [InkBox] = []
    var right = 20.0

    mutating func add(_ d: Drawing, gap: Double = 0.35, size: Double = 1, lift: Double = 0, joined: Bool = false) {
        let b = box(d.strokes)
        let scale = height * size / max(b.y1 - b.y0, 1e-9)
        let dx = (boxes.isEmpty ? right : right + gap * height) - b.x0 * scale
        let dy = baseline - lift * height - b.y1 * scale
        let placed = d.strokes.map { $0.map { StrokePoint(x: $0.x * scale + dx, y: $0.y * scale + dy, t: $0.t) } }
        boxes.append(box(placed))
        right = boxes.last!.x1
        if joined, !strokes.isEmpty {
            strokes[strokes.count - 1] += placed[0]
            strokes += placed.dropFirst()
        } else {
            strokes += placed
        }
    }

    var drawing: Drawing { Drawing(strokes: strokes) }
}

/// How many groups of strokes the segmenter sees.
private func groupCount(_ d: Drawing, tuning: NumberReadingTuning = .standard) -> Int {
    let recognizer = try! Recognizer.bundled()
    var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: tuning)
    return segmenter.groups().count
}

/// Every combination of one value from each axis (the cases of a sweep).
private func grid(_ axes: [Double]...) -> [[Double]] {
    axes.reduce([[]]) { cases, axis in cases.flatMap { c in axis.map { c + [$0] } } }
}

private func read(_ w: NumberWriter) throws -> NumberReading {
    let recognizer = try Recognizer.bundled()
    return try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace())
}

/// Writes `number` with the given digit styles (nil: the first) and gaps.
private func written(_ number: String, gap: Double = 0.35, styles: [String?] = [], variant: Int = 0) -> NumberWriter {
    var w = NumberWriter()
    for (i, ch) in number.enumerated() {
        let style = i < styles.count ? styles[i] : nil
        w.add(digit(Int(String(ch))!, style, variant + i), gap: gap)
    }
    return w
}


@Suite struct NumberReadingTests {
    /// Every fixture digit is read alone by the number network, and as a
    /// one-digit "number", but the two `ambiguous` ones: the squeezed 8
    /// reads as 1 both ways, and the ">" of a 3 is no surely read 3.
    @Test func fixtureDigitsAreReadAlone() throws {
        let recognizer = try Recognizer.bundled()
        #expect(fixtureDigits.count == 30)
        for f in fixtureDigits {
            let alone = try recognizer.numbers.recognize(f.drawing).digit
            #expect((alone == f.digit) == !ambiguous(f), "\(f.style): \(alone)")
            let reading = try recognizer.readNumber(f.drawing, in: recognizer.makeWorkspace())
            if f.digit == 8 && f.style == "sloop" {
                #expect(reading.number == "1")
            } else if ambiguous(f) {
                #expect(reading.digits.count == 1 && (reading.number != "3" || !reading.digits[0].choices.isEmpty))
            } else {
                #expect(reading.number == "\(f.digit)", "\(f.style)")
            }
        }
    }

    @Test(arguments: ["3240", "2139", "1999", "2000", "857", "46", "605172", "98", "314159"])
    func gapsSplit(_ number: String) throws {
        for variant in 0..<3 {
            let w = written(number, variant: variant)
            let r = try read(w)
            #expect(r.digits.count == number.count, "variant \(variant): read \(r.number)")
            #expect(r.number == number, "variant \(variant)")
            if r.digits.count == number.count {
                // Each digit's box is where its ink is.
                for (d, b) in zip(r.digits, w.boxes) {
                    #expect(abs(d.box.x0 - b.x0) < 1e-6 && abs(d.box.x1 - b.x1) < 1e-6)
                    #expect(abs(d.box.y0 - b.y0) < 1e-6 && abs(d.box.y1 - b.y1) < 1e-6)
                }
            }
            #expect(r.confidence == r.digits.map(\.confidence).min())
        }
    }

    /// Which network a digit of a number gets its reading from: the
    /// candidates network's (`Recognizer.candidates`, which weighed the
    /// candidates), unless it reads the digit less surely than
    /// `candidateRereadBelow`; then what the number network (`numbers`) and
    /// the single-digit network agree on (`Recognition.agreeing`), unsure
    /// only when both are. Digits written apart, so each is read from its
    /// own ink: the same image as the digit alone.
    @Test(arguments: [0, 1, 2]) func digitsAreReadAgainByTheNumberAndSingleDigitNetworks(_ variant: Int) throws {
        let recognizer = try Recognizer.bundled()
        let candidates = try #require(recognizer.candidates)
        let ws = recognizer.makeWorkspace()
        let number = "3217904"
        let w = written(number, variant: variant)
        var always = NumberReadingTuning.standard
        always.candidateRereadBelow = 2
        let again = try recognizer.readNumber(w.drawing, in: ws, tuning: always)
        let standard = try recognizer.readNumber(w.drawing, in: ws)
        #expect(again.number == number && standard.number == number)
        var moved = 0
        for (k, ch) in number.enumerated() {
            let alone = digit(Int(String(ch))!, nil, variant + k)
            let byCandidates = candidates.recognize(alone, part: .whole, in: ws)
            let byNumbers = recognizer.numbers.recognize(alone, part: .whole, in: ws)
            let agreed = byNumbers.agreeing(with: recognizer.recognize(alone, part: .whole, in: ws))
            #expect(abs(again.digits[k].confidence - agreed.confidence) < 1e-4)
            #expect(again.digits[k].digit == agreed.digit && again.digits[k].unsure == agreed.unsure)
            let asked = byCandidates.confidence < NumberReadingTuning.standard.candidateRereadBelow
            let expected = asked ? agreed : byCandidates
            #expect(standard.digits[k].digit == expected.digit && standard.digits[k].unsure == expected.unsure)
            #expect(abs(standard.digits[k].confidence - expected.confidence) < 1e-4)
            // The agreement is not the number network's reading alone.
            if agreed.probabilities != byNumbers.probabilities { moved += 1 }
        }
        #expect(moved == number.count)
    }

    /// Some fixture digits are read again in a number (the candidates network
    /// less sure of them than `candidateRereadBelow`): the path above is taken.
    @Test func someDigitsAreReadAgain() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        let asked = try fixtureDigits.filter { f in
            try #require(recognizer.candidates).recognize(f.drawing, part: .whole, in: ws).confidence
                < NumberReadingTuning.standard.candidateRereadBelow
        }
        #expect(asked.count >= 1, "a fixture digit is read again")
    }

    /// Two readings agreeing: their probabilities multiplied and scaled to
    /// one; a digit both think likely wins over one each thinks likeliest.
    @Test func agreeingMultipliesTheProbabilities() {
        func reading(_ p: [Float], unsure: Bool = false) -> Recognition {
            var storage = SIMD16<Float>()
            for (i, v) in p.enumerated() { storage[i] = v }
            let best = p.indices.max { p[$0] < p[$1] }!
            return Recognition(digit: best, confidence: p[best], probabilities: DigitProbabilities(storage), unsure: unsure)
        }
        let a = reading([0.5, 0.1, 0.4, 0, 0, 0, 0, 0, 0, 0])
        let b = reading([0.1, 0.5, 0.4, 0, 0, 0, 0, 0, 0, 0], unsure: true)
        let both = a.agreeing(with: b)
        #expect(both.digit == 2)
        #expect(abs(both.confidence - 0.16 / 0.26) < 1e-6)
        #expect(abs(both.probabilities.reduce(0, +) - 1) < 1e-6)
        #expect(!both.unsure && a.agreeing(with: reading([0.5, 0.1, 0.4, 0, 0, 0, 0, 0, 0, 0], unsure: true)).unsure == false)
        #expect(reading([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], unsure: true).agreeing(with: b).unsure)
        // Readings with no digit in common: their probabilities added.
        let apart = reading([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]).agreeing(with: reading([0, 0, 0, 1, 0, 0, 0, 0, 0, 0]))
        #expect(apart.confidence == 0.5 && (apart.digit == 0 || apart.digit == 3))
    }

    @Test(arguments: ["010", "0042", "00", "000910"])
    func leadingZerosAreKept(_ number: String) throws {
        let r = try read(written(number))
        #expect(r.number == number)
    }

    /// Small gaps still split: digits a fifth of their height apart.
    @Test func smallGapsSplit() throws {
        for number in ["5308", "7216", "94"] {
            #expect(try read(written(number, gap: 0.18)).number == number)
        }
    }

    /// A 4, a 5 and a crossed 7 drawn in two strokes stay one digit each, also
    /// when the second stroke only nearly touches the first.
    @Test func twoStrokeDigitsStayWhole() throws {
        let fours = fixtureDigits.filter { $0.digit == 4 && $0.drawing.strokes.count == 2 }
        let fives = fixtureDigits.filter { $0.digit == 5 && $0.drawing.strokes.count == 2 }
        let sevens = fixtureDigits.filter { $0.digit == 7 && $0.drawing.strokes.count == 2 }
        #expect(fours.count >= 2 && fives.count >= 1 && sevens.count >= 2)
        for (a, b, c) in [(fours[0], fives[0], sevens[0]), (fours[1], fives[0], sevens[1])] {
            var w = NumberWriter()
            for d in [a, b, c, a] { w.add(d.drawing) }
            #expect(try read(w).number == "4574")
        }
        // The second stroke lifted off and put down 4 % of the height to the
        // left or right: where the strokes met there is now a small gap, far
        // smaller than the space between digits.
        for d in fours + fives + sevens {
            for side in [-1.0, 1.0] {
                var strokes = d.drawing.strokes
                let all = box(strokes)
                let shift = side * 0.04 * (all.y1 - all.y0)
                strokes[1] = strokes[1].map { StrokePoint(x: $0.x + shift, y: $0.y, t: $0.t) }
                var w = NumberWriter()
                w.add(digit(1))
                w.add(Drawing(strokes: strokes))
                w.add(digit(8))
                let r = try read(w)
                #expect(r.number == "1\(d.digit)8", "\(d.style) moved \(side)")
            }
        }
    }

    @Test func unevenSizesAndBaselines() throws {
        let number = "472093"
        let sizes = [1.0, 0.75, 1.2, 0.85, 1.1, 0.8]
        let lifts = [0.0, 0.15, -0.1, 0.2, -0.05, 0.1]
        var w = NumberWriter()
        for (i, ch) in number.enumerated() {
            w.add(digit(Int(String(ch))!, nil, i), gap: 0.3, size: sizes[i], lift: lifts[i])
        }
        let r = try read(w)
        #expect(r.digits.count == 6)
        #expect(r.number == number)
    }

    /// The digits of one number share a height: a "digit" read lower than
    /// `flatDigit` of the median one (a 5's bar parted from its body and read
    /// on its own, at about 0.1) joins its nearest neighbour, whose reading
    /// stands and whose box grows to hold it. A small digit among large ones
    /// stays.
    @Test func flatDigitsJoinTheirNeighbour() {
        func d(_ digit: Int, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> DigitReading {
            DigitReading(digit: digit, confidence: 0.9, box: InkBox(x0: x0, y0: y0, x1: x1, y1: y1))
        }
        // 1, 5 and its bar (read as an 8, overlapping the 5's box), 7.
        let read = [d(1, 0, 200, 20, 300), d(5, 60, 210, 120, 300), d(8, 110, 196, 150, 204), d(7, 190, 200, 250, 300)]
        let kept = NumberSegmenter.droppingFlat(read, below: 0.3)
        #expect(kept.map(\.digit) == [1, 5, 7])
        #expect(kept[1].box == InkBox(x0: 60, y0: 196, x1: 150, y1: 300))
        #expect(kept[0] == read[0] && kept[2] == read[3])
        // Flat at either end: it joins the one neighbour it has.
        let ends = [d(3, -40, 200, -10, 205), d(4, 0, 200, 60, 300), d(2, 80, 200, 140, 300), d(1, 150, 290, 190, 298)]
        let joined = NumberSegmenter.droppingFlat(ends, below: 0.3)
        #expect(joined.map(\.digit) == [4, 2])
        #expect(joined[0].box == InkBox(x0: -40, y0: 200, x1: 60, y1: 300))
        #expect(joined[1].box == InkBox(x0: 80, y0: 200, x1: 190, y1: 300))
        // A small digit (0.35 of the others' height) stays; share 0 changes nothing.
        let small = [d(1, 0, 200, 20, 300), d(0, 60, 265, 90, 300), d(7, 130, 200, 190, 300)]
        #expect(NumberSegmenter.droppingFlat(small, below: 0.3) == small)
        #expect(NumberSegmenter.droppingFlat(read, below: 0) == read)
        // Two flat "digits" alone: one of them stays (a number has a digit).
        let two = [d(1, 0, 200, 20, 205), d(1, 40, 200, 60, 205)]
        #expect(NumberSegmenter.droppingFlat(two, below: 0.3).count == 2)
    }

    /// A "digit" of full height read less surely than `strayConfidence`
    /// (0.3) beside one read more surely is ink the network takes for no
    /// digit (a 5's bar with the 1's foot beside it, read as a 2 at 0.2): it
    /// joins its nearest neighbour like a flat one. One beside a neighbour as
    /// unsure stays (a number has digits), and so does everything with
    /// `unsureBelow` 0 (the flat rule alone).
    @Test func strayDigitsJoinTheirNeighbour() {
        func d(_ digit: Int, _ confidence: Float, _ x0: Double, _ x1: Double) -> DigitReading {
            DigitReading(digit: digit, confidence: confidence, box: InkBox(x0: x0, y0: 200, x1: x1, y1: 300))
        }
        let stray = NumberReadingTuning.standard.strayConfidence
        #expect(stray == 0.3)
        // 1, a stray "2" nearer the 5 than the 1, 5.
        let read = [d(1, 0.99, 0, 20), d(2, 0.2, 50, 90), d(5, 0.98, 95, 150)]
        let kept = NumberSegmenter.droppingFlat(read, below: 0.3, unsureBelow: stray)
        #expect(kept.map(\.digit) == [1, 5])
        #expect(kept[1].box == InkBox(x0: 50, y0: 200, x1: 150, y1: 300))
        #expect(kept[1].confidence == 0.98)
        #expect(NumberSegmenter.droppingFlat(read, below: 0.3) == read)
        // Read at 0.3 or more: a digit.
        let sure = [d(1, 0.99, 0, 20), d(2, 0.31, 50, 90), d(5, 0.98, 95, 150)]
        #expect(NumberSegmenter.droppingFlat(sure, below: 0.3, unsureBelow: stray) == sure)
        // Two unsure digits side by side: neither joins the other.
        let unsure = [d(7, 0.2, 0, 40), d(1, 0.25, 60, 80)]
        #expect(NumberSegmenter.droppingFlat(unsure, below: 0.3, unsureBelow: stray) == unsure)
    }

    /// A digit drawn in two strokes one above the other that do not touch (a
    /// 9's loop, and its stem starting below and right of it) is one group:
    /// neighbouring digits share most of their height. Uneven digits side by
    /// side (smaller, lifted) stay apart.
    @Test func stackedStrokesAreOneGroup() throws {
        var loop: [StrokePoint] = []
        for k in 0...24 {
            let a = Double(k) / 24 * 2 * Double.pi
            loop.append(StrokePoint(x: 0.5 + 0.35 * cos(a), y: 0.25 + 0.25 * sin(a), t: Double(k) * 10))
        }
        let stem = (0...8).map { k in StrokePoint(x: 0.98 - 0.05 * Double(k) / 8, y: 0.55 + 0.45 * Double(k) / 8, t: 300 + Double(k) * 10) }
        let nine = Drawing(strokes: [loop, stem])
        var w = NumberWriter()
        w.add(digit(1))
        w.add(nine)
        w.add(digit(2))
        #expect(groupCount(w.drawing) == 3)
        var apart = NumberReadingTuning.standard
        apart.stackOverlap = 0
        #expect(groupCount(w.drawing, tuning: apart) == 4)
        #expect(try read(w).digits.count == 3)
        // Side by side, one digit 0.6 the other's size and lifted by 0.2: two groups.
        var u = NumberWriter()
        u.add(digit(3))
        u.add(digit(5), gap: 0.1, size: 0.6, lift: 0.2)
        #expect(groupCount(u.drawing) == 2)
    }

    /// Touching digits: moved together until their ink is one group of strokes
    /// (touching or crossing a little), they are cut where the ink is thinnest.
    @Test(arguments: ["23", "56", "307", "84", "20", "580"])
    func touchingDigitsAreCut(_ number: String) throws {
        let recognizer = try Recognizer.bundled()
        var gap = 0.1
        var w = written(number, gap: gap)
        while groupCount(w.drawing) > 1 && gap > -0.3 {
            gap -= 0.01
            w = written(number, gap: gap)
        }
        #expect(groupCount(w.drawing) == 1, "never touch")
        #expect(gap < 0.1, "touch from the start")
        let r = try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace())
        #expect(r.digits.count == number.count, "read \(r.number) with gap \(gap)")
        #expect(r.number == number, "gap \(gap)")
    }

    /// Overlapping digits drawn with separate strokes: moved together until
    /// their ink is one group, then 5 % of the height further (the boxes
    /// overlap, the ink crosses), they part between their strokes in the order
    /// written: each digit is its own strokes, whole (its box is its ink's, not
    /// a cut's).
    @Test(arguments: ["23", "56", "17", "84", "307", "4510", "20", "580"])
    func overlappingDigitsPartByStrokeOrder(_ number: String) throws {
        var gap = 0.1
        while groupCount(written(number, gap: gap).drawing) == number.count && gap > -0.3 { gap -= 0.01 }
        gap -= 0.05
        let w = written(number, gap: gap)
        #expect(groupCount(w.drawing) < number.count, "overlap")
        let r = try read(w)
        #expect(r.number == number, "gap \(gap)")
        if r.digits.count == number.count {
            for (d, b) in zip(r.digits, w.boxes) {
                #expect(abs(d.box.x0 - b.x0) < 1e-6 && abs(d.box.x1 - b.x1) < 1e-6, "gap \(gap)")
            }
        }
    }

    /// Two digits written far into each other (until their ink is at most 1.5
    /// times as wide as the wider digit alone; the test above stops 0.05
    /// heights after they first touch) part in the order written, and a
    /// two-stroke 4 written next to them, which the one-digit exits now ask
    /// stroke order about too, stays whole. (With the fixture's digits the
    /// pairs read right with or without `orderAtExits`: what that fixes, pairs
    /// the network reads as one sure digit, is measured on the dev set.)
    @Test(arguments: ["90", "38", "48", "56", "23", "07"])
    func digitsWrittenIntoEachOtherPartByStrokeOrder(_ number: String) throws {
        func widths(_ w: NumberWriter) -> (group: Double, digits: Double)? {
            let recognizer = try! Recognizer.bundled()
            var segmenter = NumberSegmenter(w.drawing, recognizer: recognizer, workspace: recognizer.makeWorkspace(),
                                            tuning: .standard)
            let groups = segmenter.groups()
            guard groups.count == 1 else { return nil }
            return (groups[0].width, max(w.boxes[0].x1 - w.boxes[0].x0, w.boxes[1].x1 - w.boxes[1].x0))
        }
        var gap = 0.0
        var w = written(number, gap: gap)
        while gap > -1 {
            if let (group, digits) = widths(w), group <= 1.5 * digits { break }
            gap -= 0.02
            w = written(number, gap: gap)
        }
        let (group, digits) = try #require(widths(w), "one group")
        #expect(group <= 1.5 * digits, "overlap")
        let r = try read(w)
        #expect(r.digits.count == 2, "gap \(gap): read \(r.number)")
        #expect(r.number == number, "gap \(gap)")
        var withFour = written(number, gap: gap)
        withFour.add(fixtureDigits.first { $0.digit == 4 && $0.drawing.strokes.count == 2 }!.drawing)
        #expect(try read(withFour).number == number + "4", "gap \(gap)")
    }

    /// The runs by stroke order, asked directly: a group of two overlapping
    /// digits is two runs, a two-stroke 4 or crossed 7 alone is none (one digit).
    @Test func strokeOrderRuns() throws {
        let recognizer = try Recognizer.bundled()
        func runs(_ d: Drawing) -> [(Recognition, InkPart)]? {
            var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(),
                                            tuning: .standard)
            let groups = segmenter.groups()
            _ = segmenter.read()  // sets the typical width
            guard groups.count == 1 else { return nil }
            let whole = recognizer.numbers.recognize(d, part: .whole, in: recognizer.makeWorkspace())
            return segmenter.readByOrder(groups[0], whole: whole, wholeWidth: groups[0].width)?.runs
        }
        let pair = written("56", gap: -0.25).drawing
        let two = try #require(runs(pair))
        #expect(two.map(\.0.digit) == [5, 6])
        #expect(two.map(\.1.strokes.nonzeroBitCount) == [digit(5).strokes.count, digit(6).strokes.count])
        for d in fixtureDigits where [4, 7].contains(d.digit) && d.drawing.strokes.count == 2 {
            #expect(runs(d.drawing) == nil, "\(d.style)")
        }
    }

    /// Touching digits' ink meets and overlaps a little: the next run may
    /// reach back over the previous one's edges by up to `orderSlack` (−0.03)
    /// heights at no order cost (a stroke 0.01 heights right of another, both
    /// as tall: nothing; with the slack 0.02 of before it cost), while a
    /// two-stroke 4's second stroke, inside its digit, still costs (less than
    /// before for one fixture 4; `strokeOrderRuns` checks it still reads as
    /// one digit).
    @Test func touchingRunsOverlapALittleAtNoOrderCost() throws {
        let recognizer = try Recognizer.bundled()
        func cost(_ d: Drawing, slack: Double? = nil) -> Double {
            var tuning = NumberReadingTuning.standard
            if let slack { tuning.orderSlack = slack }
            var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: tuning)
            _ = segmenter.groups()
            let boxes = d.strokes.map { box([$0]) }
            return segmenter.orderCost(after: [segmenter.slot[0]][...], [segmenter.slot[1]][...], boxes[0], boxes[1])
        }
        func line(_ x: Double) -> [StrokePoint] { (0...10).map { StrokePoint(x: x, y: 200 + 10 * Double($0), t: 0) } }
        let close = Drawing(strokes: [line(100), line(101)])
        #expect(cost(close) == 0)
        #expect(cost(close, slack: 0.02) > 0.05)
        #expect(cost(Drawing(strokes: [line(100), line(96)])) > 0)  // 0.04 heights back: past the slack
        for four in fixtureDigits where four.digit == 4 && four.drawing.strokes.count == 2 {
            #expect(cost(four.drawing) > 0, "\(four.style)")
        }
    }

    /// A run holding two digits' strokes costs `innerOrderCost`: strokes that
    /// part in two standing as two digits would (in order, both tall as
    /// digits; `standApart`). Two one-stroke fixture digits of one style
    /// written touching do (31 pairs); no way of parting the strokes of a
    /// fixture digit drawn in several does (a 4's crossing strokes, a 5's
    /// bar, a 7's crossbar).
    @Test func twoDigitsInOneRunStandApart() throws {
        let recognizer = try Recognizer.bundled()
        func apart(_ d: Drawing, at k: Int) -> Bool {
            var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: .standard)
            _ = segmenter.groups()
            let rows = d.strokes.indices.map { segmenter.slot[$0] }
            return segmenter.standApart(rows[..<k], rows[k...], box(Array(d.strokes[..<k])), box(Array(d.strokes[k...])))
        }
        var pairs = 0
        for a in fixtureDigits where a.drawing.strokes.count == 1 {
            for b in fixtureDigits where b.drawing.strokes.count == 1 && b.style == a.style {
                var w = NumberWriter()
                w.add(a.drawing)
                w.add(b.drawing, gap: 0)
                let parted = apart(w.drawing, at: 1)
                #expect(parted, "\(a.digit)\(b.digit) \(a.style)")
                pairs += 1
            }
        }
        #expect(pairs >= 20)
        let several = fixtureDigits.filter { $0.drawing.strokes.count >= 2 }
        #expect(several.count >= 3)
        for d in several {
            for k in 1..<d.drawing.strokes.count {
                #expect(!apart(d.drawing, at: k), "\(d.digit) \(d.style)")
            }
        }
    }

    /// The pre-gate passes only groups the network reads surely
    /// (`preGateConfidence` 0.9): two digits joined by the pen that read
    /// unsurely as one are read by their cuts and stroke order even where
    /// the pre-gate would pass every group (floor +∞); with no confidence
    /// asked for (0) they read as one digit, unless the exits ask the group
    /// again (`apartAtExits`: 5 of these 6 then split where their pieces
    /// stand apart, and read right; the 7 run on into a 1 reads 7).
    @Test(arguments: ["01", "10", "46", "71", "80", "95"])
    func unsureGroupsPassNoPreGate(_ number: String) throws {
        let recognizer = try Recognizer.bundled()
        let w = oneStroke(number)
        let whole = recognizer.numbers.recognize(w.drawing, part: .whole, in: recognizer.makeWorkspace())
        #expect(whole.confidence < NumberReadingTuning.standard.preGateConfidence)
        var passAll = NumberReadingTuning.standard
        passAll.wayWeights = []  // the pen's way left in the stroke: this is about reading it there
        passAll.preGateFloor = .infinity
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: passAll).number == number)
        passAll.preGateConfidence = 0
        passAll.apartAtExits = false
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: passAll).digits.count == 1)
        passAll.apartAtExits = true
        let asked = try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: passAll).number
        #expect(asked == (number == "71" ? "7" : number), "read \(asked)")
    }

    /// Two digits stand side by side: a run that follows another while
    /// sharing less than `stackedShare` of the shorter's height (one on the
    /// other: an 8's two loops, each a sure 0 alone) costs
    /// `stackedOrderCost` more as the next digit; digits of uneven sizes
    /// and baselines side by side cost nothing more (dev 1912 -> 1915 of
    /// 2,000, an 8 read as 00 and three digits split in two among them;
    /// docs/recognition.md).
    @Test func runsOneOnTheOtherAreNoTwoDigits() throws {
        func loop(_ cx: Double, _ cy: Double, _ r: Double, from t0: Double) -> [StrokePoint] {
            (0...24).map { k in
                let a = Double(k) / 24 * 2 * Double.pi - Double.pi / 2
                return StrokePoint(x: cx + 0.8 * r * cos(a), y: cy + r * sin(a), t: t0 + Double(k) * 10)
            }
        }
        let recognizer = try Recognizer.bundled()
        // The stacked rule alone: a digit half the size written at the top of
        // the line (size 0.5, lift 0.45 below) also hangs beside the one before
        // it, and pays `hangCost` (aLoopHangingFromAStemIsOneDigit).
        var tuning = NumberReadingTuning.standard
        tuning.hangCost = 0
        #expect(tuning.stackedOrderCost > 0)
        /// The order cost of stroke 1 following stroke 0.
        func cost(_ d: Drawing) -> Double {
            var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: tuning)
            _ = segmenter.groups()
            let boxes = d.strokes.map { box([$0]) }
            return segmenter.orderCost(after: [segmenter.slot[0]], [segmenter.slot[1]], boxes[0], boxes[1])
        }
        // One loop on the other, the lower one moved right by up to half a
        // loop: it follows at no cost by the edges, at the stacked cost in all.
        for shift in stride(from: 0.0, through: 0.25, by: 0.05) {
            for gap in [0.0, 0.05, 0.2] {
                let eight = Drawing(strokes: [loop(0.5, 0.25, 0.25, from: 0), loop(0.5 + shift, 0.75 + gap, 0.25, from: 400)])
                #expect(cost(eight) >= tuning.stackedOrderCost, "shift \(shift), gap \(gap)")
            }
        }
        // Two one-stroke fixture digits side by side, the second smaller and
        // lifted (as written on an uneven line): no stacked cost.
        let ones = fixtureDigits.filter { $0.drawing.strokes.count == 1 }
        for (size, lift) in [(1.0, 0.0), (0.6, 0.2), (0.5, 0.45), (1.0, 0.4)] {
            for i in 0..<min(8, ones.count) {
                let (a, b) = (ones[i], ones[(i + 7) % ones.count])
                var w = NumberWriter()
                w.add(a.drawing)
                w.add(b.drawing, gap: 0.3, size: size, lift: lift)
                #expect(cost(w.drawing) < tuning.stackedOrderCost, "\(a.digit) then \(b.digit), size \(size), lift \(lift)")
            }
        }
    }

    /// Digits of a number stand side by side, each clear of the next on some
    /// slant however they lean: neighbouring groups that overlap side to
    /// side by `sideOverlap` of the narrower on every slant are one group
    /// (dev set 1915 -> 1921 of 2,000; docs/recognition.md) and read by
    /// stroke order. Every pair of one-stroke fixture digits, 0.05-0.3
    /// heights apart and leaning 0-0.6, is clear (their boxes overlap once
    /// they lean); fixture pairs written 0.1-0.3 heights into each other
    /// without touching, which the rule alone joins, read as their two digits.
    @Test func digitsSideBySideAreClearOnSomeSlant() throws {
        let recognizer = try Recognizer.bundled()
        let tuning = NumberReadingTuning.standard
        #expect(tuning.sideOverlap > 0)
        func across(_ d: Drawing, _ a: UInt64, _ b: UInt64) -> Double {
            var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: tuning)
            _ = segmenter.groups()
            return segmenter.across(a, b)
        }
        /// Leans the ink right by `lean` of its height (top to the right).
        func leaning(_ strokes: [[StrokePoint]], _ lean: Double) -> Drawing {
            let b = box(strokes)
            return Drawing(strokes: strokes.map { $0.map { StrokePoint(x: $0.x + lean * (b.y1 - $0.y), y: $0.y, t: $0.t) } })
        }
        let ones = fixtureDigits.filter { $0.drawing.strokes.count == 1 }
        var overlapping = 0
        for lean in [0.0, 0.3, 0.6] {
            for gap in [0.05, 0.15, 0.3] {
                for i in ones.indices {
                    let (a, b) = (ones[i], ones[(i + 11) % ones.count])
                    var w = NumberWriter()
                    w.add(a.drawing)
                    w.add(b.drawing, gap: gap)
                    let d = leaning(w.strokes, lean)
                    let (boxA, boxB) = (box([d.strokes[0]]), box([d.strokes[1]]))
                    if boxB.x0 < boxA.x1 { overlapping += 1 }
                    #expect(across(d, 1, 2) < tuning.sideOverlap, "\(a.digit) then \(b.digit), gap \(gap), lean \(lean)")
                }
            }
        }
        #expect(overlapping >= 10, "leaning digits' boxes overlap")
        // Two fixture digits written into each other's space (boxes
        // overlapping by 0.1-0.3 heights) without touching: one group, read
        // as two digits again by the order they were written in.
        var joined = 0
        var without = tuning
        without.sideOverlap = 0
        for gap in [-0.1, -0.2, -0.3] {
            for i in fixtureDigits.indices {
                let (a, b) = (fixtureDigits[i], fixtureDigits[(i + 7) % fixtureDigits.count])
                guard !ambiguous(a), !ambiguous(b) else { continue }
                var w = NumberWriter()
                w.add(a.drawing)
                w.add(b.drawing, gap: gap)
                let d = w.drawing
                let na = a.drawing.strokes.count
                let (sa, sb) = (UInt64(1) << UInt64(na) - 1, (UInt64(1) << UInt64(d.strokes.count) - 1) & ~(UInt64(1) << UInt64(na) - 1))
                guard groupCount(d, tuning: without) == 2, across(d, sa, sb) >= tuning.sideOverlap else { continue }
                #expect(groupCount(d) == 1, "\(a.digit)\(b.digit), gap \(gap)")
                #expect(try read(w).number == "\(a.digit)\(b.digit)", "gap \(gap)")
                joined += 1
            }
        }
        #expect(joined >= 3, "pairs the side rule alone joins")
    }

    /// A small digit of an uneven line is its own strokes: a run of them
    /// 0.7 of the height costs nothing as a digit (`runPieceHeight`; a side
    /// of a cut still must be 0.8, `pieceHeight`). A fixture 1 at 0.7-0.75
    /// the size written into each fixture digit (touching, boxes overlapping
    /// by 0.05 heights, one group) reads as two digits at the shipped height
    /// (64 of 67 when measured), fewer with runs held to the cuts' 0.8 (56)
    /// (dev 1921 -> 1925, wide 1859 -> 1871 of 2,000; docs/recognition.md).
    @Test func aSmallDigitWrittenIntoTheOneBeforeItIsADigit() throws {
        let recognizer = try Recognizer.bundled()
        var asCuts = NumberReadingTuning.standard
        asCuts.runPieceHeight = asCuts.pieceHeight
        #expect(NumberReadingTuning.standard.runPieceHeight < NumberReadingTuning.standard.pieceHeight)
        var shipped = 0, held = 0, tried = 0
        for size in [0.7, 0.75] {
            for a in fixtureDigits {
                for b in fixtureDigits where b.digit == 1 {
                    var w = NumberWriter()
                    w.add(a.drawing)
                    w.add(b.drawing, gap: -0.05, size: size)
                    guard groupCount(w.drawing) == 1 else { continue }
                    let number = "\(a.digit)1"
                    tried += 1
                    if try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace()).number == number { shipped += 1 }
                    if try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: asCuts).number == number { held += 1 }
                }
            }
        }
        #expect(tried >= 20)
        // 64 of 67 against 56 when measured.
        #expect(shipped * 10 >= tried * 9, "\(shipped) of \(tried)")
        #expect(shipped >= held + 5, "\(shipped) against \(held)")
    }

    /// Digits of a line share a baseline, small ones too: where one of two
    /// runs hangs beside the other (`hangs`: a 9's loop beside its stem, a
    /// sure 0 and a sure 1 alone), the later costs `hangCost` more as the
    /// next digit, and two such groups near each other are one (dev 1925 ->
    /// 1932, wide 1871 -> 1874 of 2,000; docs/recognition.md). 9s drawn as a loop 0.45-0.65 of the height and
    /// a stem from its right side (touching it or 0.06 heights off, leaning
    /// 0-0.3, the loop round or narrow) read 396 between a 3 and a 6; 50 of
    /// the 72 read 3016 with the rule off. Fixture digits side by side, the
    /// second 0.5-1 the size and lifted up to 0.2, never pay it. (Since issue
    /// 43 the joining of a digit's pieces, `joiningPieces`, joins such a 9 too:
    /// with the hang rule off and it on, 14 of the 72 break.)
    @Test func aLoopHangingFromAStemIsOneDigit() throws {
        let recognizer = try Recognizer.bundled()
        let tuning = NumberReadingTuning.standard
        #expect(tuning.hangCost > 0)
        var off = tuning
        off.hangCost = 0
        off.piecesGap = 0
        var nines = 0, apart = 0
        for p in grid([0.45, 0.55, 0.65], [0.0, 0.3], [0.0, 15, 30], [0.8, 1.1], [0.0, 6.0]) {
            let (tall, start, lean, aspect, gap) = (p[0], p[1], p[2], p[3], p[4])
            // A loop (counter-clockwise from its right side) at the top of a
            // 100-high digit, then a stem from its right side, `start` of the
            // loop's height down, to the baseline.
            let r = 50 * tall, cx = 130.0, cy = 200 + r
            let loop = (0...24).map { k -> StrokePoint in
                let a = -Double(k) / 24 * 2 * Double.pi
                return StrokePoint(x: cx + aspect * r * cos(a), y: cy + r * sin(a), t: Double(k) * 10)
            }
            let top = 200 + start * 2 * r
            let stem = (0...12).map { k -> StrokePoint in
                let f = Double(k) / 12
                return StrokePoint(x: cx + aspect * r + gap + lean * (0.5 - f), y: top + (300 - top) * f, t: 400 + Double(k) * 10)
            }
            let nine = Drawing(strokes: [loop, stem])
            var w = NumberWriter()
            w.add(digit(3))
            w.add(nine, gap: 0.35)
            w.add(digit(6), gap: 0.35)
            let label = "tall \(tall), start \(start), lean \(lean), aspect \(aspect), gap \(gap)"
            let got = try read(w).number
            #expect(got == "396", "\(label) read \(got)")
            if try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: off).number != "396" {
                apart += 1
            }
            nines += 1
        }
        #expect(nines == 72)
        #expect(apart >= 30, "\(apart) of 72 misread without the rule (50 when measured)")
        // Side by side: the order cost is the same with the rule on and off.
        func cost(_ d: Drawing, _ t: NumberReadingTuning) -> Double {
            var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: t)
            _ = segmenter.groups()
            let rows = d.strokes.indices.map { segmenter.slot[$0] }
            return segmenter.orderCost(after: rows[..<1], rows[1...], box([d.strokes[0]]), box(Array(d.strokes[1...])))
        }
        let ones = fixtureDigits.filter { $0.drawing.strokes.count == 1 }
        for (size, lift) in [(1.0, 0.0), (0.6, 0.0), (0.5, 0.1), (0.6, 0.2), (0.8, 0.2)] {
            for i in ones.indices {
                let (a, b) = (ones[i], ones[(i + 7) % ones.count])
                var w = NumberWriter()
                w.add(a.drawing)
                w.add(b.drawing, gap: 0.3, size: size, lift: lift)
                #expect(cost(w.drawing, tuning) == cost(w.drawing, off), "\(a.digit) then \(b.digit), size \(size), lift \(lift)")
                #expect(groupCount(w.drawing) == groupCount(w.drawing, tuning: off))
            }
        }
    }

    /// A 5's bar drawn apart, after its body, and pushed to the right until
    /// it lies nearer the next digit than its own body: a fragment joins the
    /// group holding the stroke drawn just before it when that group is at
    /// most `fragmentOrderSlack` heights further than the nearest (dev set
    /// 1910 -> 1912 of 2,000; docs/recognition.md). Every push that leaves
    /// the bar a group of its own and gives it to the 7 by distance gives it
    /// to its 5 at the shipped slack; the same bar drawn last, after the 7,
    /// goes to the 7: the order decides, not a side.
    @Test func aBarDrawnApartJoinsTheDigitDrawnJustBeforeIt() throws {
        let fives = fixtureDigits.filter { $0.digit == 5 && $0.drawing.strokes.count == 2 }
        #expect(!fives.isEmpty)
        let recognizer = try Recognizer.bundled()
        /// The strokes grouped with stroke `s` (`byDistance`: the nearest
        /// group only, and before that with no fragment or stacked strokes
        /// joined at all).
        func partners(_ d: Drawing, of s: Int, byDistance: Bool = false, alone: Bool = false) -> UInt64 {
            var tuning = NumberReadingTuning.standard
            if byDistance { tuning.fragmentOrderSlack = 0 }
            if alone { tuning.fragmentHeight = 0; tuning.stackOverlap = 0 }
            var segmenter = NumberSegmenter(d, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: tuning)
            return segmenter.groups().first { $0.strokes & (1 << UInt64(s)) != 0 }!.strokes
        }
        #expect(NumberReadingTuning.standard.fragmentOrderSlack > 0)
        for five in fives {
            // The bar: the flatter stroke, drawn second.
            var strokes = five.drawing.strokes
            let heights = strokes.map { s in (s.map(\.y).max()! - s.map(\.y).min()!) }
            if heights[0] < heights[1] { strokes.swapAt(0, 1) }
            var checked = 0
            for push in stride(from: 0.0, through: 1.0, by: 0.02) {
                var w = NumberWriter()
                w.add(digit(1))
                w.add(Drawing(strokes: strokes))
                w.add(digit(7), gap: 0.4)
                // Strokes: the 1 (0), the 5's body (1), its bar (2), the 7 (3...).
                let bar = 2, body: UInt64 = 1 << 1
                w.strokes[bar] = w.strokes[bar].map { StrokePoint(x: $0.x + push * w.height, y: $0.y, t: $0.t) }
                guard partners(w.drawing, of: bar, alone: true) == 1 << UInt64(bar) else { continue }
                let nearest = partners(w.drawing, of: bar, byDistance: true)
                guard nearest & body == 0 else { continue }
                #expect(partners(w.drawing, of: bar) & body != 0, "\(five.style) pushed \(push)")
                // The bar drawn last, after the 7.
                var late = w
                late.strokes.append(late.strokes.remove(at: bar))
                let lateBar = late.strokes.count - 1
                #expect(partners(late.drawing, of: lateBar) & (1 << 1) == 0, "\(five.style) pushed \(push), drawn last")
                checked += 1
            }
            #expect(checked > 0, "\(five.style): no push left the bar apart and nearer the 7")
        }
    }

    /// A tap or a tick of the pen (a stroke under `speckSize` of the tallest
    /// stroke's height) anywhere (after the last digit, in a gap, inside a digit),
    /// written at any time, is no digit and changes no digit.
    @Test func tapsAndTicksAreNoDigits() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        var keepSpecks = NumberReadingTuning.standard
        keepSpecks.speckSize = 0
        var total = 0, inkedAfter = 0
        for number in ["3240", "2139", "605172", "98", "46", "710"] {
            let w = written(number)
            #expect(try recognizer.readNumber(w.drawing, in: ws).number == number)
            let h = w.height
            let last = w.boxes[w.boxes.count - 1], first = w.boxes[0]
            // Where: after the last digit, in the first gap, inside the first digit.
            let places = [(last.x1 + 0.2 * h, last.y0 + 0.5 * h), (last.x1 + 0.45 * h, last.y1 - 0.1 * h),
                          ((first.x1 + w.boxes[1].x0) / 2, first.y0 + 0.3 * h),
                          ((first.x0 + first.x1) / 2, (first.y0 + first.y1) / 2)]
            for (p, (x, y)) in places.enumerated() {
                for tick in [false, true] {
                    for at in [0, w.strokes.count / 2, w.strokes.count] {
                        var strokes = w.strokes
                        let mark = tick ? [StrokePoint(x: x, y: y), StrokePoint(x: x + 0.03 * h, y: y + 0.02 * h)]
                                        : [StrokePoint(x: x, y: y)]
                        strokes.insert(mark, at: at)
                        let d = Drawing(strokes: strokes)
                        total += 1
                        let r = try recognizer.readNumber(d, in: ws)
                        #expect(r.number == number, "\(number) with a \(tick ? "tick" : "tap") at (\(x), \(y)), stroke \(at)")
                        let ink = try recognizer.readNumber(d, in: ws, tuning: keepSpecks)
                        // A mark after the last digit is in no digit read; read as ink, it is in one.
                        if p < 2 {
                            #expect(r.digits.allSatisfy { $0.box.x1 < x }, "\(number): the mark at \(x) is in a digit")
                            inkedAfter += ink.digits.contains { $0.box.x1 >= x } ? 1 : 0
                        }
                    }
                }
            }
        }
        #expect(total == 144)
        // Read as ink, such marks are read with the digits: every one of the
        // 72 after the last digit here. (Read as ink, they made 9 of these
        // 144 numbers wrong with the split gate of before 2026-11-25 12:30Z
        // and none with the gate fitted on real shapes too; on the dev set,
        // marks read as ink still cost 31–54 of 2,000 numbers:
        // `number_reading.py --marks`.)
        #expect(inkedAfter == 72, "marks after the last digit read with a digit as ink: \(inkedAfter) of 72")
    }

    /// A digit's last stroke written after the next digit, the two digits
    /// touching (one group): in the order written the late stroke is no run
    /// of its own digit, but left to right (each stroke by its left edge) it
    /// is, and that order is read too (`leftToRightMargin`).
    @Test func lateStrokeOfTouchingDigitsIsReadLeftToRight() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        var writtenOrder = NumberReadingTuning.standard
        writtenOrder.leftToRightMargin = .infinity
        var total = 0, right = 0, rightInWrittenOrder = 0
        for first in fixtureDigits where first.drawing.strokes.count == 2 && [4, 5, 7].contains(first.digit) {
            for next in [1, 3, 6, 0] {
                for gap in [0.0, -0.05] {
                    var w = NumberWriter()
                    w.add(first.drawing)
                    w.add(digit(next), gap: gap)
                    guard groupCount(w.drawing) == 1 else { continue }
                    // first a, first b, next… → first a, next…, first b
                    w.strokes.append(w.strokes.remove(at: 1))
                    let label = "\(first.digit)\(next)"
                    total += 1
                    right += try recognizer.readNumber(w.drawing, in: ws).number == label ? 1 : 0
                    rightInWrittenOrder += try recognizer.readNumber(w.drawing, in: ws, tuning: writtenOrder).number == label ? 1 : 0
                }
            }
        }
        // (25 pairs touch with the 3 with a cusp, 17 with the 3 that replaced
        // it as the tests' 3 since issue 43.)
        #expect(total >= 15)
        #expect(right == total, "\(right) of \(total) read right")
        // The order written alone misses some of them (18 of 25 here).
        #expect(rightInWrittenOrder < total)
    }

    @Test func lateStrokeJoinsItsDigit() throws {
        let fours = fixtureDigits.filter { $0.digit == 4 && $0.drawing.strokes.count == 2 }
        #expect(fours.count >= 2)
        for four in fours {
            var w = NumberWriter()
            w.add(four.drawing)
            w.add(digit(1), gap: 0.3)
            w.add(digit(9), gap: 0.3)
            // Strokes: 4a, 4b, 1, 9 → 4a, 1, 4b, 9.
            w.strokes.swapAt(1, 2)
            let r = try read(w)
            #expect(r.number == "419", "\(four.style)")
        }
    }

    /// Joined digits: the pen runs on from one digit into the next (one stroke).
    @Test(arguments: ["25", "703", "61", "94"])
    func joinedDigitsAreCut(_ number: String) throws {
        var w = NumberWriter()
        for (i, ch) in number.enumerated() {
            w.add(digit(Int(String(ch))!, nil, i), gap: 0.1, joined: i > 0)
        }
        #expect(groupCount(w.drawing) == 1)
        let r = try read(w)
        #expect(r.digits.count == number.count, "read \(r.number)")
        #expect(r.number == number)
    }

    /// A stroke that runs on from one real digit into the next is split in
    /// two pieces (point ranges of it) that join their digits' runs: each
    /// digit read from its own ink, one of them from a piece of the stroke.
    /// The order reading is asked with the runs' height prior at the cuts'
    /// (`runPieceHeight` = `pieceHeight`, 0.8): at the shipped 0.7 the 61's
    /// order reading takes the 6 and most of the 1 as an 8 (0.88) and the
    /// 1's foot (0.72 heights) as a 1, which the whole reading then does not
    /// keep: the number still reads 61, asserted at the end with the shipped
    /// tuning.
    @Test(arguments: ["25", "61", "94", "23", "70"])
    func runOnStrokeSplitsInTwoPieces(_ number: String) throws {
        var w = NumberWriter()
        for (i, ch) in number.enumerated() {
            w.add(digit(Int(String(ch))!, nil, i), gap: 0.1, joined: i > 0)
        }
        let recognizer = try Recognizer.bundled()
        var asCuts = NumberReadingTuning.standard
        asCuts.runPieceHeight = asCuts.pieceHeight
        var segmenter = NumberSegmenter(w.drawing, recognizer: recognizer, workspace: recognizer.makeWorkspace(),
                                        tuning: asCuts)
        let groups = segmenter.groups()
        _ = segmenter.read()  // sets the typical width
        #expect(groups.count == 1)
        let whole = recognizer.numbers.recognize(w.drawing, part: .whole, in: recognizer.makeWorkspace())
        let cuts = segmenter.cuts(groups[0], into: 2)
        let found = segmenter.readByOrder(groups[0], whole: whole, wholeWidth: groups[0].width, runOn: cuts)
        let runs = try #require(found)
        #expect(runs.map { String($0.0.digit) }.joined() == number)
        #expect(runs.contains { $0.1.piece >= 0 })
        // Without splitting strokes, the stroke-order reading has no run-on piece.
        var plain = asCuts
        plain.strokeSplits = 0
        var unsplit = NumberSegmenter(w.drawing, recognizer: recognizer, workspace: recognizer.makeWorkspace(),
                                      tuning: plain)
        _ = unsplit.read()
        let none = unsplit.readByOrder(groups[0], whole: whole, wholeWidth: groups[0].width, runOn: [])
        #expect(none?.contains { $0.1.piece >= 0 } != true)
        #expect(try read(w).number == number)
    }

    /// The pen's way from one digit to the next, a straight stretch of the
    /// run-on stroke, is found without any cut crossing it: with no cuts to
    /// split at, the stroke is still split by dropping one of its longest
    /// straight stretches, and not with `stretchSplits` 0. (The runs' height
    /// prior at the cuts', as in `runOnStrokeSplitsInTwoPieces`.)
    @Test(arguments: ["25", "61", "94", "23", "70"])
    func runOnStrokeSplitsAtItsStraightStretch(_ number: String) throws {
        let w = oneStroke(number)
        func runs(stretchSplits: Int) throws -> [(Recognition, InkPart)]? {
            try readOneGroupByOrder(w) { $0.stretchSplits = stretchSplits; $0.runPieceHeight = $0.pieceHeight }
        }
        let found = try #require(try runs(stretchSplits: 3))
        #expect(found.map { String($0.0.digit) }.joined() == number)
        #expect(found.contains { $0.1.piece >= 0 })
        #expect(try runs(stretchSplits: 0)?.contains { $0.1.piece >= 0 } != true)
        #expect(try read(w).number == number)
    }

    /// A split through the middle of a long straight stretch (the pen's way
    /// from one digit to the next, sampled on the way) costs `throughCost`:
    /// it leaves half the way in each digit, where dropping the stretch
    /// leaves none. A cut where the stroke turns, one dropping the stretch,
    /// or one through a short stretch costs nothing.
    @Test func cuttingThroughThePensWayCosts() throws {
        // A hook (the end of a digit), then a straight way 0.6 high sampled at
        // 5 points, then a hook again (the start of the next).
        var points: [StrokePoint] = []
        for k in 0...8 {
            let a = Double(k) / 8 * Double.pi
            points.append(StrokePoint(x: 20 + 20 * cos(a), y: 80 + 20 * sin(a), t: Double(points.count)))
        }
        let from = points[points.count - 1]
        for k in 1...5 {
            points.append(StrokePoint(x: from.x + 60 * Double(k) / 5, y: from.y - 60 * Double(k) / 5, t: Double(points.count)))
        }
        let top = points[points.count - 1]
        for k in 1...8 {
            let a = Double(k) / 8 * Double.pi
            points.append(StrokePoint(x: top.x + 15 - 15 * cos(a), y: top.y - 15 * sin(a), t: Double(points.count)))
        }
        let drawing = Drawing(strokes: [points, [StrokePoint(x: 200, y: 0, t: 99), StrokePoint(x: 200, y: 100, t: 100)]])
        let recognizer = try Recognizer.bundled()
        func cost(_ cut: NumberSegmenter.StrokeSplit, throughCost: Double = 0.5) -> Double {
            var tuning = NumberReadingTuning.standard
            tuning.throughCost = throughCost
            var segmenter = NumberSegmenter(drawing, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: tuning)
            _ = segmenter.groups()  // sets the height (100)
            return segmenter.throughCost([cut])
        }
        let middle = 8 + 3  // a point inside the way
        #expect(cost(.init(stroke: 0, end: middle, start: middle)) == 0.5)
        #expect(cost(.init(stroke: 0, end: middle, start: middle), throughCost: 0) == 0)
        #expect(cost(.init(stroke: 0, end: 9, start: 13)) == 0)  // the way dropped
        #expect(cost(.init(stroke: 0, end: 4, start: 4)) == 0)  // in the hook: turning at every point
    }

    /// A stroke that ran on from one digit into the next can read surely as
    /// one digit (a 1 run on into the 0 after it, a 4's downstroke into a 1
    /// or an 8). The bundled reader lifts the pen's way first and reads these
    /// right. The rule that splits such a stroke where its pieces stand apart
    /// as two digits would (both tall, the later right of the earlier in
    /// every band, both read at 0.9 or more), at no margin over the group
    /// read whole (`apartSplitMargin` 0) and also when an exit took the group
    /// for one digit (`apartAtExits`), is off since the networks of
    /// 2026-12-03 (it cut real writers' digits in two); turned on, with the
    /// way left in the stroke, it reads them right too.
    @Test(arguments: [("10", 0.0, 0), ("41", 0.1, 2), ("48", 0.0, 2), ("65", 0.0, 2)])
    func runOnPiecesStandingApartSplit(_ number: String, _ gap: Double, _ variant: Int) throws {
        let recognizer = try Recognizer.bundled()
        let w = joinedPair(number, gap: gap, variant: variant)
        #expect(groupCount(w.drawing) == 1)
        #expect(try read(w).number == number)
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: Self.apartOn).number == number)
    }

    /// Where the rule decides: a 1 run on into a 4 (of the 600 two-digit
    /// numbers of fixture digits joined at gaps 0 and 0.1, the one it reads
    /// differently, the pen's way left in the stroke) reads 14 with the rule
    /// and otherwise without it.
    @Test func piecesStandingApartDecideA14() throws {
        let recognizer = try Recognizer.bundled()
        let w = joinedPair("14", gap: 0, variant: 1)
        var off = NumberReadingTuning.standard
        off.wayWeights = []
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: Self.apartOn).number == "14")
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: off).number != "14")
        // Pieces stand apart only when both read surely (`apartConfidence`):
        // asking for more than certainty, none do.
        var unsure = Self.apartOn
        unsure.apartConfidence = 1.01
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: unsure).number != "14")
    }

    /// The rule of pieces standing apart turned on, the pen's way left in the stroke.
    static let apartOn: NumberReadingTuning = {
        var t = NumberReadingTuning.standard
        t.wayWeights = []  // the pen's way left in the stroke: this is about splitting it
        t.apartSplitMargin = 0
        t.apartAtExits = true
        return t
    }()

    /// Two fixture digits, the pen run on from the first into the second.
    private func joinedPair(_ number: String, gap: Double, variant: Int) -> NumberWriter {
        let digits = number.map { Int(String($0))! }
        var w = NumberWriter()
        w.add(digit(digits[0], nil, variant))
        w.add(digit(digits[1], nil, variant + 1), gap: gap, joined: true)
        return w
    }

    /// A stroke that ran on from a neighbour into a 1 can be narrow: a 4's
    /// downstroke running up into the 1 beside it is less than 0.6 heights
    /// wide in every third of the height. Strokes wider than
    /// `strokeSplitWidth` (0.45 heights) are tried split, so the 4 and the 1
    /// part; at 0.6 (before) the stroke is never tried and the number reads
    /// otherwise. (Of the 1,800 two-digit numbers of fixture digits joined
    /// this way, gaps 0 and 0.1 heights, this one reads right only with the
    /// change and one reads an extra digit with it, 41 read 411; dev set 1904
    /// → 1910 of 2,000.)
    @Test func narrowRunOnStrokeIsTriedSplit() throws {
        let recognizer = try Recognizer.bundled()
        var w = NumberWriter()
        w.add(digit(4, nil, 1))
        w.add(digit(1, nil, 0), gap: 0, joined: true)
        var segmenter = NumberSegmenter(w.drawing, recognizer: recognizer, workspace: recognizer.makeWorkspace(),
                                        tuning: .standard)
        #expect(segmenter.groups().count == 1)
        _ = segmenter.read()
        let runOn = digit(4, nil, 1).strokes.count - 1  // the 4's last stroke, on into the 1
        let width = segmenter.width(of: 1 << UInt64(runOn)) / segmenter.height
        #expect(width > NumberReadingTuning.standard.strokeSplitWidth && width <= 0.6, "\(width)")
        #expect(try read(w).number == "41")
        var before = NumberReadingTuning.standard
        before.strokeSplitWidth = 0.6
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: before).number != "41")
    }

    /// `number` written with the pen never lifted: every digit joined to the one before.
    private func oneStroke(_ number: String) -> NumberWriter {
        var w = NumberWriter()
        for (i, ch) in number.enumerated() {
            w.add(digit(Int(String(ch))!, nil, i), gap: 0.1, joined: i > 0)
        }
        return w
    }

    /// The stroke-order reading of a drawing that makes one group, with the
    /// standard tuning changed by `tune`.
    private func readOneGroupByOrder(_ w: NumberWriter, tune: (inout NumberReadingTuning) -> Void) throws -> [(Recognition, InkPart)]? {
        let recognizer = try Recognizer.bundled()
        let whole = recognizer.numbers.recognize(w.drawing, part: .whole, in: recognizer.makeWorkspace())
        var tuning = NumberReadingTuning.standard
        tune(&tuning)
        var segmenter = NumberSegmenter(w.drawing, recognizer: recognizer, workspace: recognizer.makeWorkspace(), tuning: tuning)
        let groups = segmenter.groups()
        _ = segmenter.read()  // sets the typical width
        #expect(groups.count == 1)
        return segmenter.readByOrder(groups[0], whole: whole, wholeWidth: groups[0].width, runOn: [])
    }

    /// One stroke through three digits (the pen never lifts) is split twice:
    /// its middle digit is read from a middle range of its points, with the
    /// pen's ways in and out dropped; with `multiSplitSeeds` 0 (one split per
    /// stroke at most) no reading by stroke order has a middle piece.
    @Test(arguments: ["369", "906", "203", "390"])
    func strokeThroughThreeDigitsSplitsTwice(_ number: String) throws {
        let w = oneStroke(number)
        #expect(w.strokes.count == 1, "one stroke through all three digits")
        func runs(seeds: Int) throws -> [(Recognition, InkPart)]? {
            try readOneGroupByOrder(w) { $0.multiSplitSeeds = seeds }
        }
        let count = w.strokes[0].count
        func middle(_ run: (Recognition, InkPart)) -> Bool {
            run.1.piece == 0 && run.1.points.lowerBound > 0 && run.1.points.upperBound < count
        }
        let found = try #require(try runs(seeds: 1))
        #expect(found.map { String($0.0.digit) }.joined() == number)
        #expect(found.contains(where: middle))
        #expect(try runs(seeds: 0)?.contains(where: middle) != true)
        #expect(try read(w).digits.count == number.count)
    }

    /// The numbers of `strokeThroughThreeDigitsSplitsTwice` read exactly, but
    /// "906": since issue 43's single-digit network its last 6, whose loop
    /// the pen's way runs into, reads 0 (at 0.93; split right all the same).
    @Test func oneStrokeThroughThreeDigitsIsRead() throws {
        let exact = try ["369", "906", "203", "390"].filter { try read(oneStroke($0)).number == $0 }
        #expect(exact.count >= 3, "\(exact)")
    }

    /// A stroke that ran on from one digit into the next loses the pen's
    /// way before the strokes are grouped (`liftingPensWays`): written with
    /// the pen lifted instead, the two digits are read apart. Every lift
    /// drops a straight stretch that holds the whole way (with at most a
    /// point or three of the digits' own ink where the way goes on straight
    /// into them); pairs of fixture digits joined most of the time; a digit's own
    /// straight stretches never (every fixture digit alone, numbers written
    /// with gaps). With the ways lifted, the joined pairs read right at least
    /// as often as with them left in the stroke (when this was written: 247
    /// of the 300 pairs lifted, 289 → 295 read right).
    @Test func thePensWayIsLifted() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        var kept = NumberReadingTuning.standard
        kept.wayWeights = []
        var lifted = 0, pairs = 0, right = 0, rightKept = 0
        for a in 0...9 {
            for b in 0...9 {
                for v in 0..<3 {
                    var w = NumberWriter(), apart = NumberWriter()
                    w.add(digit(a, nil, v))
                    w.add(digit(b, nil, v + 1), gap: 0.1, joined: true)
                    apart.add(digit(a, nil, v))
                    apart.add(digit(b, nil, v + 1), gap: 0.1)
                    pairs += 1
                    right += try recognizer.readNumber(w.drawing, in: ws).number == "\(a)\(b)" ? 1 : 0
                    rightKept += try recognizer.readNumber(w.drawing, in: ws, tuning: kept).number == "\(a)\(b)" ? 1 : 0
                    var segmenter = NumberSegmenter(w.drawing, recognizer: recognizer, workspace: ws, tuning: .standard)
                    guard let l = segmenter.liftingPensWays() else { continue }
                    lifted += 1
                    // The joined stroke is A's last and B's first, end to end.
                    let k = apart.strokes.count - digit(b, nil, v + 1).strokes.count - 1
                    let (last, first) = (apart.strokes[k], apart.strokes[k + 1])
                    #expect(l.strokes.count == apart.strokes.count, "\(a)\(b)")
                    guard l.strokes.count == apart.strokes.count else { continue }
                    #expect(Array(l.strokes[..<k]) == Array(apart.strokes[..<k]))
                    #expect(Array(l.strokes[(k + 2)...]) == Array(apart.strokes[(k + 2)...]))
                    let (before, after) = (l.strokes[k], l.strokes[k + 1])
                    #expect(Array(last.prefix(before.count)) == before && before.count >= last.count - 3, "\(a)\(b) v\(v)")
                    #expect(Array(first.suffix(after.count)) == after && after.count >= first.count - 3, "\(a)\(b) v\(v)")
                }
            }
        }
        #expect(lifted * 2 > pairs, "\(lifted) of \(pairs) lifted")
        #expect(right >= rightKept, "\(right) read right, \(rightKept) with the ways kept")
        for d in fixtureDigits {
            var segmenter = NumberSegmenter(d.drawing, recognizer: recognizer, workspace: ws, tuning: .standard)
            #expect(segmenter.liftingPensWays() == nil, "a \(d.digit) \(d.style)")
        }
        for n in ["3240", "2139", "1999", "2000", "857", "46", "605172", "98", "314159", "7777", "4444", "2222"] {
            for v in 0..<3 {
                var segmenter = NumberSegmenter(written(n, gap: 0.1, variant: v).drawing, recognizer: recognizer,
                                                workspace: ws, tuning: .standard)
                #expect(segmenter.liftingPensWays() == nil, "\(n)")
            }
        }
        // No floor to pass: nothing is lifted.
        var never = NumberReadingTuning.standard
        never.wayFloor = .infinity
        var segmenter = NumberSegmenter(oneStroke("25").drawing, recognizer: recognizer, workspace: ws, tuning: never)
        #expect(segmenter.liftingPensWays() == nil)
    }

    /// One stroke through four fixture digits is split three times
    /// (`thirdSplit`: from the two splits that won, with every other place):
    /// all four read; without it the number reads short (0369 → 038, 3069 →
    /// 308). Of 24 such four-digit strokes tried, these two read right only
    /// with it, 11 others read right either way.
    @Test(arguments: ["0369", "3069"])
    func strokeThroughFourDigitsSplitsThrice(_ number: String) throws {
        let w = oneStroke(number)
        #expect(w.strokes.count == 1, "one stroke through all four digits")
        let recognizer = try Recognizer.bundled()
        #expect(try read(w).number == number)
        var off = NumberReadingTuning.standard
        off.wayWeights = []  // the pen's ways left in the stroke: this is about splitting it
        off.thirdSplit = false
        #expect(try recognizer.readNumber(w.drawing, in: recognizer.makeWorkspace(), tuning: off).digits.count < 4)
    }

    /// A single wide digit, one stroke as wide as two digits, is not split.
    @Test func wideOneStrokeDigitsStayWhole() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        for d in fixtureDigits where d.drawing.strokes.count == 1 && [0, 2, 3, 7].contains(d.digit) {
            let b = box(d.drawing.strokes)
            let stretch = 1.6 * (b.y1 - b.y0) / max(b.x1 - b.x0, 1e-9)
            let wide = Drawing(strokes: d.drawing.strokes.map { $0.map { StrokePoint(x: $0.x * stretch, y: $0.y, t: $0.t) } })
            let r = try recognizer.readNumber(wide, in: ws)
            #expect(r.digits.count == 1, "\(d.style): read \(r.number)")
            // The 3 with a cusp, stretched this wide, is a 7's shape to the
            // networks of 2026-12-03.
            #expect(r.number == (d.digit == 3 && d.style == "cusp" ? "7" : String(d.digit)), "\(d.style)")
        }
    }

    /// No over-splitting: a wide 0 and a slanted 1 are one digit each.
    @Test func wideAndSlantedDigitsStayWhole() throws {
        func ellipse(cx: Double, rx: Double, ry: Double) -> [StrokePoint] {
            (0...40).map { k in
                let a = Double(k) / 40 * 2 * Double.pi
                return StrokePoint(x: cx + rx * sin(a), y: 250 - ry * cos(a), t: Double(k) * 10)
            }
        }
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        // A 0 as wide as it is tall.
        let wide = try recognizer.readNumber(Drawing(strokes: [ellipse(cx: 100, rx: 50, ry: 50)]), in: ws)
        #expect(wide.number == "0")
        // A 1 leaning 0.6 to the right, beside a 0 and a wide 0.
        let slanted: [StrokePoint] = (0...20).map { k in
            let y = 200 + Double(k) * 5
            return StrokePoint(x: 260 - 0.6 * (y - 200), y: y, t: Double(k) * 10)
        }
        let r = try recognizer.readNumber(
            Drawing(strokes: [ellipse(cx: 100, rx: 50, ry: 50), slanted, ellipse(cx: 360, rx: 32, ry: 50)]), in: ws)
        #expect(r.number == "010")
    }

    @Test func atMostEightDigitsAreRead() throws {
        let r = try read(written("1234567890"))
        #expect(r.digits.count == Recognizer.maxNumberDigits)
        #expect(r.number == "12345678")
    }

    /// Drawings within the input limits that are no handwriting: 64
    /// scribbled strokes, long zigzags, loops on loops. Every stroke is wide
    /// enough to have run on and crosses every cut many times; before the
    /// work limit each took 0.5–2.3 s to read (release build), now under
    /// about 55 ms (docs/recognition.md, "Numbers").
    private static func scribbles() -> [(String, Drawing)] {
        let scribble = Self.scribble(strokes: 64, points: 156, width: 1200, height: 200, seed: 0x5EED)
        func zig(_ k: Int, _ i: Int) -> StrokePoint {
            let x = Double(k * 150 + (i % 50) * 3)
            let y = Double(i / 50) * 1.5 + Double(i % 2) * 50
            return StrokePoint(x: x, y: y, t: Double(i))
        }
        func loop(_ k: Int, _ j: Int) -> StrokePoint {
            let a = Double(j) / 10
            return StrokePoint(x: 100 + 60 * cos(a) + Double(k), y: 100 + 80 * sin(a), t: Double(j))
        }
        let zigzags = (0..<8).map { k in (0..<1250).map { zig(k, $0) } }
        let loops = (0..<64).map { k in (0..<156).map { loop(k, $0) } }
        return [("scribble", Drawing(strokes: scribble)), ("zigzags", Drawing(strokes: zigzags)), ("loops", Drawing(strokes: loops))]
    }

    /// Strokes of points strewn at random over a width × height box (a
    /// linear congruential generator: the same drawing on every machine).
    private static func scribble(strokes: Int, points: Int, width: Double, height: Double, seed: UInt64) -> [[StrokePoint]] {
        var seed = seed
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        return (0..<strokes).map { _ in (0..<points).map { j in StrokePoint(x: random() * width, y: random() * height, t: Double(j)) } }
    }

    /// What a reading may cost past the limit: the step that crossed it,
    /// and each group still to read, read whole (docs: `NumberSegmenter.charge`).
    private static func overshoot(_ d: Drawing, _ tuning: NumberReadingTuning = .standard) -> Int {
        40 * d.pointCount + 100 * tuning.readWork + 200_000
    }

    /// A drawing no one writes by hand costs at most the work limit (and the
    /// step that crossed it), and is still read: digits, each with a box.
    /// (The loops on loops are read as one digit before the search gets that
    /// far: the candidates network takes the whole tangle for a 0.)
    @Test func scribblesStopAtTheWorkLimit() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        let limit = NumberReadingTuning.standard.workLimit
        var ranInto = 0
        for (name, d) in Self.scribbles() {
            #expect(d.strokes.count <= Rasterizer.maxStrokes && d.pointCount <= Rasterizer.maxPoints)
            let r = try recognizer.readNumber(d, in: ws)
            #expect(r.work <= limit + Self.overshoot(d), "\(name): work \(r.work)")
            #expect(!r.digits.isEmpty, "\(name)")
            if r.cutShort { ranInto += 1 }
        }
        #expect(ranInto >= 2, "the scribble and the zigzags run into the limit")
    }

    /// The limit is what stops it: a smaller scribble read without a limit,
    /// then under a fifth of what that cost, costs no more than that limit
    /// and its overshoot, well under half of the unlimited reading, and is
    /// cut short where the unlimited reading is not. Reading it again gives
    /// the same reading and the same work.
    @Test func theWorkLimitCutsTheSearchShort() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        let d = Drawing(strokes: Self.scribble(strokes: 16, points: 40, width: 600, height: 150, seed: 42))
        var free = NumberReadingTuning.standard
        free.workLimit = .max
        let unlimited = try recognizer.readNumber(d, in: ws, tuning: free)
        var tight = NumberReadingTuning.standard
        tight.workLimit = unlimited.work / 5
        let limited = try recognizer.readNumber(d, in: ws, tuning: tight)
        #expect(limited.work >= tight.workLimit && limited.work <= tight.workLimit + Self.overshoot(d, tight))
        #expect(limited.work < unlimited.work / 2)
        #expect(limited.cutShort && !unlimited.cutShort)
        #expect(!limited.digits.isEmpty)
        #expect(try recognizer.readNumber(d, in: ws, tuning: tight) == limited)
    }

    /// Numbers written by hand, touching, joined by the pen and through
    /// three digits in one stroke, cost at most a quarter of the limit, so
    /// it never changes their reading (the most costly of the synthetic
    /// sets' 6,200 numbers: 3.8 million of the 12 million, docs/recognition.md).
    @Test func handwrittenNumbersStayFarBelowTheWorkLimit() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        var free = NumberReadingTuning.standard
        free.workLimit = .max
        let limit = NumberReadingTuning.standard.workLimit
        for w in [written("605172"), written("314159", gap: 0.05), oneStroke("369"), oneStroke("0369"), oneStroke("2594")] {
            let r = try recognizer.readNumber(w.drawing, in: ws)
            #expect(r.work < limit / 4, "\(r.number): \(r.work)")
            #expect(!r.cutShort)
            #expect(try recognizer.readNumber(w.drawing, in: ws, tuning: free) == r)
        }
    }

    @Test func refusalsAreTheRecognizers() throws {
        let recognizer = try Recognizer.bundled()
        let ws = recognizer.makeWorkspace()
        #expect(throws: RecognitionError(.emptyDrawing)) { try recognizer.readNumber(Drawing(strokes: [[], []]), in: ws) }
        #expect(throws: RecognitionError.self) {
            try recognizer.readNumber(Drawing(strokes: [[StrokePoint(x: .nan, y: 1)]]), in: ws)
        }
        let many = Drawing(strokes: Array(repeating: [StrokePoint(x: 1, y: 1)], count: Rasterizer.maxStrokes + 1))
        #expect(throws: RecognitionError.self) { try recognizer.readNumber(many, in: ws) }
        // The limits themselves are fine: 64 one-point strokes (dots in a row).
        let dots = Drawing(strokes: (0..<Rasterizer.maxStrokes).map { [StrokePoint(x: Double($0) * 50, y: 10)] })
        #expect(try recognizer.readNumber(dots, in: ws).digits.count == Recognizer.maxNumberDigits)
    }

    /// A part of a drawing is rasterized exactly as that ink alone would be.
    @Test func partsRasterizeLikeTheirInkAlone() throws {
        let r = Rasterizer()
        let w = written("38")
        let split = (w.boxes[0].x1 + w.boxes[1].x0) / 2
        var image = [Float](repeating: 0, count: 784)
        image.withUnsafeMutableBufferPointer {
            r.rasterize(w.drawing, part: InkPart(strokes: ~0, shear: 0, band: -Double.infinity...split), into: $0)
        }
        let three = Drawing(strokes: w.strokes.filter { ($0.first?.x ?? 0) < split })
        #expect(image == (try r.rasterize(three)))
        // The whole part is the whole drawing.
        image.withUnsafeMutableBufferPointer { r.rasterize(w.drawing, part: .whole, into: $0) }
        #expect(image == (try r.rasterize(w.drawing)))
        // A band through the middle of a stroke keeps only what is inside it.
        let line = Drawing(strokes: [[StrokePoint(x: 0, y: 0), StrokePoint(x: 100, y: 0)]])
        let cut = InkPart(strokes: ~0, shear: 0, band: 25...75)
        #expect(cut.box(in: line) == InkBox(x0: 25, y0: 0, x1: 75, y1: 0))
        #expect(InkPart(strokes: ~0, shear: 0, band: 200...300).box(in: line) == nil)
        // On a slant: u = x + y.
        let slanted = InkPart(strokes: ~0, shear: 1, band: 10...20)
        let diagonal = Drawing(strokes: [[StrokePoint(x: 0, y: 0), StrokePoint(x: 20, y: 20)]])
        #expect(slanted.box(in: diagonal) == InkBox(x0: 5, y0: 5, x1: 10, y1: 10))
        // A piece of a stroke (a range of its points) is that stretch alone.
        let run = Drawing(strokes: [[StrokePoint(x: 0, y: 0), StrokePoint(x: 50, y: 40), StrokePoint(x: 60, y: 0),
                                     StrokePoint(x: 120, y: 10), StrokePoint(x: 130, y: 60)]])
        var piece = InkPart.whole
        piece.piece = 0
        piece.points = 2..<5
        let alone = Drawing(strokes: [Array(run.strokes[0][2..<5])])
        image.withUnsafeMutableBufferPointer { r.rasterize(run, part: piece, into: $0) }
        #expect(image == (try r.rasterize(alone)))
        #expect(piece.box(in: run) == InkBox(x0: 60, y0: 0, x1: 130, y1: 60))
    }

    @Test func readingsAsJSON() throws {
        let r = NumberReading(digits: [
            DigitReading(digit: 0, confidence: 0.99, box: InkBox(x0: 1, y0: 2, x1: 3.5, y1: 4)),
            DigitReading(digit: 7, confidence: 0.5, box: InkBox(x0: 10, y0: 2, x1: 13, y1: 40), unsure: true),
        ])
        #expect(r.number == "07")
        #expect(r.confidence == 0.5)
        #expect(r.json.text == #"{"number":"07","digits":[{"digit":0,"confidence":0.99,"box":[1.0,2.0,3.5,4.0]},"#
            + #"{"digit":7,"confidence":0.5,"box":[10.0,2.0,13.0,40.0],"unsure":true}]}"#)
        // The live guess's digits carry no such field (it writes an unsure digit as null).
        #expect(r.digitsJSON.text == #"[{"digit":0,"confidence":0.99,"box":[1.0,2.0,3.5,4.0]},"#
            + #"{"digit":7,"confidence":0.5,"box":[10.0,2.0,13.0,40.0]}]"#)
        #expect(NumberReading(digits: []).json.text == #"{"number":"","digits":[]}"#)
    }
}

/// `mindpad recognize --number`: RecognizeLines in number mode.
@Suite struct RecognizeNumberLinesTests {
    private func run(_ lines: [String]) throws -> [JSON] {
        var input = lines[...]
        var output: [String] = []
        RecognizeLines.run(recognizer: try Recognizer.bundled(), mode: .number, input: { input.popFirst() },
                           output: { output.append($0) })
        return try output.map { try JSON.parse($0) }
    }

    private func line(_ w: NumberWriter) -> String {
        let strokes = w.strokes.map { s in JSON.array(s.map { .array([.double($0.x), .double($0.y), .double($0.t)]) }) }
        return JSON.object([("width", .int(2000)), ("height", .int(600)), ("strokes", .array(strokes))]).text
    }

    @Test func oneLineOutPerLineIn() throws {
        let good = line(written("3240"))
        let out = try run([
            good,
            "{not json",
            "",
            #"{"strokes": [[[NaN, 1, 0]]]}"#,
            #"{"strokes": []}"#,
            line(written("909")),
            #"{"width": 10, "strokes": [[[5, 1], [5, 9]]]}"#,
        ])
        #expect(out.count == 7)
        #expect(out[0]["number"]?.string == "3240")
        let digits = try #require(out[0]["digits"]?.array)
        #expect(digits.count == 4)
        for (d, expected) in zip(digits, [3, 2, 4, 0]) {
            #expect(d["digit"] == .int(expected))
            let p = try #require(d["confidence"].flatMap(\.number))
            #expect(p > 0 && p <= 1)
            let b: [Double] = d["box"]?.array?.compactMap(\.number) ?? []
            #expect(b.count == 4 && b[0] <= b[2] && b[1] <= b[3])
        }
        // Left to right.
        let x0 = digits.compactMap { $0["box"]?.array?.first?.number }
        #expect(x0 == x0.sorted())
        #expect(out[1]["error"]?.string?.hasPrefix("malformedInput: ") == true)
        #expect(out[2]["error"]?.string?.hasPrefix("malformedInput: ") == true)
        #expect(out[3]["error"]?.string?.hasPrefix("nonFiniteValue: ") == true)
        #expect(out[4]["error"]?.string?.hasPrefix("emptyDrawing: ") == true)
        #expect(out[5]["number"]?.string == "909")
        #expect(out[6]["number"]?.string == "1")
        for reply in out { #expect(reply["number"] != nil || reply["error"] != nil) }
    }

    @Test func digitModeIsUnchanged() throws {
        var input = [#"{"strokes": [[[5, 1], [5, 9]]]}"#][...]
        var output: [String] = []
        RecognizeLines.run(recognizer: try Recognizer.bundled(), input: { input.popFirst() }, output: { output.append($0) })
        #expect(try JSON.parse(output[0])["digit"]?.number == 1)
        #expect(try JSON.parse(output[0])["number"] == nil)
    }
}


