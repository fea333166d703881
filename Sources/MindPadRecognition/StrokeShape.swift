import Foundation

/// Five numbers about a drawing's strokes that its 28×28 image has lost, for
/// the refusal rule (`RefusalRule`): a scribble the network takes for a digit
/// has more ink and turns more than a digit, stray marks have less.
///
/// Measured on the points the rasterizer keeps (the drawing scaled so its
/// longer side is `fitSize` px; within a stroke, a point closer than
/// `minimumStep` px to the last kept one is skipped unless it ends the
/// stroke), so a pen's sampling rate counts for little. Mirrored by
/// `tools/train/refusal.py`'s `stroke_features` (a parity fixture checks it).
public struct StrokeShape: Sendable, Equatable {
    /// Strokes with at least one point.
    public var strokes: Double
    /// The kept polylines' length over the kept points' extent (their box's longer side).
    public var ink: Double
    /// How far the pen turned, in whole turns: over each stroke's consecutive kept
    /// segments, the sum of |the angle between them| / 2π. Segments shorter than
    /// `turnMinimum` px (a stroke's last point may sit just after the last kept
    /// one) are passed over.
    public var turning: Double
    /// The kept points' box, width and height over its longer side.
    public var width: Double
    public var height: Double

    public static let turnMinimum = 0.25
}

extension Rasterizer {
    /// The stroke shape of a whole, already validated drawing. Allocates nothing.
    func shape(of drawing: Drawing) -> StrokeShape {
        var shape = StrokeShape(strokes: 0, ink: 0, turning: 0, width: 0, height: 0)
        guard let box = InkPart.whole.box(in: drawing) else { return shape }
        let (scale, midX, midY) = frame(box)
        let step2 = minimumStep * minimumStep
        var keptBox = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        var length = 0.0, turning = 0.0
        for stroke in drawing.strokes {
            guard let first = stroke.first else { continue }
            shape.strokes += 1
            var kx = (first.x - midX) * scale, ky = (first.y - midY) * scale
            @inline(__always) func keep(_ x: Double, _ y: Double) {
                keptBox = (min(keptBox.0, x), max(keptBox.1, x), min(keptBox.2, y), max(keptBox.3, y))
            }
            keep(kx, ky)
            var heading: Double? = nil
            let last = stroke.count - 1
            for i in stroke.indices.dropFirst() {
                let px = (stroke[i].x - midX) * scale, py = (stroke[i].y - midY) * scale
                let dx = px - kx, dy = py - ky
                let d2 = dx * dx + dy * dy
                if i != last && d2 < step2 { continue }
                let run = d2.squareRoot()
                length += run
                if run >= StrokeShape.turnMinimum {
                    let angle = atan2(dy, dx)
                    if let before = heading {
                        // The turn wrapped to (-π, π], as NumPy's angle(exp(i·Δ)).
                        var turn = angle - before
                        if turn > .pi { turn -= 2 * .pi } else if turn <= -.pi { turn += 2 * .pi }
                        turning += abs(turn)
                    }
                    heading = angle
                }
                keep(px, py)
                kx = px; ky = py
            }
        }
        let w = keptBox.1 - keptBox.0, h = keptBox.3 - keptBox.2
        let keptExtent = max(w, h, 1e-6)
        shape.ink = length / keptExtent
        shape.turning = turning / (2 * .pi)
        shape.width = w / keptExtent
        shape.height = h / keptExtent
        return shape
    }
}
