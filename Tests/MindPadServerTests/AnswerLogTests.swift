import MindPadJSON
import MindPadRecognition
import MindPadRules
import MindPadStorage
import Testing
@testable import MindPadServer

/// The room's answer log holds no more than storage keeps: 200 answers a
/// run, strokes while the run's points stay within 20,000; a new round or
/// a run's end starts afresh.
@Suite struct AnswerLogTests {
    static func drawing(_ points: Int) -> [[StrokePoint]] {
        [(0..<points).map { StrokePoint(x: Double($0), y: 1.5, t: Double($0 * 8)) }]
    }

    static func add(_ log: inout AnswerLog, _ player: PlayerID, _ index: Int, input: AnswerLog.Input, points: Int) {
        log.add(player, question: QuestionID(round: 1, index: index), prompt: .object([("digits", .string("12"))]),
                answer: .string("23"), expected: .string("23"), correct: true, points: 1, input: input, confidence: 0.9,
                askedAfter: .milliseconds(Int64(index) * 1000), answeredAfter: .milliseconds(Int64(index) * 1000 + 700),
                strokes: drawing(points))
    }

    @Test func theLogKeepsWhatStorageKeeps() {
        var log = AnswerLog()
        for i in 0..<3 { Self.add(&log, "ann", i, input: .drawn, points: 8_000) }
        Self.add(&log, "ann", 3, input: .drawn, points: 4_000)
        // Typed and tapped answers have neither strokes nor confidence.
        Self.add(&log, "ann", 4, input: .keypad, points: 10)
        for i in 5..<205 { Self.add(&log, "ann", i, input: .tap, points: 10) }
        Self.add(&log, "bo", 0, input: .drawn, points: 8_000)
        let ann = log.take("ann")
        #expect(ann.count == AnswerRecord.maxPerResult && ann.map(\.seq) == Array(0..<200))
        #expect(ann.prefix(4).map { $0.strokes?.first?.count } == [8_000, 8_000, nil, 4_000])
        #expect(ann[4].strokes == nil && ann[4].confidence == nil && ann[0].confidence == 0.9)
        #expect(ann.map(\.record) == AnswerRecord.bounded(ann.map(\.record)))
        #expect(ann[1].json["strokes"] == nil && ann[4].json["confidence"] == nil && ann[0].json["input"] == .string("drawn"))
        #expect(log.take("ann").isEmpty)
        // Another racer's run is their own; their run's end frees the bound.
        #expect(log.take("bo").first?.strokes?.first?.count == 8_000)
        for i in 0..<3 { Self.add(&log, "bo", i, input: .drawn, points: 8_000) }
        #expect(log.take("bo").map { $0.strokes == nil } == [false, false, true])
    }
}
