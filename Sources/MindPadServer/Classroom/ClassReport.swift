import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadStorage

/// Why a pupil's answer was wrong, as a teacher reads it (issue 46, item
/// 4): the reader may have read the hand wrong, the sum may be wrong, or
/// the pupil took so long they were likely stuck.
enum WrongAnswerKind: String, Sendable, CaseIterable {
    /// Unclear writing: a drawn answer the reader was unsure of (below
    /// `ClassReport.sureReading`), one the pupil picked among readings
    /// offered (a choice), one where the right answer was among the
    /// readings offered, or one whose strokes, read again without the
    /// pupil's learned hand, most likely show the right digit: the hand,
    /// not the sum, may be what went wrong.
    case unclear
    /// Too slow: far longer than this pupil usually takes
    /// (`ClassReport.isSlow`).
    case slow
    /// Wrong arithmetic: read clearly, in the pupil's usual time, and wrong.
    case arithmetic
}

/// A class's report: every answer of its pupils in its lessons, each wrong
/// one classified, and a line per pupil. Pure: built from storage's rows.
struct ClassReport {
    /// Below this confidence a drawn answer's reading was unsure.
    static let sureReading = 0.8
    /// A wrong answer is too slow past this many times the pupil's median
    /// answer time in the report, and never under `slowFloorMs`.
    static let slowFactor = 2.5
    static let slowFloorMs = 10_000

    struct Answer {
        let row: ClassAnswerRow
        let timeMs: Int
        let kind: WrongAnswerKind?
    }

    let className: String
    let answers: [Answer]
    /// Strokes are part of the JSON (one pupil's report).
    let withStrokes: Bool

    /// `reread`: the digit a wrong drawn answer's strokes most likely show,
    /// read without the pupil's hand (nil: not known).
    init(className: String, rows: [ClassAnswerRow], withStrokes: Bool = false, reread: (StoredAnswer) -> Int? = { _ in nil }) {
        self.className = className
        self.withStrokes = withStrokes
        var times: [String: [Int]] = [:]
        for row in rows { times[row.pupil, default: []].append(row.answer.answeredMs - row.answer.askedMs) }
        let medians = times.mapValues { Self.median($0) }
        answers = rows.map { row in
            let time = row.answer.answeredMs - row.answer.askedMs
            let again = row.answer.correct || row.answer.input != "drawn" ? nil : reread(row.answer)
            return Answer(row: row, timeMs: time,
                          kind: Self.classify(row.answer, timeMs: time, usualMs: medians[row.pupil] ?? time, reread: again))
        }
    }

