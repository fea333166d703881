// What the answers of a batch of 100 fast Time Attack results cost to write
// in Swift, in a release build: 60 drawings of 50 points per result
// (300,000 points), as `AnswerRecord.strokesText` (the batch statement's
// and the journal's strokes), as journal lines, against Foundation's
// `JSONEncoder` on the raw arrays. docs/architecture.md quotes it. Build and
// run from the repository root (no package, seconds to compile):
//
//   S=Sources/MindPadStorage; swiftc -O -module-name AnswerBench $S/AnswerRecord.swift $S/ScoreRecords.swift \
//       $S/PathRoundRecord.swift tools/answerbench/main.swift -o /tmp/answerbench && /tmp/answerbench

import Foundation
func point(_ s: Int, _ p: Int) -> [Double] {
    let x: Double = Double(s * 40 + p) + 0.25
    let y: Double = 100.5 - Double(p) * 0.1
    let t: Double = Double(s * 500 + p * 16)
    return [x, y, t]
}
let drawing: [[[Double]]] = (0..<2).map { (s: Int) -> [[Double]] in (0..<25).map { (p: Int) -> [Double] in point(s, p) } }
let answers = (0..<60).map { i in
    AnswerRecord(seq: i, questionID: "r1q\(i)", prompt: #"{"text":"4 × 2 = ?","lhs":4}"#, answer: "8", expected: "8", correct: true,
                 points: 1, input: "drawn", confidence: 0.99, askedMs: i * 2500, answeredMs: i * 2500 + 2000, strokes: drawing)
}
let batch = (0..<100).map { i in
    GameResultRecord(playerID: Int64(i), mode: "time_attack", score: 60, correct: 60, answered: 60, durationMs: 150_000,
                     finishedAtMs: 1_795_003_200_000, answers: answers)
}
func time(_ label: String, _ body: () throws -> Void) rethrows {
    var best = Duration.seconds(1000)
    for _ in 0..<5 {
        let start = ContinuousClock.now
        try body()
        best = min(best, ContinuousClock.now - start)
    }
    print("\(label): best of 5 \(best)")
}
time("strokesText, 6,000 drawings") { for _ in 0..<6_000 { _ = AnswerRecord.strokesText(drawing) } }
try time("JSONEncoder, 100 results with their answers (journal lines)") { _ = try JSONEncoder().encode(batch) }
try time("JSONEncoder, 300,000 points as [[[Double]]]") { _ = try JSONEncoder().encode(Array(repeating: drawing, count: 6_000)) }
let one = try JSONEncoder().encode(batch[0])
try time("JSONDecoder, 100 journal lines with answers") { for _ in 0..<100 { _ = try JSONDecoder().decode(GameResultRecord.self, from: one) } }
