// Benchmark and evaluation driver for the recognition layer (scratch package only).
// usage: recog-bench DRAWINGS.jsonl IMAGES_OUT.f32 PREDICTIONS_OUT.txt [REPEATS]
//        recog-bench --images IMAGES.f32 PREDICTIONS_OUT.txt [REPEATS]
//        recog-bench --numbers NUMBERS.jsonl READINGS_OUT.jsonl [REPEATS]
//        recog-bench --logits IMAGES.f32 LOGITS_OUT.f32 -
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

/// The bundled recognizer, or with DIGITS_WEIGHTS=PATH.safetensors that file as the
/// single-digit network beside the bundled number networks (loso.py reads numbers
/// with a fold's network so).
func benchRecognizer() throws -> Recognizer {
    let bundled = try Recognizer.bundled()
    guard let path = ProcessInfo.processInfo.environment["DIGITS_WEIGHTS"] else { return bundled }
    return try Recognizer(safetensors: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                          numbers: bundled.numbers, candidates: bundled.candidates)
}

let args = CommandLine.arguments
guard args.count >= 4 else {
    FileHandle.standardError.write("usage: recog-bench DRAWINGS.jsonl IMAGES_OUT.f32 PREDICTIONS_OUT.txt [REPEATS]\n".data(using: .utf8)!)
    exit(2)
}
if args[1] == "--numbers" {
    // recog-bench --numbers NUMBERS.jsonl READINGS_OUT.jsonl [REPEATS]: reads each line as a whole
    // number (RecognizeLines in number mode, as `mindpad recognize --number`) and times readNumber.
    let n = args.count > 4 ? Int(args[4]) ?? 10 : 10
    let text = try String(contentsOfFile: args[2], encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    let drawings = try lines.map { try RecognizeLines.parseDrawing($0) }
    let recognizer = try benchRecognizer()
    let ws = recognizer.makeWorkspace()
    // NUMBER_TUNING="joinGap=0.12,cutCost=0.4": other segmenter constants, for tuning on the dev set.
    var tuning = NumberReadingTuning.standard
    for item in (ProcessInfo.processInfo.environment["NUMBER_TUNING"] ?? "").split(separator: ",") {
        let kv = item.split(separator: "=")
        guard kv.count == 2 else { continue }
        let v = Double(kv[1]) ?? 0
        switch kv[0] {
        case "joinGap": tuning.joinGap = v
        case "fragmentHeight": tuning.fragmentHeight = v
        case "fragmentWidth": tuning.fragmentWidth = v
        case "fragmentOrderSlack": tuning.fragmentOrderSlack = v
        case "splitWidth": tuning.splitWidth = v
        case "sureConfidence": tuning.sureConfidence = Float(v)
        case "narrowWidth": tuning.narrowWidth = v
        case "widthScale": tuning.widthScale = v
        case "widthCost": tuning.widthCost = v
        case "piecesGap": tuning.piecesGap = v
        case "piecesWidth": tuning.piecesWidth = v
        case "piecesConfidence": tuning.piecesConfidence = Float(v)
        case "piecesMargin": tuning.piecesMargin = v
        case "pieceHeight": tuning.pieceHeight = v
        case "pieceHeightCost": tuning.pieceHeightCost = v
        case "runPieceHeight": tuning.runPieceHeight = v
        case "hangCost": tuning.hangCost = v
        case "hangDrop": tuning.hangDrop = v
        case "hangTop": tuning.hangTop = v
        case "hangShare": tuning.hangShare = v
        case "relativeSplitWidth": tuning.relativeSplitWidth = v
        case "relativeSingleWidth": tuning.relativeSingleWidth = v
        case "relativeWidthCost": tuning.relativeWidthCost = v
        case "cutCost": tuning.cutCost = v
        case "crossingCost": tuning.crossingCost = v
        case "extentCost": tuning.extentCost = v
        case "margin": tuning.margin = v
        case "pairCandidates": tuning.pairCandidates = Int(v)
        case "distinctCuts": tuning.distinctCuts = v
        case "preGate": tuning.preGate = kv[1].split(separator: ":").compactMap { Double($0) }
        case "preGateFloor": tuning.preGateFloor = v
        case "preGateConfidence": tuning.preGateConfidence = Float(v)
        case "gate": tuning.splitGate = kv[1].split(separator: ":").compactMap { Double($0) }
        case "unitWidth": tuning.unitWidth = v
        case "window": tuning.window = v
        case "positionCost": tuning.positionCost = v
        case "stretchSplits": tuning.stretchSplits = Int(v)
        case "multiSplitSeeds": tuning.multiSplitSeeds = Int(v)
        case "straightTurn": tuning.straightTurn = v
        case "apartSplitMargin": tuning.apartSplitMargin = v
        case "apartAtExits": tuning.apartAtExits = v != 0
        case "apartExitConfidence": tuning.apartExitConfidence = Float(v)
        case "piecesConfidence": tuning.piecesConfidence = Float(v)
        case "splitOverSplit": tuning.splitOverSplit = v
        case "multiSplitWidth": tuning.multiSplitWidth = v
        case "runOnWidth": tuning.runOnWidth = v
        case "relativeRunOnWidth": tuning.relativeRunOnWidth = v
        case "strokeSplitWidth": tuning.strokeSplitWidth = v
        case "pieceWidth": tuning.pieceWidth = v
        case "candidateRereadBelow": tuning.candidateRereadBelow = Float(v)
        case "stretchLength": tuning.stretchLength = v
        case "way": tuning.wayWeights = kv[1].split(separator: ":").compactMap { Double($0) }  // "none": never lifted
        case "wayFloor": tuning.wayFloor = v
        case "wayPiece": tuning.wayPiece = v
        case "strokeSplitMargin": tuning.strokeSplitMargin = v
        case "strokeSplits": tuning.strokeSplits = Int(v)
        case "orderAtExits": tuning.orderAtExits = v != 0
        case "exitOrderMargin": tuning.exitOrderMargin = v
        case "orderMargin": tuning.orderMargin = v
        case "orderCost": tuning.orderCost = v
        case "orderSlack": tuning.orderSlack = v
        case "innerOrderCost": tuning.innerOrderCost = v
        case "stackedOrderCost": tuning.stackedOrderCost = v
        case "stackedShare": tuning.stackedShare = v
        case "innerHeight": tuning.innerHeight = v
        case "thirdSplit": tuning.thirdSplit = v != 0
        case "usualConfidence": tuning.usualConfidence = Float(v)
        case "flatDigit": tuning.flatDigit = v
        case "strayConfidence": tuning.strayConfidence = Float(v)
        case "stackOverlap": tuning.stackOverlap = v
        case "stackGap": tuning.stackGap = v
        case "sideOverlap": tuning.sideOverlap = v
        case "throughCost": tuning.throughCost = v
        case "workLimit": tuning.workLimit = Int(v)
        case "readWork": tuning.readWork = Int(v)
        case "leftToRightMargin": tuning.leftToRightMargin = v
        case "speckSize": tuning.speckSize = v
        default: FileHandle.standardError.write("unknown tuning \(kv[0])\n".data(using: .utf8)!); exit(2)
        }
    }
    if let path = ProcessInfo.processInfo.environment["NUMBER_WORK"] {
        // One line per number: the work its reading cost, and the time (µs, one read).
        var lines = ""
        for d in drawings {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let r = try recognizer.readNumber(d, in: ws, tuning: tuning)
            let t1 = DispatchTime.now().uptimeNanoseconds
            lines += "\(r.work) \(Double(t1 - t0) / 1000)\n"
        }
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = ProcessInfo.processInfo.environment["NUMBER_GATE_FEATURES"] {
        // One line per number: the gate's features of each group it decided on.
        var lines = ""
        for d in drawings {
            var groups: [String] = []
            _ = try recognizer.readNumber(d, in: ws, tuning: tuning, gateFeatures: { strokes, features in
                groups.append("{\"strokes\": \(strokes), \"features\": \(features)}")
            })
            lines += "[" + groups.joined(separator: ", ") + "]\n"
        }
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = ProcessInfo.processInfo.environment["NUMBER_WAY_FEATURES"] {
        // One line per number: the features of each stroke's longest straight stretch weighed as a pen's way.
        var lines = ""
        for d in drawings {
            var ways: [String] = []
            _ = try recognizer.readNumber(d, in: ws, tuning: tuning, wayFeatures: { stroke, end, start, features in
                ways.append("{\"stroke\": \(stroke), \"end\": \(end), \"start\": \(start), \"features\": \(features)}")
            })
            lines += "[" + ways.joined(separator: ", ") + "]\n"
        }
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = ProcessInfo.processInfo.environment["NUMBER_PARTS"] {
        // Every candidate digit the segmenter reads: PATH.jsonl, one line per
        // part (the number's line, the part), and PATH.f32, its 28×28 image.
        // Read as without a candidates network (`numbers` weighs the candidates),
        // so the images do not depend on the candidates network they train.
        let plain = try Recognizer(safetensors: [UInt8](Data(contentsOf: Recognizer.bundledModelURL!)),
                                   numbers: recognizer.numbers)
        var lines = ""
        var images: [Float] = []
        for (k, d) in drawings.enumerated() {
            _ = try plain.readNumber(d, in: ws, tuning: tuning, partRead: { part, image in
                lines += "{\"line\": \(k), \"strokes\": \(part.strokes), \"shear\": \(part.shear), "
                    + "\"lo\": \(part.lo.isFinite ? part.lo : -1e30), \"hi\": \(part.hi.isFinite ? part.hi : 1e30), "
                    + "\"piece\": \(part.piece), \"from\": \(part.points.lowerBound), \"to\": \(part.points.upperBound)}\n"
                images.append(contentsOf: image)
            })
        }
        try lines.write(toFile: path + ".jsonl", atomically: true, encoding: .utf8)
        try images.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path + ".f32"))
    }
    var out = ""
    if tuning == .standard {
        for line in lines { out += RecognizeLines.respond(to: line, mode: .number, recognizer: recognizer, workspace: ws) + "\n" }
    } else {
        for d in drawings { out += try recognizer.readNumber(d, in: ws, tuning: tuning).json.text + "\n" }
    }
    for d in drawings.prefix(n > 0 ? 100 : 0) { _ = try recognizer.readNumber(d, in: ws, tuning: tuning) }  // warm-up
    // A player's hand with every digit taught (what it costs does not depend
    // on what it learned), read with side by side with no hand.
    var hand = recognizer.makeHand()
    for (k, d) in drawings.prefix(40).enumerated() where hand != nil { try recognizer.learn(d, as: k % 10, into: &hand!, in: ws) }
    var times: [Double] = []
    var handTimes: [Double] = []
    times.reserveCapacity(drawings.count * n)
    for d in drawings {
        for _ in 0..<n {
            let t0 = nanos()
            _ = try recognizer.readNumber(d, in: ws, tuning: tuning)
            let t1 = nanos()
            if let hand { _ = try recognizer.readNumber(d, in: ws, tuning: tuning, hand: hand) }
            times.append(Double(t1 - t0) / 1000)
            handTimes.append(Double(nanos() - t1) / 1000)
        }
    }
    try out.write(toFile: args[3], atomically: true, encoding: .utf8)
    if times.isEmpty { exit(0) }  // REPEATS 0: readings only
    let points = drawings.map(\.pointCount)
    print("{\"numbers\": \(drawings.count), \"repeats\": \(n), \"median_points\": \(median(points.map(Double.init))), " +
          "\"median_us\": \(median(times)), \"p90_us\": \(percentile(times, 0.9)), " +
          "\"median_hand_us\": \(handTimes.isEmpty || hand == nil ? 0 : median(handTimes))}")
    exit(0)
}
if args[1] == "--logits" {
    // recog-bench --logits IMAGES.f32 LOGITS_OUT.f32 -: the network's raw outputs (float32, 10 or 11
    // per image), to compare two builds byte for byte (docs/recognition.md, single-digit "Speed").
    let data = try Data(contentsOf: URL(fileURLWithPath: args[2]))
    let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    let recognizer = try benchRecognizer()
    let ws = recognizer.makeWorkspace()
    var logits: [Float] = []
    for k in 0..<(floats.count / 784) {
        logits += recognizer.logits(image: Array(floats[k * 784..<(k + 1) * 784]), in: ws)
    }
    try logits.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: args[3]))
    exit(0)
}
let repeats = args.count > 4 ? Int(args[4]) ?? 10 : 10
if args[1] == "--images" {
    // recog-bench --images IMAGES.f32 PREDICTIONS_OUT.txt [REPEATS]: infer only, on 784-float images.
    let n = args.count > 4 ? Int(args[4]) ?? 1 : 1
    let data = try Data(contentsOf: URL(fileURLWithPath: args[2]))
    let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    let recognizer = try benchRecognizer()
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
        out += "\(r.digit) \(r.confidence) \(r.unsure ? 1 : 0)\n"
    }
    try out.write(toFile: args[3], atomically: true, encoding: .utf8)
    print("{\"images\": \(floats.count / 784), \"median_infer_us\": \(median(times))}")
    exit(0)
}
let text = try String(contentsOfFile: args[1], encoding: .utf8)
let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
let drawings = try lines.map { try RecognizeLines.parseDrawing($0) }
let recognizer = try benchRecognizer()
let ws = recognizer.makeWorkspace()
// DIGIT_SPECK_SIZE=0: taps and ticks read as ink (digit_marks.py measures both).
let speckSize = ProcessInfo.processInfo.environment["DIGIT_SPECK_SIZE"].flatMap(Double.init) ?? Recognizer.speckSize

