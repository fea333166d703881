/// One sampled pen position, in the client's canvas pixels. `t` (milliseconds) is
/// carried for completeness; recognition does not use it.
public struct StrokePoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var t: Double

    public init(x: Double, y: Double, t: Double = 0) {
        self.x = x
        self.y = y
        self.t = t
    }
}

/// A hand-drawn digit: strokes (pen down ... pen up), each an ordered list of points.
/// Canvas size is not needed: the rasterizer normalises by the points' bounding box.
public struct Drawing: Sendable, Hashable {
    public var strokes: [[StrokePoint]]

    public init(strokes: [[StrokePoint]]) {
        self.strokes = strokes
    }

    /// Total number of points over all strokes.
    public var pointCount: Int { strokes.reduce(0) { $0 + $1.count } }
}
