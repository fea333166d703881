import MindPadJSON

/// A handwritten number as read: its digits, left to right, each with where
/// it was found. Made by `Recognizer.readNumber(_:in:)`.
public struct NumberReading: Sendable, Equatable {
    public let digits: [DigitReading]
    /// What the reading cost, in `NumberReadingTuning.workLimit`'s units
    /// (points visited, and `readWork` per candidate digit read); at most
    /// a little over that limit.
    public let work: Int
    /// The reading ran into `NumberReadingTuning.workLimit` (a drawing that
    /// is no handwriting, such as a scribble): what was left unread of it was
    /// read whole, not searched for splits.
    public let cutShort: Bool

    public init(digits: [DigitReading], work: Int = 0, cutShort: Bool = false) {
        self.digits = digits
        self.work = work
        self.cutShort = cutShort
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

    /// Whether any digit is offered as a choice (and none is no digit): the
    /// player picks those digits before the number is graded.
    public var hasChoices: Bool {
        !digits.contains(where: \.unsure) && digits.contains { !$0.choices.isEmpty }
    }

    /// `{"number":"3240","digits":[…]}`, what `mindpad recognize --number`
    /// writes: `digitsJSON`, with `"unsure":true` on an unsure digit.
    public var json: JSON {
        .object([("number", .string(number)), ("digits", digitObjects(markingUnsure: true))])
    }

    /// `[{"digit":3,"confidence":0.99,"box":[x0,y0,x1,y1]},…]`, the digits as the
    /// live guess carries them (which writes an unsure digit as `null`), every
    /// number to 3 decimals; a digit offered as a choice has its `choices`
    /// (`[1,7]`, likeliest first) after its box.
    public var digitsJSON: JSON { digitObjects(markingUnsure: false) }

    private func digitObjects(markingUnsure: Bool) -> JSON {
        .array(digits.map { d in
            var fields: [(String, JSON)] = [
                ("digit", .int(d.digit)),
                ("confidence", .double(Self.rounded(Double(d.confidence)))),
                ("box", .array([d.box.x0, d.box.y0, d.box.x1, d.box.y1].map { .double(Self.rounded($0)) })),
            ]
            if !d.choices.isEmpty { fields.append(("choices", .array(d.choices.map(JSON.int)))) }
            if markingUnsure && d.unsure { fields.append(("unsure", .bool(true))) }
            return .object(fields)
        })
    }

    /// To 3 decimals, as the protocol writes confidences and coordinates.
    public static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
}

/// Ink the segmenter read as one candidate digit (`Recognizer.readNumber`'s
/// `partRead`): the strokes in `strokes` (bit s for stroke s), only the points
/// with lo ≤ x + shear·y ≤ hi, and of stroke `piece` (when ≥ 0) only the
/// points in `points`.
public struct CandidatePart: Sendable {
    public let strokes: UInt64
    public let shear: Double
    public let lo: Double
    public let hi: Double
    public let piece: Int
    public let points: Range<Int>
}

/// One digit of a `NumberReading`.
public struct DigitReading: Sendable, Equatable {
    public let digit: Int
    public let confidence: Float
    /// Where the digit's ink is, in the drawing's coordinates.
    public let box: InkBox
    /// No digit, as far as the network that read it can tell
    /// (`Recognition.unsure`: not even its choice rule's most digits hold
    /// its share of the probability): shown as "?", and the number is not
    /// graded.
    public let unsure: Bool
    /// The digits to offer for this place, likeliest first (2 or 3), when
    /// the network that read it is unsure but these are plausible
    /// (`Recognition.choices`); empty for a sure digit and for no digit.
    public let choices: [Int]

