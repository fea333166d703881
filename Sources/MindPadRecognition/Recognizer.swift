import Foundation

/// Recognizes hand-drawn digits: strokes → 28×28 image (`Rasterizer`) → CNN → softmax.
///
/// A `Recognizer` is immutable and safe to share between threads. Each thread (or
/// connection) owns a `Workspace`: with it a call allocates nothing.
///
///     let recognizer = try Recognizer.bundled()
///     let workspace = recognizer.makeWorkspace()
///     let result = try recognizer.recognize(drawing, in: workspace)
public final class Recognizer: Sendable {
    /// File name of the bundled weights in the target's `Resources`.
    public static let bundledModelName = "mindpad-digits"
    /// File name of the bundled weights the number reader reads its digits with
    /// (see `numbers`).
    public static let bundledNumbersModelName = "mindpad-numbers"
    /// File name of the bundled weights the number reader weighs candidate
    /// digits with while it splits a number (see `candidates`).
    public static let bundledCandidatesModelName = "mindpad-candidates"

    /// The preprocessing the model was trained with (from the file's metadata).
    public let rasterizer: Rasterizer
    /// The safetensors `__metadata__` (architecture, training data, constants).
    public let metadata: [String: String]
    let network: DigitNetwork
    /// The logits are divided by this before the softmax (temperature scaling,
    /// fitted on held-out drawings by tools/train/export.py; 1 without metadata).
    public let temperature: Float
    /// The confidence under which the calibration set's digits are refused
    /// 0.25 % of the time (metadata `unsure_below`, 0 without it). It no
    /// longer decides `unsure`: a reading is a digit, a choice of digits or
    /// no digit by `choiceRule` (and a whole drawing by `refusal` too).
    /// Kept for tools and figures.
    public let unsureBelow: Float
    /// Which unsure readings are offered as a choice of digits and which are
    /// no digit at all (the metadata's `choice_below`, `choice_mass`,
    /// `choice_max`; `ChoiceRule.standard` where missing).
    public let choiceRule: ChoiceRule
    /// How a player's hand shifts this network's readings (the metadata's
    /// `hand`; nil without it: hands are neither applied nor learned).
    public let hand: HandModel?
    /// The rule that refuses a whole drawing by its confidence and its strokes
    /// (the metadata's `refusal`; nil without it).
    public let refusal: RefusalRule?
    /// The network has an 11th output, "not a digit": a drawing where it is the
    /// largest logit is `unsure` whatever its confidence.
    public var hasNotADigitOutput: Bool { network.outputs == 11 }
    private let numberReader: Recognizer?
    /// The recognizer `readNumber` reads each digit of a number with that
    /// `candidates` is unsure of (when there is a candidates network), beside
    /// this one: its own weights when it was given some, else this one. The
    /// bundled one is the same layers twice as wide (`NetworkWidths`, 229,514
    /// weights), trained on the synthetic writers, the segmenter's candidates
    /// and MNIST: it reads the synthetic writers' digits best, the
    /// single-digit network real writers' shapes, and a digit gets what the
    /// two agree on (docs/recognition.md, "Numbers").
    public var numbers: Recognizer { numberReader ?? self }
    /// The recognizer `readNumber` weighs candidate digits with while it
    /// splits a number (groups, the sides of cuts, runs and pieces of
    /// strokes): trained on the segmenter's own candidates as well as on
    /// digits (tools/train/number_pieces.py), so that a wrong candidate (half
    /// a 0, a 5 with half of the pen's way to the next digit, two digits
    /// written into each other) reads less surely than a right one. A digit
    /// it settles on less surely than `NumberReadingTuning.candidateRereadBelow`
    /// is read again by `numbers`. Nil: `numbers` does both.
    public let candidates: Recognizer?

    /// Loads weights from a safetensors file made by `tools/train/export.py`.
    public convenience init(contentsOf url: URL) throws(RecognitionError) {
        try self.init(safetensors: try Self.read(url))
    }

