/// Turns strokes into a 28×28 MNIST-like image (row-major, 0 = background, 1 = ink).
///
/// The steps, mirrored exactly by `tools/train/raster.py` (a parity test checks it):
/// 1. bounding box of all points, scaled so its longer side is `fitSize` px (aspect
///    kept); a drawing without extent (one point, or all points equal) is a dot;
/// 2. every segment between consecutive points of a stroke is drawn as an
///    anti-aliased capsule of width `penWidth` (round caps and joins), combined with
///    max (kept as each pixel's nearest squared distance, clamped once at the end:
///    the same floats); a one-point stroke is a dot; points closer than
///    `minimumStep` to the previous kept point are skipped (never a stroke's last point);
/// 3. the image is drawn again shifted so its intensity centre of mass lands on
///    pixel (`centre`, `centre`), like MNIST.
///
/// Geometry is computed in `Double`, pixels are stored as `Float`.
public struct Rasterizer: Sendable {
    /// Side of the output image.
    public static let side = 28
    /// Row stride of the squared-distance scratch: a pair of columns starting at 27 fits.
    static let distanceRow = 30
    /// Refusal limits (denial of service).
    public static let maxPoints = 10_000
    public static let maxStrokes = 64
    /// Coordinates beyond this magnitude are refused (no canvas is that large).
    public static let maxMagnitude = 1_000_000.0

    /// Longer side of the points' bounding box, in output pixels. With the pen's
    /// half width on each side the ink spans about 20 px, like MNIST's 20×20 box.
    public var fitSize: Double
    /// Stroke width in output pixels (MNIST strokes are ~2–3 px).
    public var penWidth: Double
    /// Where the centre of mass goes (MNIST: pixel index 14).
    public var centre: Double
    /// Within a stroke, a point closer than this (output pixels) to the last kept
    /// point is skipped, unless it ends the stroke: a 240 Hz pen costs no more than a
    /// 60 Hz mouse, and a line moves by at most step² / 8r px on a curve of radius r.
    public var minimumStep: Double

    public init(fitSize: Double = 18, penWidth: Double = 2.4, centre: Double = 14, minimumStep: Double = 0.75) {
        self.fitSize = fitSize
        self.penWidth = penWidth
        self.centre = centre
        self.minimumStep = minimumStep
    }

    /// Checks the limits without drawing.
    public static func validate(_ drawing: Drawing) throws(RecognitionError) {
        if drawing.strokes.count > maxStrokes {
            throw RecognitionError(.tooManyStrokes, detail: "\(drawing.strokes.count) strokes")
        }
        let count = drawing.pointCount
        if count > maxPoints { throw RecognitionError(.tooManyPoints, detail: "\(count) points") }
        if count == 0 { throw RecognitionError(.emptyDrawing) }
        for stroke in drawing.strokes {
            for p in stroke {
                guard p.x.isFinite, p.y.isFinite, p.t.isFinite else {
                    throw RecognitionError(.nonFiniteValue, detail: "(\(p.x), \(p.y), \(p.t))")
                }
                guard abs(p.x) <= maxMagnitude, abs(p.y) <= maxMagnitude else {
                    throw RecognitionError(.coordinateOutOfRange, detail: "(\(p.x), \(p.y))")
                }
            }
        }
    }

    /// Rasterizes into `image` (at least 28×28 floats, overwritten). Allocates nothing
    /// on the heap (its 7 KB of scratch are on the stack).
    public func rasterize(
        _ drawing: Drawing, into image: UnsafeMutableBufferPointer<Float>
    ) throws(RecognitionError) {
        try Self.validate(drawing)
        rasterize(drawing, part: .whole, into: image)
    }

