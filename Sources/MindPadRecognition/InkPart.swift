/// Part of a drawing: some of its strokes, cut to a band between two slanted
/// lines. A digit of a handwritten number is one part of the number's drawing;
/// reading it this way (`Rasterizer.rasterize(_:part:into:)`) copies no points,
/// and a stroke joining two touching digits is simply cut where the band ends.
///
/// The band is on the slant coordinate u = x + shear·y: with the writer's slant
/// as `shear`, slanted digits stand upright in u and the cut between two of
/// them follows their slant instead of slicing through one of them.
struct InkPart: Sendable, Hashable {
    /// Strokes by index, bit s for stroke s (`Rasterizer.maxStrokes` is 64).
    var strokes: UInt64
    var shear: Double
    /// The ink kept: lo ≤ u ≤ hi.
    var band: ClosedRange<Double>
    /// One stroke may be only a stretch of its points (`piece` < 0: none): a
    /// stroke where the pen ran on from one digit into the next is read as two
    /// pieces, each a range of its points, without copying them.
    var piece = -1
    var points: Range<Int> = 0..<0

    /// The whole drawing, uncut.
    static let whole = InkPart(strokes: ~0, shear: 0, band: -Double.infinity...Double.infinity)

    /// Whether the band cuts anything (an infinite band keeps every point exactly
    /// as the whole-drawing rasterizer always did).
    var clips: Bool { band.lowerBound > -Double.infinity || band.upperBound < Double.infinity }

    @inline(__always) func contains(stroke s: Int) -> Bool { strokes & (1 << UInt64(s)) != 0 }

    /// The points of stroke `s` this part reads (all of them, or its piece's).
    @inline(__always) func points(_ s: Int, of stroke: [StrokePoint]) -> ArraySlice<StrokePoint> {
        s == piece ? stroke[points.clamped(to: stroke.indices)] : stroke[...]
    }

    @inline(__always) func u(_ p: StrokePoint) -> Double { p.x + shear * p.y }

    /// The stretch of segment a→b inside the band, as fractions 0 ≤ t0 ≤ t1 ≤ 1
    /// of the way from a to b; nil when none of it is.
    @inline(__always) func clip(_ a: StrokePoint, _ b: StrokePoint) -> (Double, Double)? {
        let ua = u(a), ub = u(b)
        let du = ub - ua
        if du == 0 { return band.contains(ua) ? (0, 1) : nil }
        var t0 = (band.lowerBound - ua) / du
        var t1 = (band.upperBound - ua) / du
        if t0 > t1 { swap(&t0, &t1) }
        t0 = max(t0, 0)
        t1 = min(t1, 1)
        return t0 <= t1 ? (t0, t1) : nil
    }

    /// The widest the part's ink is over any `window` of its height (in the
    /// drawing's units; the ink inside `box`, which the caller already has).
    /// A slant widens this by `window` × the slant, where a box widens by all
    /// of the height × the slant. Allocates nothing.
    func width(in drawing: Drawing, box: InkBox, window: Double) -> Double {
        let bands = 24
        let step = max((box.y1 - box.y0) / Double(bands), 1e-9)
        let span = max(1, Int((window / step).rounded()))
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * bands) { buffer in
            let left = buffer.baseAddress!, right = left + bands
            left.update(repeating: .infinity, count: bands)
            right.update(repeating: -.infinity, count: bands)
            @inline(__always) func add(_ x: Double, _ y: Double) {
                let b = min(max(Int((y - box.y0) / step), 0), bands - 1)
                left[b] = min(left[b], x); right[b] = max(right[b], x)
            }
            for (s, whole) in drawing.strokes.enumerated() where contains(stroke: s) {
                let stroke = points(s, of: whole)
                guard var a = stroke.first else { continue }
                if stroke.count == 1, self.band.contains(u(a)) { add(a.x, a.y) }
                for b in stroke.dropFirst() {
                    if let (t0, t1) = clips ? clip(a, b) : (0, 1) {
                        let ex = b.x - a.x, ey = b.y - a.y
                        // The stretch's ends, and a point in every band it passes.
                        let y0 = a.y + t0 * ey, y1 = a.y + t1 * ey
                        let steps = min(Int(abs(y1 - y0) / step) + 1, bands)
                        for k in 0...steps {
                            let t = t0 + (t1 - t0) * Double(k) / Double(steps)
                            add(a.x + t * ex, a.y + t * ey)
                        }
                    }
                    a = b
                }
            }
            var widest = 0.0
            for b in 0..<bands {
                var lo = Double.infinity, hi = -Double.infinity
                for c in b..<min(b + span, bands) { lo = min(lo, left[c]); hi = max(hi, right[c]) }
                if lo <= hi { widest = max(widest, hi - lo) }
            }
            return widest
        }
    }

    /// The bounding box of the part's ink (points in the band and the places where
    /// segments leave it), or nil when the part has no ink.
    func box(in drawing: Drawing) -> InkBox? {
        var box = InkBox(x0: .infinity, y0: .infinity, x1: -.infinity, y1: -.infinity)
        @inline(__always) func add(_ x: Double, _ y: Double) {
            box.x0 = min(box.x0, x); box.x1 = max(box.x1, x)
            box.y0 = min(box.y0, y); box.y1 = max(box.y1, y)
        }
        let clips = clips
        for (s, whole) in drawing.strokes.enumerated() where contains(stroke: s) {
            let stroke = points(s, of: whole)
            if !clips {
                for p in stroke { add(p.x, p.y) }
                continue
            }
            guard var a = stroke.first else { continue }
            if stroke.count == 1, band.contains(u(a)) { add(a.x, a.y) }
            for b in stroke.dropFirst() {
                if let (t0, t1) = clip(a, b) {
                    let ex = b.x - a.x, ey = b.y - a.y
                    add(a.x + t0 * ex, a.y + t0 * ey)
                    add(a.x + t1 * ex, a.y + t1 * ey)
                }
                a = b
            }
        }
        return box.x0 <= box.x1 ? box : nil
    }
}
