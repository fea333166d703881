import Foundation
import Testing
@testable import MindPadRecognition

private func pts(_ xy: [(Double, Double)]) -> [StrokePoint] {
    xy.enumerated().map { StrokePoint(x: $1.0, y: $1.1, t: Double($0) * 16) }
}

private func circle(cx: Double, cy: Double, rx: Double, ry: Double, n: Int) -> [StrokePoint] {
    (0..<n).map { i in
        let a = Double(i) / Double(n - 1) * 2 * Double.pi
        return StrokePoint(x: cx + rx * cos(a), y: cy + ry * sin(a), t: Double(i))
    }
}

private func centreOfMass(_ img: [Float]) -> (x: Double, y: Double, mass: Double) {
    var m = 0.0, sx = 0.0, sy = 0.0
    for r in 0..<28 {
        for c in 0..<28 {
            let v = Double(img[r * 28 + c])
            m += v; sx += v * Double(c); sy += v * Double(r)
        }
    }
    return (sx / m, sy / m, m)
}

/// Ink bounding box (pixels >= threshold): (minCol, maxCol, minRow, maxRow).
private func inkBox(_ img: [Float], threshold: Float = 0.5) -> (Int, Int, Int, Int) {
    var box = (28, -1, 28, -1)
    for r in 0..<28 {
        for c in 0..<28 where img[r * 28 + c] >= threshold {
            box = (min(box.0, c), max(box.1, c), min(box.2, r), max(box.3, r))
        }
    }
    return box
}

private func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
    zip(a, b).map { abs($0 - $1) }.max() ?? 0
}

private let seven = [pts([(10, 12), (70, 10), (70, 10), (35, 110)]), pts([(30, 60), (60, 60)])]

@Suite struct RasterizerTests {
    let rasterizer = Rasterizer()

