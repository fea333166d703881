import Foundation
import MindPadRecognition
import MindPadTestSupport
import Testing

extension DigitTemplates {
    /// A scratch-out: the pen going back and forth across the pad, as a
    /// player does who crosses something out. Not a digit.
    static let scribble: [[StrokePoint]] = {
        var points: [StrokePoint] = []
        for i in 0..<9 {
            let y = 50 + Double(i) * 24
            let (x0, x1) = i % 2 == 0 ? (30.0, 230.0) : (230.0, 30.0)
            points.append(StrokePoint(x: x0, y: y, t: Double(i) * 120))
            points.append(StrokePoint(x: (x0 + x1) / 2, y: y + 8, t: Double(i) * 120 + 50))
            points.append(StrokePoint(x: x1, y: y + 12, t: Double(i) * 120 + 100))
        }
        return [points]
    }()
}

extension RealtimeLiveTests {
    /// Issue 18: a scribble's live guess is "unsure" with no digit, its
    /// submit is refused with `unsure_drawing` and not graded; the same
    /// question is then answered with a real digit.
    @Test func aScribbleIsUnsureAndItsSubmitIsRefused() throws {
        let (db, server, port) = try Self.startServer()
        defer { db.drop(); _ = server.stop() }
        let ed = try Self.soloRace(port: port, name: "Ed", mode: "normal")
        let question = try ed.next("question")
        let id = try #require(question["question"] as? String)

        let guess = try ed.draw(strokes: DigitTemplates.scribble, question: id, batches: 2, waitForGuess: true)
        #expect(guess["unsure"] as? Bool == true)
        #expect(guess["digit"] is NSNull)
        #expect((guess["confidence"] as? Double).map { $0 < 1 } == true)

        try ed.send(["type": "submit", "question": id])
        let refusal = try ed.error("unsure_drawing")
        #expect(refusal["request"] as? String == "submit")
        #expect(!ed.inbox.contains { $0["type"] as? String == "graded" })

        try ed.send(["type": "clear", "question": id])
        let graded = try ed.answer(expectedDigit(question), question: id)
        #expect(graded["correct"] as? Bool == true)
        #expect(graded["score"] as? Int == graded["points"] as? Int)
        // The guess of a real digit names it and is not unsure.
        let digitGuess = try #require(ed.log.last { $0.message["type"] as? String == "guess" }?.message)
        #expect(digitGuess["digit"] as? Int == expectedDigit(question))
        #expect(digitGuess["unsure"] == nil)
    }
}