    /// `numbers`: the recognizer to read numbers' digits with (nil: this one);
    /// `candidates`: the one to weigh candidate digits with (nil: `numbers`).
    public init(safetensors bytes: [UInt8], numbers: Recognizer? = nil, candidates: Recognizer? = nil)
        throws(RecognitionError)
    {
        numberReader = numbers
        self.candidates = candidates
        let file = try SafeTensors(bytes: bytes)
        network = try DigitNetwork(file)
        metadata = file.metadata
        func constant(_ key: String, _ fallback: Double) throws(RecognitionError) -> Double {
            guard let text = file.metadata[key] else { return fallback }
            guard let v = Double(text), v.isFinite, v > 0, v < 28 else {
                throw RecognitionError(.invalidModel, detail: "metadata \(key)=\(text)")
            }
            return v
        }
        let defaults = Rasterizer()
        rasterizer = Rasterizer(
            fitSize: try constant("fit_size", defaults.fitSize),
            penWidth: try constant("pen_width", defaults.penWidth),
            centre: try constant("centre", defaults.centre),
            minimumStep: try constant("min_step", defaults.minimumStep))
        func calibration(_ key: String, _ fallback: Float, _ valid: ClosedRange<Float>) throws(RecognitionError) -> Float {
            guard let text = file.metadata[key] else { return fallback }
            guard let v = Float(text), valid.contains(v) else {
                throw RecognitionError(.invalidModel, detail: "metadata \(key)=\(text)")
            }
            return v
        }
        temperature = try calibration("temperature", 1, 0.05...20)
        unsureBelow = try calibration("unsure_below", 0, 0...1)
        choiceRule = try ChoiceRule(metadata: file.metadata)
        refusal = try file.metadata["refusal"].map { (text) throws(RecognitionError) in try RefusalRule(json: text) }
        let width = network.widths.hidden
        hand = try file.metadata["hand"].map { (text) throws(RecognitionError) in try HandModel(json: text, width: width) }
        if let side = file.metadata["grid"], side != String(Rasterizer.side) {
            throw RecognitionError(.invalidModel, detail: "grid \(side)")
        }
    }

    /// URL of the weights shipped in this module's resources.
    public static var bundledModelURL: URL? { bundledURL(bundledModelName) }

