import Foundation
import MindPadRecognition

/// Drawings the recognizer is unsure of but offers as a choice of digits
/// (issue 43), found at test time through the bundled recognizer, never
/// hard-coded: a retrained network or a refitted choice rule moves which
/// drawing of a family is ambiguous, not that some member is. Each family
/// goes continuously from a digit to something else (a template bent
/// towards another digit's, a 1 whose flag grows long and flat, a stroke
/// cut short, squeezed or slanted), so somewhere along it the network
/// hesitates between the digit and a neighbour.
extension DigitTemplates {
    /// A 1 whose flag goes from short and steep to long and flat: towards
    /// a 7. `length` is the flag's share of the height, `angle` its slope
    /// from the horizontal in degrees.
    static func flaggedOne(length: Double, angle: Double) -> [[StrokePoint]] {
        let top = (x: 110.0, y: 40.0), height = 220.0
        let a = angle * .pi / 180
        let start = (x: top.x - length * height * cos(a), y: top.y + length * height * sin(a))
        var points: [(Double, Double)] = (0...12).map { i in
            let t = Double(i) / 12
            return (start.x + (top.x - start.x) * t, start.y + (top.y - start.y) * t)
        }
        points += (1...24).map { (top.x, top.y + height * Double($0) / 24) }
        return [points.enumerated().map { StrokePoint(x: rounded($1.0), y: rounded($1.1), t: Double($0) * 12) }]
    }

    /// The 1s of `flaggedOne`, flag 10 %…65 % of the height at 5°…80°.
    static var flaggedOnes: [[[StrokePoint]]] {
        stride(from: 0.10, through: 0.65, by: 0.025).flatMap { length in
            stride(from: 5.0, through: 80, by: 2.5).map { flaggedOne(length: length, angle: $0) }
        }
    }

    /// Drawings near `digit`: its template bent towards each other
    /// one-stroke template (1 % steps), its last stroke cut short from
    /// either end, squeezed or stretched sideways, slanted.
    static func variants(of digit: Int) -> [[[StrokePoint]]] {
        let template = strokes(for: digit)
        var out: [[[StrokePoint]]] = []
        if template.count == 1 {
            let a = resampled(template[0])
            for other in 0..<10 where other != digit && strokes(for: other).count == 1 {
                let b = resampled(strokes(for: other)[0])
                for k in 1..<100 {
                    let t = Double(k) / 100
                    out.append([zip(a, b).enumerated().map { i, pair in
                        StrokePoint(x: rounded(pair.0.x * (1 - t) + pair.1.x * t), y: rounded(pair.0.y * (1 - t) + pair.1.y * t),
                                    t: Double(i) * 12)
                    }])
                }
            }
        }
        let last = template[template.count - 1]
        for k in 40..<100 {
            let n = max(2, last.count * k / 100)
            out.append(Array(template.dropLast()) + [Array(last.prefix(n))])
            out.append(Array(template.dropLast()) + [Array(last.suffix(n))])
        }
        for k in 4..<60 {
            let s = Double(k) / 20
            out.append(template.map { $0.map { StrokePoint(x: rounded(100 + ($0.x - 100) * s), y: $0.y, t: $0.t) } })
        }
        for k in -50...50 where k != 0 {
            let s = Double(k) / 50
            out.append(template.map { $0.map { StrokePoint(x: rounded($0.x + ($0.y - 150) * s), y: $0.y, t: $0.t) } })
        }
        return out
    }

    /// The first of `drawings` the recognizer offers as a choice that holds
    /// every digit of `among`, with the choice; nil when none does.
    static func choice(among digits: Set<Int>, in drawings: [[[StrokePoint]]],
                       recognizer: Recognizer) throws -> (strokes: [[StrokePoint]], choices: [Int])? {
        let workspace = recognizer.makeWorkspace()
        for strokes in drawings {
            let r = try recognizer.recognize(Drawing(strokes: strokes), in: workspace)
            if !r.unsure, digits.isSubset(of: r.choices) { return (strokes, r.choices) }
        }
        return nil
    }

    /// A drawing of `digit` the bundled recognizer offers as a choice with
    /// `digit` among the options (a 1 or a 7: a flagged 1 offered as 1 or 7).
    static func ambiguous(_ digit: Int, recognizer: Recognizer) throws -> (strokes: [[StrokePoint]], choices: [Int])? {
        if digit == 1 || digit == 7, let found = try choice(among: [1, 7], in: flaggedOnes, recognizer: recognizer) {
            return found
        }
        return try choice(among: [digit], in: variants(of: digit), recognizer: recognizer)
    }

    /// `number` written as `strokes(forNumber:)` writes it, but one place
    /// drawn so that the number reader offers a choice there holding that
    /// place's digit, every other place read surely as written: the
    /// strokes, the place and its choices; nil when no variant does.
    static func ambiguousNumber(_ number: String, recognizer: Recognizer) throws
        -> (strokes: [[StrokePoint]], place: Int, choices: [Int])?
    {
        let digits = number.compactMap { Int(String($0)) }
        let workspace = recognizer.makeWorkspace()
        for place in digits.indices {
            let family = digits[place] == 1 || digits[place] == 7 ? flaggedOnes + variants(of: digits[place]) : variants(of: digits[place])
            for variant in family.prefix(1500) {
                let strokes = digits.enumerated().flatMap { i, digit in
                    (i == place ? variant : DigitTemplates.strokes(for: digit)).map { stroke in
                        stroke.map { StrokePoint(x: $0.x + Double(i) * 220, y: $0.y, t: $0.t + Double(i) * 1000) }
                    }
                }
                let reading = try recognizer.readNumber(Drawing(strokes: strokes), in: workspace)
                guard reading.digits.count == digits.count, !reading.digits.contains(where: \.unsure) else { continue }
                let fits = reading.digits.enumerated().allSatisfy { i, d in
                    i == place ? d.choices.contains(digits[i]) : d.digit == digits[i] && d.choices.isEmpty
                }
                if fits { return (strokes, place, reading.digits[place].choices) }
            }
        }
        return nil
    }

    /// A one-stroke polyline as 60 points evenly spaced along its length.
    private static func resampled(_ stroke: [StrokePoint], count: Int = 60) -> [(x: Double, y: Double)] {
        var lengths = [0.0]
        for (a, b) in zip(stroke, stroke.dropFirst()) { lengths.append(lengths.last! + hypot(b.x - a.x, b.y - a.y)) }
        let total = lengths.last!
        var j = 0
        return (0..<count).map { i in
            let at = total * Double(i) / Double(count - 1)
            while j < lengths.count - 2 && lengths[j + 1] < at { j += 1 }
            let span = max(lengths[j + 1] - lengths[j], 1e-9), u = min(1, max(0, (at - lengths[j]) / span))
            let a = stroke[j], b = stroke[j + 1]
            return (a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u)
        }
    }

    private static func rounded(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}
