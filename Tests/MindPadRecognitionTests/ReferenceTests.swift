import Foundation
import Testing
@testable import MindPadRecognition
import MindPadRules

/// The fast rasterizer and network against plain reference versions written
/// the obvious way (the rasterizer as it was before the speed work of branch
/// `readspeed`: two full passes, every capsule's pixels clamped and
/// max-combined one by one; the network as dense loops in the order the
/// fast one adds): the same images and logits, bit for bit, on many
/// drawings, whole and cut into parts.
@Suite struct ReferenceTests {
    /// A seeded generator (the rules' own), so a failure repeats.
    typealias Generator = SeededGenerator

    /// 1–5 strokes of 1–60 points: random walks (smooth or jerky), sometimes
    /// repeated points, one-point strokes, huge or tiny coordinates.
    static func drawing(_ g: inout Generator) -> Drawing {
        let scale = [1.0, 0.01, 300, 900][g.int(in: 0...3)]  // within Rasterizer.maxMagnitude
        var strokes: [[StrokePoint]] = []
        for _ in 0..<g.int(in: 1...5) {
            var x = g.uniform(0...100), y = g.uniform(0...100)
            var heading = g.uniform(0...(2 * Double.pi))
            let step = g.uniform(0.2...15)
            var stroke: [StrokePoint] = []
            for k in 0..<(g.int(in: 0...5) == 0 ? 1 : g.int(in: 2...60)) {
                stroke.append(StrokePoint(x: x * scale, y: y * scale, t: Double(k)))
                if g.int(in: 0...9) == 0 { continue }  // a repeated point
                heading += g.uniform(-0.8...0.8)
                x += step * cos(heading)
                y += step * sin(heading)
            }
            strokes.append(stroke)
        }
        return Drawing(strokes: strokes)
    }

    /// A part of `drawing`: some strokes, a band (often none), maybe a piece.
    static func part(of drawing: Drawing, _ g: inout Generator) -> InkPart {
        var part = InkPart.whole
        if g.int(in: 0...3) != 0 {
            part.strokes = g.next() | 1
        }
        if g.int(in: 0...2) != 0 {
            let xs = drawing.strokes.flatMap { $0.map(\.x) }
            let lo = xs.min()!, hi = xs.max()!
            let a = g.uniform(lo...hi), b = g.uniform(lo...hi)
            part.shear = g.int(in: 0...1) == 0 ? 0 : g.uniform(-0.5...0.5)
            part.band = min(a, b)...max(a, b) + (hi - lo) * 0.3
        }
        if g.int(in: 0...3) == 0, let s = drawing.strokes.indices.randomElement(using: &g), drawing.strokes[s].count > 2 {
            part.piece = s
            let n = drawing.strokes[s].count
            let a = g.int(in: 0...(n - 2))
            part.points = a..<g.int(in: (a + 1)...n)
        }
        return part
    }

    @Test func rasterizerMatchesTheTwoPassReference() throws {
        let r = Rasterizer()
        var g = Generator(seed: 20_261_124)
        var fast = [Float](repeating: 0, count: 784)
        var parts = 0, inked = 0
        for k in 0..<600 {
            let d = Self.drawing(&g)
            try Rasterizer.validate(d)
            let part = k % 2 == 0 ? InkPart.whole : Self.part(of: d, &g)
            fast.withUnsafeMutableBufferPointer { r.rasterize(d, part: part, into: $0) }
            let slow = Self.referenceRasterize(r, d, part)
            let differing = zip(fast, slow).filter { $0.bitPattern != $1.bitPattern }.count
            #expect(differing == 0, "drawing \(k): \(differing) pixels differ")
            parts += part == .whole ? 0 : 1
            inked += slow.contains { $0 > 0 } ? 1 : 0
        }
        #expect(parts > 250)  // the others drew no part that is not the whole
        #expect(inked > 400)  // most parts keep some ink: the test compares pictures, not blanks
    }