    static func bundledURL(_ name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "safetensors", subdirectory: "Resources")
    }

    private static func read(_ url: URL) throws(RecognitionError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw RecognitionError(.invalidModel, detail: "\(url.path): \(error)")
        }
    }

    private static let shared: Result<Recognizer, RecognitionError> = Result { () throws(RecognitionError) in
        func url(_ name: String) throws(RecognitionError) -> URL {
            guard let url = bundledURL(name) else {
                throw RecognitionError(.invalidModel, detail: "\(name).safetensors not in bundle")
            }
            return url
        }
        let numbers = try Recognizer(safetensors: try read(try url(bundledNumbersModelName)))
        let candidates = try Recognizer(safetensors: try read(try url(bundledCandidatesModelName)))
        return try Recognizer(safetensors: try read(try url(bundledModelName)), numbers: numbers, candidates: candidates)
    }

    /// The bundled model (and the number reader's, as `numbers` and
    /// `candidates`), loaded once per process.
    public static func bundled() throws(RecognitionError) -> Recognizer {
        try shared.get()
    }

    /// Scratch buffers for one thread at a time, for this recognizer and the
    /// networks it reads numbers with.
    public func makeWorkspace() -> Workspace {
        Workspace(widths: [numbers.network, candidates?.network].reduce(network.widths) { $0.union($1?.widths ?? .v1) })
    }

    /// A stroke whose box's larger side is under this share of the tallest
    /// stroke's height is a tap or a tick of the pen, no digit and no part of
    /// one: `recognize` and `readNumber` (`NumberReadingTuning.speckSize`)
    /// leave it out (`withoutSpecks`). See docs/recognition.md, "Taps and
    /// ticks".
    public static let speckSize = 0.06

    /// Rasterizes and classifies a drawing, taps and ticks under `speckSize`
    /// left out (0: read as ink); `unsure` by the refusal rule when the model
    /// has one, `choices` (or `unsure`) by `choiceRule`. Allocates nothing
    /// unless a tap or a tick is left out, or a choice is offered. With a
    /// player's `hand` (and a model with `hand` metadata), the reading is
    /// shifted towards that player's own way of writing (`PlayerHand`).
    public func recognize(
        _ drawing: Drawing, in workspace: Workspace, speckSize: Double = Recognizer.speckSize, hand: PlayerHand? = nil
    ) throws(RecognitionError) -> Recognition {
        let read = try rasterizeAsRead(drawing, into: workspace, speckSize: speckSize)
        return classifyWorkspaceImage(workspace, strokesOf: read, hand: hand)
    }

    /// Teaches `hand` that `drawing` is `digit`: the drawing is read as
    /// `recognize` reads it and its hidden vector learned. The caller says
    /// what the digit is from what the player did, never from a question's
    /// expected answer (a tapped choice, or a reading graded right). Does
    /// nothing without a `hand` model or for a hand of another width.
    public func learn(
        _ drawing: Drawing, as digit: Int, into hand: inout PlayerHand, in workspace: Workspace,
        speckSize: Double = Recognizer.speckSize
    ) throws(RecognitionError) {
        guard let model = self.hand, hand.width == model.width, (0..<10).contains(digit) else { return }
        _ = try rasterizeAsRead(drawing, into: workspace, speckSize: speckSize)
        network.forward(workspace)
        hand.learn(hidden: workspace.hiddenAfterReLU(model.width), digit: digit, model: model)
    }

    /// A new hand for this network (its width), or nil when it has no `hand` model.
    public func makeHand() -> PlayerHand? {
        hand.map { PlayerHand(width: $0.width) }
    }

    /// The features the refusal rule judges a whole drawing by (for tests and
    /// tools), taps and ticks left out as `recognize` leaves them out.
    public func refusalFeatures(
        _ drawing: Drawing, in workspace: Workspace, speckSize: Double = Recognizer.speckSize
    ) throws(RecognitionError) -> SIMD8<Double> {
        let read = try rasterizeAsRead(drawing, into: workspace, speckSize: speckSize)
        let r = classifyWorkspaceImage(workspace)
        return RefusalRule.features(r.probabilities, rasterizer.shape(of: read))
    }

    /// Validates a whole drawing, leaves out its taps and ticks and draws the
    /// rest into the workspace's image; returns the drawing as read.
    private func rasterizeAsRead(
        _ drawing: Drawing, into workspace: Workspace, speckSize: Double
    ) throws(RecognitionError) -> Drawing {
        try Rasterizer.validate(drawing)
        let read = Self.withoutSpecks(drawing, size: speckSize)
        rasterizer.rasterize(read, part: .whole, into: UnsafeMutableBufferPointer(start: workspace.image, count: 784))
        return read
    }

    /// Rasterizes and classifies one part of an already validated drawing (a
    /// digit of a number), judged by `choiceRule`; or, not `judged` (a
    /// candidate the segmenter weighs), `unsure` only by the "not a digit"
    /// output and without choices, which allocates nothing (`judged(by:)`
    /// judges it later).
    func recognize(_ drawing: Drawing, part: InkPart, in workspace: Workspace, judged: Bool = true,
                   hand: PlayerHand? = nil) -> Recognition {
        rasterizer.rasterize(drawing, part: part, into: UnsafeMutableBufferPointer(start: workspace.image, count: 784))
        return classifyWorkspaceImage(workspace, judged: judged, hand: hand)
    }

    /// Same, with a temporary workspace (allocates; prefer the other form in loops).
    public func recognize(_ drawing: Drawing) throws(RecognitionError) -> Recognition {
        try recognize(drawing, in: makeWorkspace())
    }

    /// Classifies an already rasterized 28×28 image (row-major, 0 = background, 1 = ink).
    public func classify(image: some Collection<Float>, in workspace: Workspace) -> Recognition {
        precondition(image.count == 784, "image must have 28×28 values")
        _ = UnsafeMutableBufferPointer(start: workspace.image, count: 784).initialize(from: image)
        return classifyWorkspaceImage(workspace)
    }

    /// The network's raw outputs for a 28×28 image (for tests and evaluation): 10
    /// digits, and "not a digit" as the 11th when the model has it.
    public func logits(image: [Float], in workspace: Workspace) -> [Float] {
        _ = classify(image: image, in: workspace)
        return Array(UnsafeBufferPointer(start: workspace.logits, count: network.outputs))
    }

    /// The digit read and its probabilities are the softmax of the ten digit
    /// logits (with an 11-output model, given that it is a digit: the number reader
    /// compares digits by them); "not a digit" only decides `unsure`, as
    /// tools/train/export.py's `unsure` does. With the drawing's strokes and a
    /// refusal rule, the rule may refuse the drawing as no digit; otherwise
    /// `choiceRule` says whether it is read surely, offered as a choice of
    /// digits, or no digit.
    private func classifyWorkspaceImage(
        _ workspace: Workspace, strokesOf drawing: Drawing? = nil, judged: Bool = true, hand: PlayerHand? = nil
    ) -> Recognition {
        network.forward(workspace)
        let l = workspace.logits
        var best = 0
        for i in 1..<10 where l[i] > l[best] { best = i }
        var p = SIMD16<Float>()
        var sum: Float = 0
        let inverse = 1 / Double(temperature)
        if let model = self.hand, let hand, hand.learned > 0, hand.width == model.width {
            // The player's pull is added to the calibrated logits l / T, of
            // the digits the network itself finds plausible (at least
            // `model.gate` without it) only: a wrong label learned never
            // turns a sure reading.
            let shift = hand.shift(hidden: workspace.hiddenAfterReLU(model.width), model: model)
            var z = SIMD16<Double>()
            var total = 0.0
            for i in 0..<10 {
                z[i] = Double(l[i] - l[best]) * inverse
                total += Foundation.exp(z[i])
            }
            for i in 0..<10 where Foundation.exp(z[i]) >= Double(model.gate) * total { z[i] += Double(shift[i]) }
            best = 0
            for i in 1..<10 where z[i] > z[best] { best = i }
            for i in 0..<10 {
                p[i] = Float(Foundation.exp(z[i] - z[best]))
                sum += p[i]
            }
        } else {
            for i in 0..<10 {
                p[i] = Float(Foundation.exp(Double(l[i] - l[best]) * inverse))
                sum += p[i]
            }
        }
        p /= SIMD16(repeating: sum)
        let notADigit = network.outputs == 11 && l[10] > l[best]
        let probabilities = DigitProbabilities(p)
        guard judged else {
            return Recognition(digit: best, confidence: p[best], probabilities: probabilities, unsure: notADigit)
        }
        let refused = if let refusal, let drawing {
            refusal.refuses(RefusalRule.features(probabilities, rasterizer.shape(of: drawing)))
        } else {
            false
        }
        return Recognition(digit: best, confidence: p[best], probabilities: probabilities, unsure: false)
            .judged(by: choiceRule, refused: notADigit || refused)
    }

    /// Per-thread scratch memory: the image, every layer's activations and where
    /// their non-zero values are (67 KB for mindpad-cnn-v1's widths), sized
    /// for the widest of the networks it serves.
    /// Not thread-safe: use one per thread or per connection.
    public final class Workspace {
        let raw: UnsafeMutableRawPointer
        /// Each layer at least this wide: the networks it can serve.
        let widths: NetworkWidths
        let image: UnsafeMutablePointer<Float>  // 28×28
        let act1: UnsafeMutablePointer<Float>  // 30×30×8, conv1 output with a spill border
        let act2: UnsafeMutablePointer<Float>  // 14×14×16
        let act3: UnsafeMutablePointer<Float>  // 5×5×32
        let hidden: UnsafeMutablePointer<Float>  // 64
        let logits: UnsafeMutablePointer<Float>  // 10 or 11 (12 written)
        // Non-zero inputs (see DigitNetwork.forward): a list for conv1 and fc1,
        // the pooled maps with a bit per non-zero channel for conv2 and conv3.
        let nzValue: UnsafeMutablePointer<Float>  // 800
        let nzIndex: UnsafeMutablePointer<Int32>  // 800
        let value2: UnsafeMutablePointer<Float>  // 16×16×8, pooled conv1 (border stays 0)
        let mask2: UnsafeMutablePointer<UInt32>  // 16×16, bit c: channel c not 0
        let value3: UnsafeMutablePointer<Float>  // 7×7×16, pooled conv2
        let mask3: UnsafeMutablePointer<UInt32>  // 7×7
        // The same masks, 64 channels wide, for forwardAnyWidth (the sizes
        // above are mindpad-cnn-v1's; a wider network's are its own).
        let wideMask2: UnsafeMutablePointer<UInt64>  // 16×16
        let wideMask3: UnsafeMutablePointer<UInt64>  // 7×7

        init(widths: NetworkWidths = .v1) {
            let w = widths.union(.v1)
            self.widths = w
            let features = max(784, w.features)
            // One block of 4-byte elements (a mask of 64 bits takes two), each part 64-byte aligned.
            let counts = [784, 900 * w.conv1, 196 * w.conv2, w.features, w.hidden, 16, features, features,
                          256 * w.conv1, 256, 49 * w.conv2, 49, 2 * 256, 2 * 49]
            let offsets = counts.reduce(into: [0]) { $0.append($0.last! + ($1 + 15) / 16 * 16) }
            let block = UnsafeMutableRawPointer.allocate(byteCount: offsets.last! * 4, alignment: 64)
            block.initializeMemory(as: UInt8.self, repeating: 0, count: offsets.last! * 4)
            raw = block
            func floats(_ k: Int) -> UnsafeMutablePointer<Float> {
                (block + offsets[k] * 4).bindMemory(to: Float.self, capacity: counts[k])
            }
            func ints(_ k: Int) -> UnsafeMutablePointer<Int32> {
                (block + offsets[k] * 4).bindMemory(to: Int32.self, capacity: counts[k])
            }
            func masks(_ k: Int) -> UnsafeMutablePointer<UInt32> {
                (block + offsets[k] * 4).bindMemory(to: UInt32.self, capacity: counts[k])
            }
            func wideMasks(_ k: Int) -> UnsafeMutablePointer<UInt64> {
                (block + offsets[k] * 4).bindMemory(to: UInt64.self, capacity: counts[k] / 2)
            }
            image = floats(0); act1 = floats(1); act2 = floats(2); act3 = floats(3)
            hidden = floats(4); logits = floats(5); nzValue = floats(6); nzIndex = ints(7)
            value2 = floats(8); mask2 = masks(9)
            value3 = floats(10); mask3 = masks(11)
            wideMask2 = wideMasks(12); wideMask3 = wideMasks(13)
        }

        deinit { raw.deallocate() }

        /// fc1's outputs after their ReLU (in place: the network has used them).
        func hiddenAfterReLU(_ width: Int) -> UnsafeBufferPointer<Float> {
            for i in 0..<width { hidden[i] = Swift.max(hidden[i], 0) }
            return UnsafeBufferPointer(start: hidden, count: width)
        }

        /// The last rasterized image (28×28, row-major), e.g. for debugging.
        public var lastImage: [Float] { Array(UnsafeBufferPointer(start: image, count: 784)) }
    }
}
