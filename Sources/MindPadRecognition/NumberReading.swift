/// A handwritten number as read: its digits, left to right, each with where
/// it was found. Made by `Recognizer.readNumber(_:in:)`.
public struct NumberReading: Sendable, Equatable {
    public let digits: [DigitReading]

    public init(digits: [DigitReading]) {
        self.digits = digits
    }

    /// The digits as text, leading zeros kept ("010").
    public var number: String {
        String(decoding: digits.map { UInt8(48 + $0.digit) }, as: UTF8.self)
    }

    /// The least sure digit's confidence: how sure the reading is as a whole
    /// (0 for no digits).
    public var confidence: Float {
        digits.map(\.confidence).min() ?? 0
    }
}

/// One digit of a `NumberReading`.
public struct DigitReading: Sendable, Equatable {
    public let digit: Int
    public let confidence: Float
    /// Where the digit's ink is, in the drawing's coordinates.
    public let box: InkBox

    public init(digit: Int, confidence: Float, box: InkBox) {
        self.digit = digit
        self.confidence = confidence
        self.box = box
    }
}

/// An axis-aligned box around ink, in the drawing's coordinates.
public struct InkBox: Sendable, Equatable {
    public var x0: Double
    public var y0: Double
    public var x1: Double
    public var y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}

extension Recognizer {
    /// Most digits a reading returns (the games' numbers have at most 6);
    /// ink beyond the eighth digit from the left is not read.
    public static let maxNumberDigits = 8

    /// Splits a drawing of a number written left to right into digits and
    /// reads each one with the digit network.
    ///
    /// FIRST CUT (to be replaced by the real segmenter): strokes whose
    /// horizontal extents overlap are one digit; a gap splits.
    public func readNumber(_ drawing: Drawing, in workspace: Workspace) throws(RecognitionError) -> NumberReading {
        try Rasterizer.validate(drawing)
        struct Group { var x0: Double; var x1: Double; var strokes: [Int] }
        var groups: [Group] = []
        for (s, stroke) in drawing.strokes.enumerated() where !stroke.isEmpty {
            var lo = Double.infinity, hi = -Double.infinity
            for p in stroke { lo = min(lo, p.x); hi = max(hi, p.x) }
            var merged = Group(x0: lo, x1: hi, strokes: [s])
            groups.removeAll { g in
                guard g.x1 >= merged.x0 && g.x0 <= merged.x1 else { return false }
                merged = Group(x0: min(g.x0, merged.x0), x1: max(g.x1, merged.x1), strokes: g.strokes + merged.strokes)
                return true
            }
            groups.append(merged)
        }
        groups.sort { $0.x0 < $1.x0 }
        var digits: [DigitReading] = []
        for g in groups.prefix(Self.maxNumberDigits) {
            let part = Drawing(strokes: g.strokes.sorted().map { drawing.strokes[$0] })
            let r = try recognize(part, in: workspace)
            var box = InkBox(x0: .infinity, y0: .infinity, x1: -.infinity, y1: -.infinity)
            for stroke in part.strokes {
                for p in stroke {
                    box.x0 = min(box.x0, p.x); box.y0 = min(box.y0, p.y)
                    box.x1 = max(box.x1, p.x); box.y1 = max(box.y1, p.y)
                }
            }
            digits.append(DigitReading(digit: r.digit, confidence: r.confidence, box: box))
        }
        return NumberReading(digits: digits)
    }
}
