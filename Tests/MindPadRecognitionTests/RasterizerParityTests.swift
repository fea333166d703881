import MindPadJSON
import Testing
@testable import MindPadRecognition

/// The training data is rendered by tools/train/raster.py; it must give the same
/// pixels as the server's rasterizer. The fixture holds drawings and Python's pixels.
@Suite struct RasterizerParityTests {
    @Test func swiftMatchesThePythonRasterizer() throws {
        guard case .array(let cases) = try JSON.parse(RasterParityFixture.json) else {
            Issue.record("fixture is not an array"); return
        }
        #expect(cases.count >= 15)
        for (k, c) in cases.enumerated() {
            let strokeValues: [JSON] = c["strokes"]?.array ?? []
            let strokes: [[StrokePoint]] = strokeValues.map { (stroke: JSON) -> [StrokePoint] in
                (stroke.array ?? []).map { (p: JSON) -> StrokePoint in
                    let v: [Double] = (p.array ?? []).map { $0.number ?? .nan }
                    return StrokePoint(x: v[0], y: v[1], t: v[2])
                }
            }
            let expected: [Float] = (c["pixels"]?.array ?? []).map { Float($0.number ?? .nan) }
            #expect(expected.count == 784)
            let image = try Rasterizer().rasterize(Drawing(strokes: strokes))
            let worst = zip(image, expected).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= 2e-6, "case \(k): max pixel difference \(worst)")
        }
    }
}