    @Test func centreOfMassLandsOnPixel14() throws {
        let drawings: [[[StrokePoint]]] = [
            seven,
            [circle(cx: 900, cy: 40, rx: 6, ry: 9, n: 40)],  // small, off-centre
            [pts([(0, 0), (5, 100), (40, 100)])],  // an L: mass far from the box centre
        ]
        for strokes in drawings {
            let img = try rasterizer.rasterize(Drawing(strokes: strokes))
            let com = centreOfMass(img)
            #expect(abs(com.x - 14) < 0.15, "x \(com.x)")
            #expect(abs(com.y - 14) < 0.15, "y \(com.y)")
            #expect(img.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    @Test func longerSideIsScaledToTheBoxAndAspectIsKept() throws {
        // An ellipse twice as tall as wide.
        let img = try rasterizer.rasterize(Drawing(strokes: [circle(cx: 50, cy: 50, rx: 20, ry: 40, n: 60)]))
        let (c0, c1, r0, r1) = inkBox(img)
        let height = Double(r1 - r0 + 1), width = Double(c1 - c0 + 1)
        #expect(height >= 19 && height <= 21, "height \(height)")
        // centre lines span 18 × 9 px, plus the pen (~2.4 px) on both.
        #expect(abs(width - (9 + 2.4)) <= 1.5, "width \(width)")
    }

    @Test func sizeAndPositionDoNotMatter() throws {
        let big = try rasterizer.rasterize(Drawing(strokes: seven))
        let moved = seven.map { $0.map { StrokePoint(x: $0.x * 0.1 - 5000, y: $0.y * 0.1 + 3000, t: $0.t) } }
        let small = try rasterizer.rasterize(Drawing(strokes: moved))
        #expect(maxDifference(big, small) < 1e-4)
    }

    @Test func coordinatesOutsideTheCanvasAreFine() throws {
        let inside = try rasterizer.rasterize(Drawing(strokes: seven))
        let outside = try rasterizer.rasterize(Drawing(strokes: seven.map { $0.map {
            StrokePoint(x: $0.x - 400, y: $0.y + 900, t: $0.t)
        } }))
        #expect(maxDifference(inside, outside) < 1e-4)
    }

    @Test func singlePointIsACentredDot() throws {
        let img = try rasterizer.rasterize(Drawing(strokes: [[StrokePoint(x: 123, y: 45)]]))
        #expect(img[14 * 28 + 14] == 1)
        let com = centreOfMass(img)
        #expect(abs(com.x - 14) < 1e-9 && abs(com.y - 14) < 1e-9)
        #expect(com.mass > 3 && com.mass < 10)
        let dup = try rasterizer.rasterize(Drawing(strokes: [pts([(7, 7), (7, 7), (7, 7)])]))
        #expect(dup == img)
    }

    @Test func straightVerticalLineKeepsItsAspect() throws {
        let img = try rasterizer.rasterize(Drawing(strokes: [pts([(100, 20), (100, 220)])]))
        #expect(img.allSatisfy { $0.isFinite })
        let (c0, c1, r0, r1) = inkBox(img)
        #expect(r1 - r0 + 1 >= 19)
        #expect(c1 - c0 + 1 <= 3)
        let com = centreOfMass(img)
        #expect(abs(com.x - 14) < 0.1 && abs(com.y - 14) < 0.1)
        // Horizontal, too.
        let h = try rasterizer.rasterize(Drawing(strokes: [pts([(0, 5), (300, 5)])]))
        let hb = inkBox(h)
        #expect(hb.1 - hb.0 + 1 >= 19 && hb.3 - hb.2 + 1 <= 3)
    }

    @Test func hundredsOfPointsAndDuplicates() throws {
        var ring = circle(cx: 200, cy: 200, rx: 80, ry: 120, n: 700)
        ring.insert(contentsOf: Array(repeating: ring[10], count: 50), at: 10)
        let img = try rasterizer.rasterize(Drawing(strokes: [ring]))
        #expect(img[14 * 28 + 14] == 0)  // the hole of the 0 stays open
        #expect(centreOfMass(img).mass > 60)
    }

    @Test func densePenSamplingLooksLikeSparseMouseSampling() throws {
        let dense = try rasterizer.rasterize(Drawing(strokes: [circle(cx: 0, cy: 0, rx: 30, ry: 50, n: 5000)]))
        let sparse = try rasterizer.rasterize(Drawing(strokes: [circle(cx: 0, cy: 0, rx: 30, ry: 50, n: 80)]))
        #expect(maxDifference(dense, sparse) < 0.15)
        // Skipping close points never drops a stroke's end: a short tail still shows.
        let ring = circle(cx: 0, cy: 0, rx: 30, ry: 50, n: 400)
        let plain = try rasterizer.rasterize(Drawing(strokes: [ring + [StrokePoint(x: 30.1, y: 0)]]))
        // 2 units = 0.36 px after scaling: closer than the step, but it ends the stroke.
        let tail = try rasterizer.rasterize(Drawing(strokes: [ring + [StrokePoint(x: 32, y: 0)]]))
        #expect(maxDifference(plain, tail) > 0.05)
    }

    @Test func sparseFastStrokesAreJoinedNotDotted() throws {
        let img = try rasterizer.rasterize(Drawing(strokes: [pts([(0, 0), (0, 100)])]))
        // Every row the segment crosses is inked: no gaps between the two points.
        let (_, _, r0, r1) = inkBox(img)
        for r in r0...r1 { #expect((0..<28).contains { img[r * 28 + $0] > 0.5 }) }
    }

    @Test func emptyStrokesAreSkipped() throws {
        let a = try rasterizer.rasterize(Drawing(strokes: [[], pts([(5, 5), (25, 45)]), []]))
        let b = try rasterizer.rasterize(Drawing(strokes: [pts([(5, 5), (25, 45)])]))
        #expect(a == b)
    }

    @Test func refusals() {
        func code(_ strokes: [[StrokePoint]]) -> RecognitionError.Code? {
            do { _ = try rasterizer.rasterize(Drawing(strokes: strokes)); return nil } catch { return error.code }
        }
        #expect(code([]) == .emptyDrawing)
        #expect(code([[], []]) == .emptyDrawing)
        #expect(code([[StrokePoint(x: .nan, y: 1)]]) == .nonFiniteValue)
        #expect(code([pts([(1, 1), (2, .infinity)])]) == .nonFiniteValue)
        #expect(code([[StrokePoint(x: 1, y: 1, t: -.infinity)]]) == .nonFiniteValue)
        #expect(code([pts([(1, 1), (2e7, 3)])]) == .coordinateOutOfRange)
        let many = (0..<10_001).map { StrokePoint(x: Double($0 % 100), y: Double($0 / 100)) }
        #expect(code([many]) == .tooManyPoints)
        #expect(code([Array(many.prefix(10_000))]) == nil)
        let strokes = (0..<65).map { i in pts([(Double(i), 0), (Double(i), 10)]) }
        #expect(code(strokes) == .tooManyStrokes)
        #expect(code(Array(strokes.prefix(64))) == nil)
    }

    @Test func errorsHaveASafeDescriptionAndDetails() {
        let e = RecognitionError(.tooManyPoints, detail: "10001 points")
        #expect(e.description == "a drawing may have at most 10000 points")
        #expect(e.debugDescription.contains("10001"))
        #expect(!e.description.contains("10001"))
    }
}