    /// Rasterizes one part of an already validated drawing (some of its strokes,
    /// clipped to a band; see `InkPart`) as if it were the whole drawing: the
    /// digit segmenter reads each digit of a number this way, without copying
    /// points. An empty part gives a blank image. Allocates nothing.
    func rasterize(_ drawing: Drawing, part: InkPart, into image: UnsafeMutableBufferPointer<Float>) {
        precondition(image.count >= Self.side * Self.side, "image buffer too small")
        let pixels = image.baseAddress!
        guard let box = part.box(in: drawing) else {
            pixels.update(repeating: 0, count: Self.side * Self.side)
            return
        }
        let (scale, midX, midY) = frame(box)

        // Squared distances to the nearest capsule, one Double per pixel (rows of
        // `distanceRow`), on the stack (7 KB: no heap allocation, unless the
        // thread's stack were nearly full, when Swift falls back to the heap).
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.side * Self.distanceRow) { scratch in
            let distances = scratch.baseAddress!
            let inked = draw(drawing, part, scale: scale, midX: midX, midY: midY, shiftX: 0, shiftY: 0,
                             into: pixels, distances: distances)
            if let (shiftX, shiftY) = centring(pixels, inked) {
                _ = draw(drawing, part, scale: scale, midX: midX, midY: midY, shiftX: shiftX, shiftY: shiftY,
                         into: pixels, distances: distances)
            }
        }
    }

    /// How points map to output pixels: (p − mid) · scale puts the box's centre
    /// at 0 and its longer side at `fitSize` (scale 0: a box without extent, a dot).
    func frame(_ box: InkBox) -> (scale: Double, midX: Double, midY: Double) {
        let extent = max(box.x1 - box.x0, box.y1 - box.y0)
        let magnitude = max(abs(box.x0), abs(box.x1), abs(box.y0), abs(box.y1), 1)
        return (extent <= 1e-9 * magnitude ? 0 : fitSize / extent, (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
    }

    /// The shift that moves the image's intensity centre of mass onto (`centre`,
    /// `centre`), or nil for a blank image. Only the `inked` rows and columns
    /// are summed: the others are +0 and would add exactly nothing.
    private func centring(_ pixels: UnsafeMutablePointer<Float>, _ inked: (Int, Int, Int, Int)) -> (Double, Double)? {
        var mass = 0.0, sumX = 0.0, sumY = 0.0
        guard inked.0 <= inked.1 else { return nil }
        for row in inked.0...inked.1 {
            var rowMass = 0.0, rowX = 0.0
            for col in inked.2...inked.3 {
                let v = Double(pixels[row * Self.side + col])
                rowMass += v
                rowX += v * Double(col)
            }
            mass += rowMass
            sumX += rowX
            sumY += rowMass * Double(row)
        }
        return mass > 0 ? (centre - sumX / mass, centre - sumY / mass) : nil
    }

    /// Convenience: a new 784-element image.
    public func rasterize(_ drawing: Drawing) throws(RecognitionError) -> [Float] {
        var image = [Float](repeating: 0, count: Self.side * Self.side)
        try image.withUnsafeMutableBufferPointer { (buffer) throws(RecognitionError) in
            try rasterize(drawing, into: buffer)
        }
        return image
    }

    /// Draws the part shifted by (`shiftX`, `shiftY`) into `pixels`; returns the
    /// rows and columns its capsules reached (first row, last row, first
    /// column, last column; rows empty when none did): beyond them all is +0.
    private func draw(
        _ drawing: Drawing, _ part: InkPart, scale: Double, midX: Double, midY: Double,
        shiftX: Double, shiftY: Double, into pixels: UnsafeMutablePointer<Float>,
        distances: UnsafeMutablePointer<Double>
    ) -> (Int, Int, Int, Int) {
        distances.update(repeating: .infinity, count: Self.side * Self.distanceRow)
        let offX = centre + shiftX, offY = centre + shiftY
        let reach = penWidth / 2 + 0.5
        let step2 = minimumStep * minimumStep
        let clips = part.clips
        var touched = (Self.side, -1, Self.side, -1)
        for (s, whole) in drawing.strokes.enumerated() where part.contains(stroke: s) {
            let stroke = part.points(s, of: whole)
            guard let first = stroke.first else { continue }
            // Kept point, scaled but not yet centred (the same in both passes).
            var kx = (first.x - midX) * scale
            var ky = (first.y - midY) * scale
            var kept = first
            if stroke.count == 1 {
                if !clips || part.band.contains(part.u(first)) {
                    capsule(kx + offX, ky + offY, kx + offX, ky + offY, reach: reach, distances, &touched)
                }
                continue
            }
            let last = stroke.endIndex - 1
            for i in (stroke.startIndex + 1)...last {
                let p = stroke[i]
                let px = (p.x - midX) * scale
                let py = (p.y - midY) * scale
                if i != last {
                    let dx = px - kx, dy = py - ky
                    if dx * dx + dy * dy < step2 { continue }
                }
                if !clips {
                    capsule(kx + offX, ky + offY, px + offX, py + offY, reach: reach, distances, &touched)
                } else if let (t0, t1) = part.clip(kept, p) {
                    let ex = px - kx, ey = py - ky
                    capsule(kx + t0 * ex + offX, ky + t0 * ey + offY, kx + t1 * ex + offX, ky + t1 * ey + offY,
                            reach: reach, distances, &touched)
                }
                kx = px; ky = py; kept = p
            }
        }
        // pixel = max over capsules of clamp(reach - distance, 0, 1) = the same
        // clamp of the nearest distance (it only falls as the distance grows,
        // and so does the rounded square root): one square root per pixel, not
        // one per pixel of every capsule. Exactly the same floats.
        pixels.update(repeating: 0, count: Self.side * Self.side)
        guard touched.0 <= touched.1 else { return touched }
        // Two pixels at a time (the same operations lane by lane; min and max as
        // Swift's), the odd last column alone.
        for row in touched.0...touched.1 {
            let line = UnsafeRawPointer(distances + row * Self.distanceRow), out = pixels + row * Self.side
            var col = touched.2
            while col < touched.3 {
                var v = reach - line.loadUnaligned(fromByteOffset: col * 8, as: SIMD2<Double>.self).squareRoot()
                v = v.replacing(with: 0, where: v .<= 0)
                v = v.replacing(with: 1, where: v .> 1)
                out[col] = Float(v[0])
                out[col + 1] = Float(v[1])
                col += 2
            }
            if col == touched.3 {
                out[col] = Float(min(max(reach - distances[row * Self.distanceRow + col].squareRoot(), 0), 1))
            }
        }
        return touched
    }

    /// Min-combines a capsule's squared distance to each pixel of its box (a
    /// pixel beyond `reach` of it gets 0 ink either way).
    @inline(__always)
    private func capsule(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, reach: Double,
        _ distances: UnsafeMutablePointer<Double>, _ touched: inout (Int, Int, Int, Int)
    ) {
        let last = Double(Self.side - 1)
        let x0 = Int(min(max((min(ax, bx) - reach).rounded(.down), 0), last + 1))
        let x1 = Int(min(max((max(ax, bx) + reach).rounded(.up), -1), last))
        let y0 = Int(min(max((min(ay, by) - reach).rounded(.down), 0), last + 1))
        let y1 = Int(min(max((max(ay, by) + reach).rounded(.up), -1), last))
        guard x0 <= x1, y0 <= y1 else { return }
        touched = (min(touched.0, y0), max(touched.1, y1), min(touched.2, x0), max(touched.3, x1))
        let ex = bx - ax, ey = by - ay
        let len2 = ex * ex + ey * ey
        let inverse = len2 > 1e-12 ? 1 / len2 : 0
        // No branch per pixel (the clamp gives 0 outside reach and 1 inside
        // reach - 1), two pixels of a row at a time in SIMD2 lanes, each with the
        // scalar formula's operations in its order (Swift's min and max are the
        // `replacing` below): the same distances. The odd column past `x1`
        // gets its own true distance, beyond reach (the box covers reach), so
        // it cannot change an image; rows are `distanceRow` wide for it.
        let pair = SIMD2<Double>(0, 1)
        for row in y0...y1 {
            let py = Double(row)
            let dy = py - ay
            let line = UnsafeMutableRawPointer(distances + row * Self.distanceRow)
            var col = x0
            while col <= x1 {
                let px = SIMD2(repeating: Double(col)) + pair
                var t = ((px - ax) * ex + dy * ey) * inverse
                t = t.replacing(with: 0, where: t .<= 0)
                t = t.replacing(with: 1, where: t .> 1)
                let qx = ax + t * ex - px
                let qy = ay + t * ey - py
                let d2 = qx * qx + qy * qy
                let old = line.loadUnaligned(fromByteOffset: col * 8, as: SIMD2<Double>.self)
                line.storeBytes(of: old.replacing(with: d2, where: d2 .< old), toByteOffset: col * 8, as: SIMD2<Double>.self)
                col += 2
            }
        }
    }
}
