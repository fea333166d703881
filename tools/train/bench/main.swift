// Benchmark and evaluation driver for the recognition layer (scratch package only).
// usage: recog-bench DRAWINGS.jsonl IMAGES_OUT.f32 PREDICTIONS_OUT.txt [REPEATS]
//        recog-bench --images IMAGES.f32 PREDICTIONS_OUT.txt [REPEATS]
// Times recognize() (rasterize + infer) and classify(image:) (infer only) per call,
// writes the rasterized images (float32, 784 per drawing) so ONNX Runtime can be fed
// exactly the same inputs, and the predicted digit per line.
import Foundation
import MindPadRecognition
#if canImport(Glibc)
import Glibc
#endif

@inline(__always) func nanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func median(_ a: [Double]) -> Double {
    let s = a.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func percentile(_ a: [Double], _ q: Double) -> Double {
    let s = a.sorted()
    return s[min(s.count - 1, Int(Double(s.count) * q))]
}

let args = CommandLine.arguments
guard args.count >= 4 else {
    FileHandle.standardError.write("usage: recog-bench DRAWINGS.jsonl IMAGES_OUT.f32 PREDICTIONS_OUT.txt [REPEATS]\n".data(using: .utf8)!)
    exit(2)
}
let repeats = args.count > 4 ? Int(args[4]) ?? 10 : 10
if args[1] == "--images" {
    // recog-bench --images IMAGES.f32 PREDICTIONS_OUT.txt [REPEATS]: infer only, on 784-float images.
    let n = args.count > 4 ? Int(args[4]) ?? 1 : 1
    let data = try Data(contentsOf: URL(fileURLWithPath: args[2]))
    let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    let recognizer = try Recognizer.bundled()
    let ws = recognizer.makeWorkspace()
    var out = ""
    var times: [Double] = []
    for k in 0..<(floats.count / 784) {
        let image = Array(floats[k * 784..<(k + 1) * 784])
        var r = recognizer.classify(image: image, in: ws)
        for _ in 0..<n {
            let t0 = nanos()
            r = recognizer.classify(image: image, in: ws)
            times.append(Double(nanos() - t0) / 1000)
        }
        out += "\(r.digit) \(r.confidence)\n"
    }
    try out.write(toFile: args[3], atomically: true, encoding: .utf8)
    print("{\"images\": \(floats.count / 784), \"median_infer_us\": \(median(times))}")
    exit(0)
}
let text = try String(contentsOfFile: args[1], encoding: .utf8)
let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
let drawings = try lines.map { try RecognizeLines.parseDrawing($0) }
let recognizer = try Recognizer.bundled()
let ws = recognizer.makeWorkspace()

// Warm-up.
for d in drawings.prefix(200) { _ = try recognizer.recognize(d, in: ws) }

var total: [Double] = []
var raster: [Double] = []
var infer: [Double] = []
total.reserveCapacity(drawings.count * repeats)
raster.reserveCapacity(drawings.count * repeats)
infer.reserveCapacity(drawings.count * repeats)
var images = [Float]()
images.reserveCapacity(drawings.count * 784)
var predictions = ""
let rasterizer = recognizer.rasterizer
var scratch = [Float](repeating: 0, count: 784)
for d in drawings {
    var r: Recognition? = nil
    for _ in 0..<repeats {
        let t0 = nanos()
        r = try recognizer.recognize(d, in: ws)
        let t1 = nanos()
        total.append(Double(t1 - t0) / 1000)
    }
    let image = ws.lastImage
    images.append(contentsOf: image)
    predictions += "\(r!.digit) \(r!.confidence)\n"
    for _ in 0..<repeats {
        let t0 = nanos()
        try scratch.withUnsafeMutableBufferPointer { try rasterizer.rasterize(d, into: $0) }
        let t1 = nanos()
        raster.append(Double(t1 - t0) / 1000)
    }
    for _ in 0..<repeats {
        let t0 = nanos()
        _ = recognizer.classify(image: image, in: ws)
        let t1 = nanos()
        infer.append(Double(t1 - t0) / 1000)
    }
}
try images.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: args[2]))
try predictions.write(toFile: args[3], atomically: true, encoding: .utf8)
let points = drawings.map(\.pointCount)
print("""
{"drawings": \(drawings.count), "repeats": \(repeats), "median_points": \(median(points.map(Double.init))), \
"median_total_us": \(median(total)), "p90_total_us": \(percentile(total, 0.9)), \
"median_rasterize_us": \(median(raster)), "median_infer_us": \(median(infer)), \
"p90_infer_us": \(percentile(infer, 0.9))}
""")
