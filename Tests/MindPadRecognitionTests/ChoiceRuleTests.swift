import Foundation
import MindPadJSON
import Testing
@testable import MindPadRecognition

/// Ten probabilities as the recognizer gives them.
private func probabilities(_ p: [Float]) -> DigitProbabilities {
    var storage = SIMD16<Float>()
    for (i, v) in p.enumerated() { storage[i] = v }
    return DigitProbabilities(storage)
}

/// The bundled single-digit weights with their metadata changed by `changes`
/// (nil removes a key).
private func bundled(with changes: [String: String?]) throws -> Recognizer {
    let bytes = [UInt8](try Data(contentsOf: try #require(Recognizer.bundledModelURL)))
    let file = try SafeTensors(bytes: bytes)
    var metadata = file.metadata
    for (key, value) in changes { metadata[key] = value }
    let tensors = try DigitNetwork.shapes.map { name, _ in (name, try #require(file.tensors[name])) }
    return try Recognizer(safetensors: safetensorsFile(tensors, metadata: metadata))
}

/// The drawings of the fixtures (digits by unseen writers, non-digits), and
/// each digit squeezed and slanted: readings from sure to unsure.
private func drawings() throws -> [Drawing] {
    let lines = try (JSON.parse(StrokeLinesFixture.json).array ?? []) + (JSON.parse(NonDigitLinesFixture.json).array ?? [])
    var out: [Drawing] = []
    for line in lines {
        let d = try RecognizeLines.parseDrawing(try #require(line["line"]?.string))
        out.append(d)
        for s in [0.35, 0.6, 1.8] {
            out.append(Drawing(strokes: d.strokes.map { $0.map { StrokePoint(x: $0.x * s, y: $0.y, t: $0.t) } }))
        }
        for k in [-0.5, 0.5] {
            out.append(Drawing(strokes: d.strokes.map { $0.map { StrokePoint(x: $0.x + $0.y * k, y: $0.y, t: $0.t) } }))
        }
    }
    return out
}

/// A 1 whose flag is `length` of the height at `angle` degrees from the
/// horizontal: from a plain 1 (short, steep) towards a 7 (long, flat).
private func flaggedOne(length: Double, angle: Double) -> Drawing {
    let a = angle * .pi / 180, h = 220.0
    let start = (x: 110 - length * h * cos(a), y: 40 + length * h * sin(a))
    let flag = (0...12).map { i in
        StrokePoint(x: start.x + (110 - start.x) * Double(i) / 12, y: start.y + (40 - start.y) * Double(i) / 12)
    }
    return Drawing(strokes: [flag + (1...24).map { StrokePoint(x: 110, y: 40 + h * Double($0) / 24) }])
}

/// A choice instead of a refusal (issue 43): `ChoiceRule` and what the
/// recognizer does with it.
@Suite struct ChoiceRuleTests {
    @Test func theVerdictOfTheProbabilities() {
        let rule = ChoiceRule(below: 0.8, mass: 0.95, max: 3)
        #expect(rule.verdict(probabilities([0, 0.85, 0, 0, 0, 0, 0, 0.15, 0, 0])) == .sure)
        #expect(rule.verdict(probabilities([0, 0.6, 0, 0, 0, 0, 0, 0.38, 0, 0.02])) == .choices([1, 7]))
        // Likeliest first, whatever the digits' order.
        #expect(rule.verdict(probabilities([0, 0.38, 0, 0, 0, 0, 0, 0.6, 0, 0.02])) == .choices([7, 1]))
        // The fewest that reach the mass: a third when two do not.
        #expect(rule.verdict(probabilities([0.02, 0.5, 0, 0, 0.03, 0, 0, 0.3, 0, 0.15])) == .choices([1, 7, 9]))
        // Not even three reach it: no digit.
        #expect(rule.verdict(probabilities([0.1, 0.4, 0.1, 0.1, 0, 0, 0, 0.2, 0, 0.1])) == .noDigit)
        // Equal probabilities: the smaller digit first.
        #expect(rule.verdict(probabilities([0, 0.49, 0, 0, 0, 0, 0, 0.49, 0.02, 0])) == .choices([1, 7]))
        // Two at most: where the third would be needed, no digit.
        #expect(ChoiceRule(below: 0.8, mass: 0.95, max: 2).verdict(probabilities([0.02, 0.5, 0, 0, 0.03, 0, 0, 0.3, 0, 0.15])) == .noDigit)
        // A mass under `below`: a top digit holding it is sure.
        #expect(ChoiceRule(below: 0.9, mass: 0.7, max: 3).verdict(probabilities([0, 0.75, 0, 0, 0, 0, 0, 0.25, 0, 0])) == .sure)
        // `below` 0: never a choice.
        #expect(ChoiceRule(below: 0, mass: 0.95, max: 3).verdict(probabilities([0.1, 0.4, 0.1, 0.1, 0, 0, 0, 0.2, 0, 0.1])) == .sure)
    }

    @Test func theConstantsComeFromTheMetadataWithDefaults() throws {
        #expect(try ChoiceRule(metadata: [:]) == .standard)
        #expect(ChoiceRule.standard == ChoiceRule(below: 0.8, mass: 0.95, max: 3))
        let fitted = try ChoiceRule(metadata: ["choice_below": "0.7", "choice_mass": "0.99", "choice_max": "2"])
        #expect(fitted == ChoiceRule(below: 0.7, mass: 0.99, max: 2))
        #expect(try ChoiceRule(metadata: ["choice_mass": "0.9"]) == ChoiceRule(below: 0.8, mass: 0.9, max: 3))
        for bad in [["choice_below": "1.5"], ["choice_below": "x"], ["choice_mass": "0"], ["choice_mass": "1.01"],
                    ["choice_max": "1"], ["choice_max": "4"], ["choice_max": "2.5"], ["choice_below": "nan"]] {
            #expect(throws: RecognitionError.self, "\(bad)") { try ChoiceRule(metadata: bad) }
        }
        // The recognizer reads them from its file; a file without them gets the defaults.
        let r = try Recognizer.bundled()
        let expected = try ChoiceRule(metadata: r.metadata)
        #expect(r.choiceRule == expected)
        #expect(try bundled(with: ["choice_below": nil, "choice_mass": nil, "choice_max": nil]).choiceRule == .standard)
        #expect(try bundled(with: ["choice_below": "0.6", "choice_mass": "0.97", "choice_max": "2"]).choiceRule
            == ChoiceRule(below: 0.6, mass: 0.97, max: 2))
        #expect(throws: RecognitionError.self) { try bundled(with: ["choice_max": "7"]) }
    }

    /// Every reading keeps to the rule: a choice is the fewest likeliest
    /// digits reaching the mass, 2 or 3 of them, the digit read first, only
    /// under `below`; a digit read without a choice is sure; no digit
    /// (`unsure`) offers nothing.
    @Test func readingsKeepToTheRule() throws {
        let r = try Recognizer.bundled()
        let rule = r.choiceRule
        let ws = r.makeWorkspace()
        var offered = 0, sure = 0
        for d in try drawings() {
            let reading = try r.recognize(d, in: ws)
            let p = reading.probabilities
            if reading.unsure {
                #expect(reading.choices.isEmpty)
                continue
            }
            if reading.choices.isEmpty {
                sure += 1
                #expect(reading.confidence >= rule.below || reading.confidence >= rule.mass)
                continue
            }
            offered += 1
            let c = reading.choices
            #expect((2...rule.max).contains(c.count) && c[0] == reading.digit && reading.confidence < rule.below)
            #expect(zip(c, c.dropFirst()).allSatisfy { p[$0] >= p[$1] })
            #expect(c.map { p[$0] }.reduce(0, +) >= rule.mass)
            #expect(c.dropLast().map { p[$0] }.reduce(0, +) < rule.mass)
            let others = (0..<10).filter { !c.contains($0) }
            #expect(others.allSatisfy { p[$0] <= p[c.last!] })
        }
        #expect(sure > 0)
        #expect(offered + sure > 0)
    }

    /// A 1 whose flag grows from short and steep to long and flat passes
    /// from 1 to 7, and somewhere on the way is offered as "1 or 7": the
    /// drawing is found, not hard-coded, so this holds for retrained weights.
    @Test func aFlaggedOneOnItsWayToASevenIsOfferedAsOneOrSeven() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        var found: Recognition?
        search: for length in stride(from: 0.1, through: 0.65, by: 0.025) {
            for angle in stride(from: 5.0, through: 80, by: 2.5) {
                let reading = try r.recognize(flaggedOne(length: length, angle: angle), in: ws)
                if Set(reading.choices).isSuperset(of: [1, 7]) { found = reading; break search }
            }
        }
        let reading = try #require(found)
        #expect(!reading.unsure && [1, 7].contains(reading.digit))
    }

    /// `mindpad recognize` writes the choices (empty when sure).
    @Test func recognizeLinesWritesTheChoices() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        var lines: [String] = []
        for length in stride(from: 0.1, through: 0.65, by: 0.025) {
            for angle in stride(from: 5.0, through: 80, by: 2.5) {
                let d = flaggedOne(length: length, angle: angle)
                lines.append(JSON.object([("strokes", .array(d.strokes.map { .array($0.map { .array([.double($0.x), .double($0.y)]) }) }))]).text)
            }
        }
        var input = lines[...]
        var output: [String] = []
        RecognizeLines.run(recognizer: r, input: { input.popFirst() }, output: { output.append($0) })
        #expect(output.count == lines.count)
        var withChoices = 0
        for (line, out) in zip(lines, output) {
            let json = try JSON.parse(out)
            let reading = try r.recognize(try RecognizeLines.parseDrawing(line), in: ws)
            #expect(json["choices"] == .array(reading.choices.map { .int($0) }))
            #expect(json["unsure"] == .bool(reading.unsure))
            if !reading.choices.isEmpty { withChoices += 1 }
        }
        #expect(withChoices > 0)
    }

    /// A number's digits get choices from the network that read them, by its
    /// rule; a digit is no digit only when its top digits do not hold the
    /// rule's mass (not below a confidence threshold any more).
    @Test func aNumbersDigitsAreJudgedByTheirNetworksRule() throws {
        let r = try Recognizer.bundled()
        let ws = r.makeWorkspace()
        var offered = 0
        for length in stride(from: 0.1, through: 0.65, by: 0.05) {
            for angle in stride(from: 10.0, through: 70, by: 5) {
                let one = flaggedOne(length: length, angle: angle).strokes[0]
                // "41": a plain 4 and the flagged 1 beside it.
                let four = [[(120.0, 40.0), (40, 190), (170, 190)], [(130, 110), (130, 270)]].map { $0.map { StrokePoint(x: $0.0, y: $0.1) } }
                let drawing = Drawing(strokes: four + [one.map { StrokePoint(x: $0.x + 220, y: $0.y) }])
                let reading = try r.readNumber(drawing, in: ws)
                for d in reading.digits {
                    if d.unsure { #expect(d.choices.isEmpty) }
                    if !d.choices.isEmpty {
                        offered += 1
                        #expect((2...3).contains(d.choices.count) && d.choices[0] == d.digit)
                    }
                }
                // The JSON of `mindpad recognize --number` carries them.
                if case .array(let items) = reading.json["digits"] {
                    for (item, d) in zip(items, reading.digits) {
                        #expect(item["choices"] == (d.choices.isEmpty ? nil : .array(d.choices.map { .int($0) })))
                    }
                }
                #expect(reading.hasChoices == (!reading.digits.contains(where: \.unsure) && reading.digits.contains { !$0.choices.isEmpty }))
            }
        }
        #expect(offered > 0, "no flagged 1 in a number was offered as a choice")
    }
}
