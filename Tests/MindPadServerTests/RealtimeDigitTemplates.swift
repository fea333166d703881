import Foundation
import MindPadRecognition

/// Hand-made stroke drawings of each digit, as a pen on a 200×300 canvas
/// would produce them (y grows downwards; `t` in milliseconds).
enum DigitTemplates {
    static func strokes(for digit: Int) -> [[StrokePoint]] {
        let raw: [[(Double, Double)]]
        switch digit {
        case 0: raw = [arc(cx: 100, cy: 150, rx: 60, ry: 100, from: -90, to: 270)]
        case 1: raw = [line([(70, 80), (105, 40), (105, 260)])]
        case 2: raw = [arc(cx: 100, cy: 100, rx: 60, ry: 55, from: -170, to: 30) + line([(152, 128), (40, 260), (170, 260)])]
        case 3: raw = [arc(cx: 100, cy: 95, rx: 55, ry: 50, from: -160, to: 90) + arc(cx: 100, cy: 205, rx: 62, ry: 60, from: -90, to: 150)]
        case 4: raw = [line([(120, 40), (40, 190), (170, 190)]), line([(130, 110), (130, 270)])]
        case 5: raw = [line([(155, 40), (65, 40), (58, 135)]) + arc(cx: 100, cy: 195, rx: 62, ry: 62, from: -140, to: 150)]
        case 6: raw = [line([(145, 40), (100, 80), (68, 140)]) + arc(cx: 105, cy: 205, rx: 50, ry: 55, from: 200, to: 560)]
        case 7: raw = [line([(40, 45), (165, 45), (85, 265)])]
        case 8: raw = [arc(cx: 100, cy: 90, rx: 48, ry: 48, from: 90, to: -270) + arc(cx: 100, cy: 203, rx: 60, ry: 62, from: -90, to: 270)]
        default: raw = [arc(cx: 100, cy: 95, rx: 52, ry: 52, from: 0, to: -360) + line([(152, 95), (150, 265)])]
        }
        var t = 0.0
        return raw.map { stroke in
            stroke.map { p in
                t += 12
                return StrokePoint(x: (p.0 * 10).rounded() / 10, y: (p.1 * 10).rounded() / 10, t: t)
            }
        }
    }

    /// A number written left to right: each digit's strokes shifted right
    /// by `spacing` per place (the templates' ink spans x 40…170, so 220
    /// leaves a gap between digits), on a wide pad.
    static func strokes(forNumber number: String, spacing: Double = 220) -> [[StrokePoint]] {
        number.compactMap { Int(String($0)) }.enumerated().flatMap { place, digit in
            strokes(for: digit).map { stroke in
                stroke.map { StrokePoint(x: $0.x + Double(place) * spacing, y: $0.y, t: $0.t + Double(place) * 1000) }
            }
        }
    }

    /// The digits `+1` mod 10 (the Add-One answer to `digits`), worked out
    /// as a player would.
    static func addOne(_ digits: String) -> String {
        String(digits.map { Character(String((Int(String($0))! + 1) % 10)) })
    }

    private static func arc(cx: Double, cy: Double, rx: Double, ry: Double, from: Double, to: Double) -> [(Double, Double)] {
        let steps = Int(abs(to - from) / 10) + 1
        return (0...steps).map { i in
            let a = (from + (to - from) * Double(i) / Double(steps)) * .pi / 180
            return (cx + rx * cos(a), cy + ry * sin(a))
        }
    }

    /// A polyline sampled every ~10 px.
    private static func line(_ corners: [(Double, Double)]) -> [(Double, Double)] {
        var out = [corners[0]]
        for (a, b) in zip(corners, corners.dropFirst()) {
            let n = max(1, Int(hypot(b.0 - a.0, b.1 - a.1) / 10))
            for i in 1...n { out.append((a.0 + (b.0 - a.0) * Double(i) / Double(n), a.1 + (b.1 - a.1) * Double(i) / Double(n))) }
        }
        return out
    }
}