// Warm-up.
for d in drawings.prefix(200) { _ = try recognizer.recognize(d, in: ws, speckSize: speckSize) }

// A player's hand with every digit taught, read with side by side with no
// hand; and what teaching it one drawing costs (PlayerHand).
var hand = recognizer.makeHand()
for (k, d) in drawings.prefix(40).enumerated() where hand != nil { try recognizer.learn(d, as: k % 10, into: &hand!, in: ws) }
var handTotal: [Double] = []
var learning: [Double] = []
if var scratch = hand {
    for (k, d) in drawings.enumerated() {
        let t0 = nanos()
        try recognizer.learn(d, as: k % 10, into: &scratch, in: ws)
        learning.append(Double(nanos() - t0) / 1000)
    }
}

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
        r = try recognizer.recognize(d, in: ws, speckSize: speckSize)
        let t1 = nanos()
        total.append(Double(t1 - t0) / 1000)
        if let hand {
            _ = try recognizer.recognize(d, in: ws, speckSize: speckSize, hand: hand)
            handTotal.append(Double(nanos() - t1) / 1000)
        }
    }
    let image = ws.lastImage
    images.append(contentsOf: image)
    predictions += "\(r!.digit) \(r!.confidence) \(r!.unsure ? 1 : 0)\n"
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
"p90_infer_us": \(percentile(infer, 0.9)), \
"median_total_hand_us": \(handTotal.isEmpty ? 0 : median(handTotal)), \
"median_learn_us": \(learning.isEmpty ? 0 : median(learning)), "p99_learn_us": \(learning.isEmpty ? 0 : percentile(learning, 0.99))}
""")
