import Testing
import MindPadRecognition
import MindPadStorage

@testable import MindPadServer

/// A class's report (issue 46, item 4) from rows as storage reads them:
/// each wrong answer classified, the pupils' lines, the CSV.
@Suite struct ClassReportTests {
    static func row(_ pupil: String, correct: Bool, input: String = "drawn", confidence: Double? = 0.97, choice: String? = nil,
                    expected: String = "7", answer: String = "1", timeMs: Int = 3000, seq: Int = 0) -> ClassAnswerRow {
        ClassAnswerRow(pupil: pupil, player: pupil.lowercased() + "99", game: "mindpad", mode: "normal", raceID: "race1",
                       finishedAtMs: 1_700_000_000_000,
                       answer: StoredAnswer(seq: seq, questionID: "r1q\(seq)", prompt: #"{"lhs":3,"rhs":4,"operation":"+"}"#,
                                            answer: correct ? expected : answer, expected: expected, correct: correct, points: 1,
                                            input: input, confidence: input == "drawn" ? confidence : nil, askedMs: 1000,
                                            answeredMs: 1000 + timeMs, strokes: nil, choice: choice))
    }

    @Test func aWrongAnswerIsUnclearWritingSlowOrArithmetic() {
        let usual = (0..<5).map { Self.row("Ann", correct: true, timeMs: 3000, seq: $0) }
        let wrong = [
            Self.row("Ann", correct: false, confidence: 0.55, seq: 10),                                   // unsure reading
            Self.row("Ann", correct: false, choice: #"[{"place":0,"options":[1,7],"tapped":1}]"#, seq: 11),  // a choice tapped
            Self.row("Ann", correct: false, timeMs: 12_000, seq: 12),                                     // clear, but 4× her usual
            Self.row("Ann", correct: false, timeMs: 4_000, seq: 13),                                      // clear, in her time
            Self.row("Ann", correct: false, input: "keypad", timeMs: 4_000, seq: 14),                     // typed: never the hand
            Self.row("Ann", correct: false, input: "keypad", confidence: nil, timeMs: 9_000, seq: 15),    // 3× but under 10 s
        ]
        let report = ClassReport(className: "3B", rows: usual + wrong)
        #expect(report.answers.map(\.kind) == [nil, nil, nil, nil, nil, .unclear, .unclear, .slow, .arithmetic, .arithmetic, .arithmetic])
        let line = report.pupils.array?.first
        #expect(line?["answers"]?.integer == 11 && line?["right"]?.integer == 5 && line?["wrong"]?.integer == 6)
        #expect(line?["unclear"]?.integer == 2 && line?["slow"]?.integer == 1 && line?["arithmetic"]?.integer == 3)
    }

    @Test func theRightAnswerAmongTheReadingsOfferedIsUnclearWriting() {
        #expect(ClassReport.offered(in: #"[{"place":0,"options":[1,7],"tapped":1}]"#) == ["1", "7"])
        #expect(ClassReport.offered(in: "not json").isEmpty)
        let a = Self.row("Bo", correct: false, choice: #"[{"place":0,"options":[7,1],"tapped":1}]"#).answer
        #expect(ClassReport.classify(a, timeMs: 1000, usualMs: 1000) == .unclear)
        #expect(ClassReport.median([5, 1, 3]) == 3 && ClassReport.median([4, 1, 3, 2]) == 2 && ClassReport.median([]) == 0)
    }

    /// A wrong answer read surely, with no choice offered: its strokes read
    /// again without the pupil's hand. When they most likely show the right
    /// digit, the pupil wrote it and was misread (unclear writing); when they
    /// show what was taken, the sum was wrong.
    @Test func strokesThatShowTheRightDigitAreAMisreading() throws {
        let recognizer = try Recognizer.bundled()
        func drawn(_ digit: Int) -> String {
            AnswerRecord.strokesText(DigitTemplates.strokes(for: digit).map { $0.map { [$0.x, $0.y, $0.t] } })
        }
        func wrong(strokesOf digit: Int) -> ClassAnswerRow {
            var row = Self.row("Ann", correct: false, confidence: 0.97, expected: "7", answer: "1")
            row.answer.strokes = drawn(digit)
            return row
        }
        let reread = ClassReport.rereader(recognizer)
        #expect(reread(wrong(strokesOf: 7).answer) == 7)
        let report = ClassReport(className: "3B", rows: [wrong(strokesOf: 7), wrong(strokesOf: 1)], reread: reread)
        #expect(report.answers.map(\.kind) == [.unclear, .arithmetic])
        // Without a recognizer nothing is read again: the confident reading stands.
        #expect(ClassReport(className: "3B", rows: [wrong(strokesOf: 7)]).answers.map(\.kind) == [.arithmetic])
        // The class report carries no strokes; one pupil's does.
        #expect(report.json["answers"]?.array?.first?["strokes"] == nil)
        #expect(ClassReport(className: "3B", rows: [wrong(strokesOf: 7)], withStrokes: true).json["answers"]?.array?.first?["strokes"] != nil)
    }

    @Test func theCSVIsOneRowAnAnswerAndNoCellIsAFormula() {
        #expect(ClassReport.cell("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(ClassReport.cell("+1+1") == "'+1+1")
        #expect(ClassReport.cell("-3") == "-3")          // a negative number stays a number
        #expect(ClassReport.cell("-cmd") == "'-cmd")
        #expect(ClassReport.cell("@SUM(A1)") == "'@SUM(A1)")
        #expect(ClassReport.cell("a,b") == "\"a,b\"")
        #expect(ClassReport.cell("plain") == "plain")
        let report = ClassReport(className: "3B", rows: [Self.row("Ann", correct: true), Self.row("-Bo", correct: false, seq: 1)])
        let lines = report.csv.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines.last == "")
        #expect(lines[0].split(separator: ",").count == 17)
        #expect(lines[1].hasPrefix("Ann,ann99,2023-11-14T22:13:20.000Z,mindpad,normal,race1,,r1q0,"))
        #expect(lines[2].hasPrefix("'-Bo,'-bo99,"))
        #expect(lines[2].hasSuffix(",arithmetic"))
    }
}