    /// The digit `recognizer` reads in a stored drawing of one digit (the
    /// answer and the right one each a single digit), without any hand.
    static func rereader(_ recognizer: Recognizer?) -> (StoredAnswer) -> Int? {
        guard let recognizer else { return { _ in nil } }
        let workspace = recognizer.makeWorkspace()
        return { answer in
            guard let expected = answer.expected, let digit = Int(expected), (0...9).contains(digit),
                  let text = answer.strokes, let raw = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[[Double]]]
            else { return nil }
            let strokes = raw.map { $0.compactMap { p in p.count >= 2 ? StrokePoint(x: p[0], y: p[1], t: p.count > 2 ? p[2] : 0) : nil } }
            guard let reading = try? recognizer.recognize(Drawing(strokes: strokes), in: workspace), !reading.unsure else { return nil }
            return reading.digit
        }
    }

    static func median(_ values: [Int]) -> Int {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func isSlow(timeMs: Int, usualMs: Int) -> Bool {
        Double(timeMs) > max(Double(slowFloorMs), slowFactor * Double(usualMs))
    }

    /// nil for a right answer.
    static func classify(_ a: StoredAnswer, timeMs: Int, usualMs: Int, reread: Int? = nil) -> WrongAnswerKind? {
        guard !a.correct else { return nil }
        if a.input == "drawn" {
            if a.choice != nil || (a.confidence ?? 1) < sureReading { return .unclear }
            if let expected = a.expected, offered(in: a.choice).contains(where: { $0 == expected }) { return .unclear }
            if let reread, let expected = a.expected, String(reread) == expected { return .unclear }
        }
        return isSlow(timeMs: timeMs, usualMs: usualMs) ? .slow : .arithmetic
    }

    /// The digits a choice offered, as JSON text of each (`[{"options":[1,7],…}]`).
    static func offered(in choice: String?) -> [String] {
        guard let choice, let json = try? JSON.parse(choice), let places = json.array else { return [] }
        return places.flatMap { ($0["options"]?.array ?? []).map(\.text) }
    }

    /// Each pupil's line: answers, right, and wrong by kind, by name.
    var pupils: JSON {
        var lines: [String: (player: String, answers: Int, right: Int, kinds: [WrongAnswerKind: Int])] = [:]
        for a in answers {
            var line = lines[a.row.pupil] ?? (a.row.player, 0, 0, [:])
            line.answers += 1
            if let kind = a.kind { line.kinds[kind, default: 0] += 1 } else { line.right += 1 }
            lines[a.row.pupil] = line
        }
        return .array(lines.keys.sorted { $0.lowercased() < $1.lowercased() }.map { name in
            let l = lines[name]!
            return .object([("name", .string(name)), ("player", .string(l.player)), ("answers", .int(l.answers)),
                            ("right", .int(l.right)), ("wrong", .int(l.answers - l.right))]
                           + WrongAnswerKind.allCases.map { ($0.rawValue, .int(l.kinds[$0] ?? 0)) })
        })
    }

    /// The report as JSON: the pupils' lines and every answer (with its
    /// strokes when storage read them).
    var json: JSON {
        .object([("class", .string(className)), ("pupils", pupils),
                 ("answers", .array(answers.map { Self.answerJSON($0, strokes: withStrokes) }))])
    }

    static func answerJSON(_ a: Answer, strokes withStrokes: Bool) -> JSON {
        let s = a.row.answer
        func parsed(_ text: String?) -> JSON { text.flatMap { try? JSON.parse($0) } ?? .null }
        var fields: [(String, JSON)] = [
            ("pupil", .string(a.row.pupil)), ("player", .string(a.row.player)), ("game", .string(a.row.game)),
            ("mode", .string(a.row.mode)), ("race", .string(a.row.raceID)),
            ("assignment", a.row.assignmentID.map { .string($0) } ?? .null), ("question", .string(s.questionID)),
            ("at", .string(ScoresJSON.timestamp(a.row.finishedAtMs))),
            ("prompt", parsed(s.prompt)), ("answer", parsed(s.answer)), ("expected", parsed(s.expected)),
            ("correct", .bool(s.correct)), ("input", .string(s.input)),
            ("confidence", s.confidence.map { .double(($0 * 1000).rounded() / 1000) } ?? .null),
            ("choice", parsed(s.choice)), ("time_ms", .int(a.timeMs)),
            ("wrong_kind", a.kind.map { .string($0.rawValue) } ?? .null),
        ]
        if withStrokes, let strokes = s.strokes { fields.append(("strokes", parsed(strokes))) }
        return .object(fields)
    }

    /// The same answers as CSV (RFC 4180, a header line first): one row per
    /// answer, what a spreadsheet needs; the prompt and answers as their
    /// JSON. A cell a spreadsheet would take as a formula (`=`, `+`, `-`,
    /// `@`, a tab or a return first, and not a number) is preceded by `'`.
    var csv: String {
        var out = "pupil,player,finished_at,game,mode,race,assignment,question,prompt,answer,expected,correct,input,confidence,choice,time_ms,wrong_kind\r\n"
        for a in answers {
            let s = a.row.answer
            let cells = [a.row.pupil, a.row.player, ScoresJSON.timestamp(a.row.finishedAtMs), a.row.game, a.row.mode, a.row.raceID,
                         a.row.assignmentID ?? "", s.questionID, s.prompt, s.answer, s.expected ?? "", s.correct ? "true" : "false", s.input,
                         s.confidence.map { String(($0 * 1000).rounded() / 1000) } ?? "", s.choice ?? "", String(a.timeMs),
                         a.kind?.rawValue ?? ""]
            out += cells.map(Self.cell).joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func cell(_ raw: String) -> String {
        var text = raw
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), Double(text) == nil {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