    /// Images the network tests feed: drawings, and what no drawing gives
    /// (noise, negative pixels, negative zeros, a blank image).
    static func images(_ rasterizer: Rasterizer, seed: UInt64, drawings: Int = 150, noise: Int = 20) throws -> [[Float]] {
        var g = Generator(seed: seed)
        var images: [[Float]] = []
        for _ in 0..<drawings {
            images.append(try rasterizer.rasterize(Self.drawing(&g)))
        }
        for k in 0..<noise {
            images.append((0..<784).map { _ in
                let v = Float(g.uniform(-0.5...1))
                return k % 2 == 0 ? max(v, 0) : (v < 0 && v > -0.1 ? -0.0 : v)
            })
        }
        images.append([Float](repeating: 0, count: 784))
        return images
    }

    /// Every bundled network (the single digits', the number reader's wider
    /// one and the candidates') against the dense loops.
    @Test func networkMatchesDenseLoops() throws {
        let bundled = try Recognizer.bundled()
        let ws = bundled.makeWorkspace()
        let images = try Self.images(bundled.rasterizer, seed: 7)
        let networks = [(bundled, Recognizer.bundledModelName), (bundled.numbers, Recognizer.bundledNumbersModelName),
                        (try #require(bundled.candidates), Recognizer.bundledCandidatesModelName)]
        for (recognizer, name) in networks {
            let url = try #require(Recognizer.bundledURL(name))
            let weights = try SafeTensors(bytes: [UInt8](Data(contentsOf: url)))
            for (k, image) in images.enumerated() {
                let fast = recognizer.logits(image: image, in: ws)
                let slow = Self.referenceLogits(weights, image)
                // == on floats: bit for bit, but for a zero's sign
                #expect(fast == slow, "\(name), image \(k): \(fast) vs \(slow)")
            }
        }
    }

    /// Networks of other widths, random weights (half of them negative, so
    /// many activations are zero, as in a trained one): `forwardAnyWidth`
    /// against the dense loops, from the narrowest to the widest it runs
    /// (fewer images for the wider: the dense loops are slow in a debug build).
    @Test func networksOfOtherWidthsMatchDenseLoops() throws {
        var g = Generator(seed: 11)
        let all: [(NetworkWidths, drawings: Int)] = [(NetworkWidths(conv1: 4, conv2: 16, conv3: 16, hidden: 16), 120),
                                                     (NetworkWidths(conv1: 12, conv2: 32, conv3: 48, hidden: 96), 60),
                                                     (NetworkWidths(conv1: 64, conv2: 64, conv3: 128, hidden: 256), 12)]
        for (widths, drawings) in all {
            #expect(widths.runnable)
            var tensors: [(String, SafeTensors.Tensor)] = []
            for (name, shape) in DigitNetwork.shapes(for: widths, outputs: 10) {
                let fanIn = Float(shape.dropLast().reduce(1, *))
                let spread = name.hasSuffix("bias") ? 0.1 : (3 / fanIn).squareRoot()
                tensors.append((name, SafeTensors.Tensor(shape: shape, values: (0..<shape.reduce(1, *)).map { _ in
                    Float(g.uniform(-1...1)) * spread })))
            }
            let bytes = safetensorsFile(tensors, metadata: ["architecture": DigitNetwork.architecture])
            let recognizer = try Recognizer(safetensors: bytes)
            #expect(recognizer.network.widths == widths)
            let ws = recognizer.makeWorkspace()
            let file = try SafeTensors(bytes: bytes)
            var differing = Set<[Float]>()
            for (k, image) in try Self.images(recognizer.rasterizer, seed: 8, drawings: drawings, noise: 4).enumerated() {
                let fast = recognizer.logits(image: image, in: ws)
                #expect(fast == Self.referenceLogits(file, image), "\(widths), image \(k)")
                differing.insert(fast)
            }
            #expect(differing.count > drawings / 2)  // the images give different logits: not a network that ignores them
        }
    }

    /// Widths `forwardAnyWidth` cannot run, and a "not a digit" head on a
    /// wider network, are refused when the file is read.
    @Test func unrunnableWidthsAreRefused() throws {
        for widths in [NetworkWidths(conv1: 6, conv2: 16, conv3: 32, hidden: 64),
                       NetworkWidths(conv1: 8, conv2: 24, conv3: 32, hidden: 64),
                       NetworkWidths(conv1: 8, conv2: 80, conv3: 32, hidden: 64),
                       NetworkWidths(conv1: 8, conv2: 16, conv3: 32, hidden: 72)] {
            #expect(!widths.runnable)
            let tensors = DigitNetwork.shapes(for: widths, outputs: 10).map { name, shape in
                (name, SafeTensors.Tensor(shape: shape, values: [Float](repeating: 0.01, count: shape.reduce(1, *))))
            }
            #expect(throws: RecognitionError.self) {
                try Recognizer(safetensors: safetensorsFile(tensors, metadata: [:]))
            }
        }
    }

    // MARK: references

    /// The rasterizer before branch `readspeed`, kept as written then.
    static func referenceRasterize(_ r: Rasterizer, _ drawing: Drawing, _ part: InkPart) -> [Float] {
        var pixels = [Float](repeating: 0, count: 784)
        guard let box = part.box(in: drawing) else { return pixels }
        let extent = max(box.x1 - box.x0, box.y1 - box.y0)
        let magnitude = max(abs(box.x0), abs(box.x1), abs(box.y0), abs(box.y1), 1)
        let scale = extent <= 1e-9 * magnitude ? 0 : r.fitSize / extent
        let midX = (box.x0 + box.x1) / 2, midY = (box.y0 + box.y1) / 2
        func draw(_ shiftX: Double, _ shiftY: Double) {
            pixels = [Float](repeating: 0, count: 784)
            let offX = r.centre + shiftX, offY = r.centre + shiftY
            let reach = r.penWidth / 2 + 0.5
            func capsule(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
                let x0 = Int(min(max((min(ax, bx) - reach).rounded(.down), 0), 28))
                let x1 = Int(min(max((max(ax, bx) + reach).rounded(.up), -1), 27))
                let y0 = Int(min(max((min(ay, by) - reach).rounded(.down), 0), 28))
                let y1 = Int(min(max((max(ay, by) + reach).rounded(.up), -1), 27))
                guard x0 <= x1, y0 <= y1 else { return }
                let ex = bx - ax, ey = by - ay
                let len2 = ex * ex + ey * ey
                let inverse = len2 > 1e-12 ? 1 / len2 : 0
                for row in y0...y1 {
                    let py = Double(row)
                    for col in x0...x1 {
                        let px = Double(col)
                        let t = min(max(((px - ax) * ex + (py - ay) * ey) * inverse, 0), 1)
                        let qx = ax + t * ex - px
                        let qy = ay + t * ey - py
                        let v = Float(min(max(reach - (qx * qx + qy * qy).squareRoot(), 0), 1))
                        pixels[row * 28 + col] = max(pixels[row * 28 + col], v)
                    }
                }
            }
            for (s, whole) in drawing.strokes.enumerated() where part.contains(stroke: s) {
                let stroke = part.points(s, of: whole)
                guard let first = stroke.first else { continue }
                var kx = (first.x - midX) * scale, ky = (first.y - midY) * scale
                var kept = first
                if stroke.count == 1 {
                    if !part.clips || part.band.contains(part.u(first)) {
                        capsule(kx + offX, ky + offY, kx + offX, ky + offY)
                    }
                    continue
                }
                let last = stroke.endIndex - 1
                for i in (stroke.startIndex + 1)...last {
                    let p = stroke[i]
                    let px = (p.x - midX) * scale, py = (p.y - midY) * scale
                    if i != last, (px - kx) * (px - kx) + (py - ky) * (py - ky) < r.minimumStep * r.minimumStep {
                        continue
                    }
                    if !part.clips {
                        capsule(kx + offX, ky + offY, px + offX, py + offY)
                    } else if let (t0, t1) = part.clip(kept, p) {
                        let ex = px - kx, ey = py - ky
                        capsule(kx + t0 * ex + offX, ky + t0 * ey + offY, kx + t1 * ex + offX, ky + t1 * ey + offY)
                    }
                    kx = px; ky = py; kept = p
                }
            }
        }
        draw(0, 0)
        var mass = 0.0, sumX = 0.0, sumY = 0.0
        for row in 0..<28 {
            var rowMass = 0.0, rowX = 0.0
            for col in 0..<28 {
                let v = Double(pixels[row * 28 + col])
                rowMass += v
                rowX += v * Double(col)
            }
            mass += rowMass
            sumX += rowX
            sumY += rowMass * Double(row)
        }
        if mass > 0 { draw(r.centre - sumX / mass, r.centre - sumY / mass) }
        return pixels
    }

    /// mindpad-cnn-v1 (at the file's widths) as dense loops over the file's tensors, adding in the
    /// order the fast network does: the bias, then the 3×3 taps row by row,
    /// then the input channels (zero inputs add 0 × w, which changes no sum).
    static func referenceLogits(_ file: SafeTensors, _ image: [Float]) -> [Float] {
        func t(_ name: String) -> [Float] { file.tensors[name]!.values }
        func relu(_ x: Float) -> Float { x > 0 ? x : 0 }
        /// conv 3×3 over an h×w×cin map (HWC), `pad` 1 (same) or 0 (valid); ReLU.
        func conv(_ input: [Float], _ h: Int, _ w: Int, _ cin: Int, _ name: String, _ cout: Int, pad: Int) -> [Float] {
            let weight = t("\(name).weight"), bias = t("\(name).bias")
            let oh = h + 2 * pad - 2, ow = w + 2 * pad - 2
            var out = [Float](repeating: 0, count: oh * ow * cout)
            for y in 0..<oh {
                for x in 0..<ow {
                    for o in 0..<cout {
                        var a = bias[o]
                        for ky in 0..<3 {
                            for kx in 0..<3 {
                                let iy = y + ky - pad, ix = x + kx - pad
                                guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                                for c in 0..<cin {
                                    a += input[(iy * w + ix) * cin + c] * weight[((ky * 3 + kx) * cin + c) * cout + o]
                                }
                            }
                        }
                        out[(y * ow + x) * cout + o] = relu(a)
                    }
                }
            }
            return out
        }
        func pool(_ input: [Float], _ h: Int, _ c: Int) -> [Float] {
            var out = [Float](repeating: 0, count: h / 2 * h / 2 * c)
            for y in 0..<(h / 2) {
                for x in 0..<(h / 2) {
                    for k in 0..<c {
                        func at(_ dy: Int, _ dx: Int) -> Float { input[((2 * y + dy) * h + 2 * x + dx) * c + k] }
                        out[(y * h / 2 + x) * c + k] = max(max(at(0, 0), at(0, 1)), max(at(1, 0), at(1, 1)))
                    }
                }
            }
            return out
        }
        func dense(_ input: [Float], _ name: String, _ n: Int) -> [Float] {
            let weight = t("\(name).weight"), bias = t("\(name).bias")
            return (0..<n).map { o in
                var a = bias[o]
                for i in input.indices { a += input[i] * weight[i * n + o] }
                return a
            }
        }
        let n1 = file.tensors["conv1.bias"]!.shape[0], n2 = file.tensors["conv2.bias"]!.shape[0]
        let n3 = file.tensors["conv3.bias"]!.shape[0], hidden = file.tensors["fc1.bias"]!.shape[0]
        let features = conv(pool(conv(pool(conv(image, 28, 28, 1, "conv1", n1, pad: 1), 28, n1), 14, 14, n1, "conv2", n2, pad: 1),
                                 14, n2), 7, 7, n2, "conv3", n3, pad: 0)
        let outputs = file.tensors["fc2.bias"]!.shape[0]
        return dense(dense(features, "fc1", hidden).map(relu), "fc2", outputs)
    }
}

private extension SeededGenerator {
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
}