    public init(digit: Int, confidence: Float, box: InkBox, unsure: Bool = false, choices: [Int] = []) {
        self.digit = digit
        self.confidence = confidence
        self.box = box
        self.unsure = unsure
        self.choices = unsure ? [] : choices
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
    /// The drawing with every stroke smaller than `size` of the tallest
    /// stroke's height (the stroke's box's larger side) emptied: a tap or a
    /// tick of the pen is no digit and no part of one. The tallest stroke,
    /// not the ink's box, sets the scale, so a tap far above the number
    /// does not raise it. Strokes keep their places (an emptied stroke has
    /// no points), so stroke numbers still mean the same strokes. The
    /// tallest stroke is never left out. Allocates only when a stroke is
    /// left out (two passes over the points instead of a list of boxes).
    static func withoutSpecks(_ drawing: Drawing, size: Double) -> Drawing {
        func box(_ stroke: [StrokePoint]) -> (width: Double, height: Double) {
            guard let first = stroke.first else { return (0, 0) }
            var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y
            for p in stroke { x0 = min(x0, p.x); x1 = max(x1, p.x); y0 = min(y0, p.y); y1 = max(y1, p.y) }
            return (x1 - x0, y1 - y0)
        }
        guard size > 0, drawing.strokes.count > 1 else { return drawing }
        var tallest = 0.0
        for stroke in drawing.strokes { tallest = max(tallest, box(stroke).height) }
        let least = tallest * size
        guard least > 0 else { return drawing }
        var kept: [[StrokePoint]]? = nil
        for (k, stroke) in drawing.strokes.enumerated() where !stroke.isEmpty {
            let b = box(stroke)
            guard max(b.width, b.height) < least else { continue }
            if kept == nil { kept = drawing.strokes }
            kept![k] = []
        }
        return kept.map { Drawing(strokes: $0) } ?? drawing
    }

    /// Most digits a reading returns (the games' numbers have at most 6);
    /// ink beyond the eighth digit from the left is not read.
    public static let maxNumberDigits = 8

    /// Splits a drawing of a number written left to right into digits and
    /// reads each one with the `candidates` network, or `numbers` where that
    /// is unsure (see `NumberSegmenter`): strokes
    /// that overlap or nearly overlap horizontally are one digit, a gap splits,
    /// and touching digits are cut where their ink is thinnest when that reads
    /// better than one digit. Validates like `recognize`; boxes are in the
    /// drawing's coordinates.
    ///
    /// `tuning` and `gateFeatures` are for measuring and fitting the segmenter
    /// (tools/train/number_reading.py): `gateFeatures` is told, for every group
    /// of strokes the split gate decides on, the strokes (bit s for stroke s)
    /// and the gate's features. `partRead` is told every candidate digit the
    /// segmenter reads, and the 28×28 image read (for training the number
    /// network on what the segmenter shows it). `hand`: the player's hand,
    /// applied where the single-digit network reads a digit the candidates
    /// network is unsure of (`PlayerHand`).
    public func readNumber(
        _ drawing: Drawing, in workspace: Workspace, tuning: NumberReadingTuning = .standard,
        gateFeatures: ((UInt64, [Double]) -> Void)? = nil,
        partRead: ((CandidatePart, UnsafeBufferPointer<Float>) -> Void)? = nil,
        wayFeatures: ((Int, Int, Int, [Double]) -> Void)? = nil,
        hand: PlayerHand? = nil
    ) throws(RecognitionError) -> NumberReading {
        try Rasterizer.validate(drawing)
        let drawing = Self.withoutSpecks(drawing, size: tuning.speckSize)
        var segmenter = NumberSegmenter(drawing, recognizer: candidates ?? numbers, workspace: workspace, tuning: tuning)
        segmenter.wayFeaturesTold = wayFeatures
        if let lifted = segmenter.liftingPensWays() {
            let work = segmenter.work
            segmenter = NumberSegmenter(lifted, recognizer: candidates ?? numbers, workspace: workspace, tuning: tuning)
            segmenter.carry(work)
        }
        if candidates != nil { segmenter.digitReader = numbers }
        if numbers !== self { segmenter.secondReader = self }
        segmenter.hand = hand
        segmenter.gateFeatures = gateFeatures
        segmenter.partRead = partRead
        let digits = segmenter.read()
        return NumberReading(digits: digits, work: segmenter.work, cutShort: segmenter.outOfWork)
    }
}
