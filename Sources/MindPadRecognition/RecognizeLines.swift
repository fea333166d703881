import MindPadJSON
/// The `mindpad recognize` job: JSON Lines in, one JSON line out per input line.
///
/// Input, one drawing per line (other fields are ignored; `t_ms` is optional):
///
///     {"width": W, "height": H, "strokes": [[[x, y, t_ms], ...], ...]}
///
/// Output, in order, for a digit (`Mode.digit`):
/// `{"digit": d, "confidence": p, "probabilities": [p0, ..., p9], "unsure": false, "choices": []}`
/// (`choices`: the digits to offer, likeliest first, when the reading is
/// unsure but they are plausible; `unsure`: no digit); for a number
/// written left to right (`Mode.number`, `Recognizer.readNumber`):
/// `{"number":"3240","digits":[{"digit":3,"confidence":0.99,"box":[x0,y0,x1,y1]},...]}`
/// (a digit offered as a choice has `"choices":[1,7]`, one that is no digit `"unsure":true`);
/// or `{"error": "code: reason"}` for a line that cannot be used; processing goes on.
public enum RecognizeLines {
    /// Longer lines are refused without being parsed (10,000 points fit easily).
    public static let maxLineBytes = 1 << 20

    /// What each line holds: one digit, or a whole number.
    public enum Mode: Sendable {
        case digit
        case number
    }

    /// Runs the whole job with the bundled model, e.g.
    /// `try RecognizeLines.run(input: { readLine() }, output: { print($0) })`.
    public static func run(mode: Mode = .digit, input: () -> String?, output: (String) -> Void) throws(RecognitionError) {
        run(recognizer: try Recognizer.bundled(), mode: mode, input: input, output: output)
    }

    /// Runs the whole job with a given model until `input` returns nil.
    public static func run(
        recognizer: Recognizer, mode: Mode = .digit, input: () -> String?, output: (String) -> Void
    ) {
        let workspace = recognizer.makeWorkspace()
        while let line = input() {
            output(respond(to: line, mode: mode, recognizer: recognizer, workspace: workspace))
        }
    }

    /// The answer to one input line (without a newline).
    public static func respond(
        to line: String, mode: Mode = .digit, recognizer: Recognizer, workspace: Recognizer.Workspace
    ) -> String {
        do {
            let drawing = try parseDrawing(line)
            switch mode {
            case .digit: return encode(try recognizer.recognize(drawing, in: workspace))
            case .number: return try recognizer.readNumber(drawing, in: workspace).json.text
            }
        } catch {
            return encode(error)
        }
    }

    /// Parses one input line into a drawing, enforcing the rasterizer's limits early.
    public static func parseDrawing(_ line: String) throws(RecognitionError) -> Drawing {
        guard line.utf8.count <= maxLineBytes else {
            throw RecognitionError(.lineTooLong, detail: "\(line.utf8.count) bytes")
        }
        let json: JSON
        do {
            json = try JSON.parse(line, allowNonFinite: true)
        } catch {
            throw RecognitionError(.malformedInput, detail: "\(error.reason) at byte \(error.offset)")
        }
        guard case .object = json else { throw RecognitionError(.malformedInput, detail: "not an object") }
        guard let strokeValues = json["strokes"]?.array else {
            throw RecognitionError(.malformedInput, detail: "no strokes array")
        }
        if strokeValues.count > Rasterizer.maxStrokes {
            throw RecognitionError(.tooManyStrokes, detail: "\(strokeValues.count) strokes")
        }
        var strokes: [[StrokePoint]] = []
        strokes.reserveCapacity(strokeValues.count)
        var total = 0
        for (s, strokeValue) in strokeValues.enumerated() {
            guard let pointValues = strokeValue.array else {
                throw RecognitionError(.malformedInput, detail: "stroke \(s) is not an array")
            }
            total += pointValues.count
            if total > Rasterizer.maxPoints { throw RecognitionError(.tooManyPoints, detail: "> \(total) points") }
            var points: [StrokePoint] = []
            points.reserveCapacity(pointValues.count)
            for (k, pointValue) in pointValues.enumerated() {
                guard let c = pointValue.array, c.count >= 2, c.count <= 3,
                      let x = c[0].number, let y = c[1].number
                else {
                    throw RecognitionError(.malformedInput, detail: "stroke \(s) point \(k) is not [x, y, t]")
                }
                var t = 0.0
                if c.count == 3 {
                    guard let tv = c[2].number else {
                        throw RecognitionError(.malformedInput, detail: "stroke \(s) point \(k): t is not a number")
                    }
                    t = tv
                }
                points.append(StrokePoint(x: x, y: y, t: t))
            }
            strokes.append(points)
        }
        let drawing = Drawing(strokes: strokes)
        try Rasterizer.validate(drawing)
        return drawing
    }

    static func encode(_ r: Recognition) -> String {
        var s = "{\"digit\": \(r.digit), \"confidence\": \(number(r.confidence)), \"probabilities\": ["
        for i in 0..<10 {
            if i > 0 { s += ", " }
            s += number(r.probabilities[i])
        }
        return s + "], \"unsure\": \(r.unsure), \"choices\": [\(r.choices.map(String.init).joined(separator: ", "))]}"
    }

    static func encode(_ error: RecognitionError) -> String {
        "{\"error\": \"\(error.code.rawValue): \(escape(error.description))\"}"
    }

    private static func number(_ v: Float) -> String {
        // Shortest round-trip form; Float never prints NaN/inf here (softmax output).
        v.isFinite ? "\(v)" : "0"
    }

    private static func escape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
