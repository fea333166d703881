import Foundation
import MindPadRecognition
import MindPadTestSupport
import Testing

/// `docs/protocol.md` matches the server: each of its example transcripts is
/// replayed against the real binary. Client lines are sent with this run's
/// room code, token, drawings and typed answers (right or wrong, as the
/// transcript's next `graded` says: a digit for MindPad, a number written or
/// typed for Add-One; where a `choice` follows, a drawing the bundled
/// recognizer offers as a choice holding the hidden digit, and each
/// `choose` a digit outside the options when the transcript's next line
/// refuses it, else right or wrong as its `graded` says); server lines are
/// checked field by field, except values that differ from run to run
/// (tokens, codes, questions and their answers, timings, the digits offered).
@Suite struct RealtimeProtocolDocTests {
    /// Keys whose values change between runs.
    static let variable: Set<String> = [
        "token", "prompt", "starts_in_ms", "ends_in_ms", "digit", "confidence", "answer", "expected",
        "duration_ms", "score_reached_ms", "personal_best", "previous_best", "message", "race", "asked_ms", "answered_ms",
        "options", "tapped",
    ]
    /// Messages whose number and order depend on timing.
    static let timingDependent: Set<String> = ["progress", "room_updated", "guess"]

    struct Line {
        let client: String
        let outgoing: Bool
        let json: [String: Any]
    }

    /// The lines of every "Example transcript" section, one list per section.
    static func transcripts() throws -> [[Line]] {
        let url = ServerProcess.projectRoot.appendingPathComponent("docs/protocol.md")
        let doc = try String(contentsOf: url, encoding: .utf8)
        let sections = doc.components(separatedBy: "\n## ").filter { $0.hasPrefix("Example transcript") }
        return try sections.map(lines)
    }

    static func lines(_ section: String) throws -> [Line] {
        try section.split(separator: "\n").compactMap { raw -> Line? in
            let parts = raw.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, parts[1] == "→" || parts[1] == "←", parts[2].hasPrefix("{") else { return nil }
            let json = try JSONSerialization.jsonObject(with: Data(parts[2].utf8)) as! [String: Any]
            return Line(client: String(parts[0]), outgoing: parts[1] == "→", json: json)
        }
    }

    @Test func theExampleTranscriptsAreTheMindPadRaceTheAddOneRaceAndAChoice() throws {
        let sections = try Self.transcripts()
        #expect(sections.count == 3)
        #expect(sections.allSatisfy { lines in lines.contains { $0.json["type"] as? String == "standings" } })
        #expect(sections.first?.count ?? 0 > 40)
        let games = sections.map { lines in
            lines.compactMap { (($0.json["room"] as? [String: Any])?["game"] as? String) }.first
        }
        #expect(games == ["mindpad", "addone", "mindpad"])
        // The third offers a choice, refuses a pick and grades one.
        let types = sections[2].map { $0.json["type"] as? String ?? "" }
        #expect(types.contains("choice") && types.filter { $0 == "choose" }.count == 2)
        #expect(sections[2].contains { $0.json["code"] as? String == "bad_choice" })
    }

    @Test(arguments: 0..<3) func theExampleTranscriptReplays(section: Int) throws {
        let lines = try Self.transcripts()[section]
        let (db, server, port) = try RealtimeLiveTests.startServer(timeAttackSeconds: "5")
        defer { db.drop(); _ = server.stop() }

        var clients: [String: RealtimeClient] = [:]
        for name in Set(lines.map(\.client)).sorted() {
            clients[name] = try RealtimeClient(port: port, label: name, expectWelcome: false)
        }
        var tokens: [String: String] = [:]
        var roomCode: String?
        var questions: [String: [String: Any]] = [:]  // client → last question message
        var drawn: Set<String> = []  // client/question already drawn
        var offered: [String: [Int]] = [:]  // client → the options of its last `choice`

        for (i, line) in lines.enumerated() {
            let client = clients[line.client]!
            let type = line.json["type"] as! String
            if line.outgoing {
                var message = line.json
                if message["code"] != nil, let roomCode { message["code"] = roomCode }
                if message["token"] != nil { message["token"] = tokens[line.client] }
                // Right or wrong, as the transcript's next `graded` for this client says.
                let graded = lines[(i + 1)...].first { $0.client == line.client && !$0.outgoing && $0.json["type"] as? String == "graded" }
                let right = graded?.json["correct"] as? Bool ?? true
                let addOneDigits = (questions[line.client]?["prompt"] as? [String: Any])?["digits"] as? String
                // What the server says to this client next, before its next `graded`.
                let ahead = lines[(i + 1)...].filter { $0.client == line.client && !$0.outgoing }
                let untilGraded = ahead.prefix { $0.json["type"] as? String != "graded" }
                if type == "points" {
                    let id = message["question"] as! String
                    guard drawn.insert("\(line.client)/\(id)").inserted else { continue }
                    if untilGraded.contains(where: { $0.json["type"] as? String == "choice" }) {
                        let expected = expectedDigit(try #require(questions[line.client]))
                        let ambiguous = try #require(try DigitTemplates.ambiguous(expected, recognizer: try Recognizer.bundled()),
                                                     "no drawing of \(expected) is offered as a choice")
                        try client.draw(strokes: ambiguous.strokes, question: id, batches: 2, waitForGuess: false)
                    } else if let digits = addOneDigits {
                        let answer = DigitTemplates.addOne(digits)
                        try client.drawNumber(right ? answer : DigitTemplates.addOne(answer), question: id, waitForGuess: false)
                    } else {
                        let expected = expectedDigit(try #require(questions[line.client]))
                        try client.draw(right ? expected : (expected + 1) % 10, question: id, waitForGuess: false)
                    }
                    continue
                }
                // A pick: outside the options when the transcript refuses it; else
                // right, or an offered wrong one, as its `graded` says.
                if type == "choose" {
                    let options = try #require(offered[line.client])
                    let expected = expectedDigit(try #require(questions[line.client]))
                    if ahead.first?.json["type"] as? String == "error" {
                        message["answer"] = (0..<10).first { !options.contains($0) }
                    } else {
                        message["answer"] = right ? expected : try #require(options.first { $0 != expected })
                    }
                }
                // A typed MindPad digit, right or wrong.
                if type == "submit", message["answer"] is Int, addOneDigits == nil, let question = questions[line.client] {
                    let expected = expectedDigit(question)
                    message["answer"] = right ? expected : (expected + 1) % 10
                }
                // A typed Add-One answer (digits only; a mistyped one is sent as written).
                if type == "submit", let typed = message["answer"] as? String, typed.allSatisfy(\.isASCIIDigit),
                   let digits = addOneDigits {
                    let answer = DigitTemplates.addOne(digits)
                    message["answer"] = right ? answer : DigitTemplates.addOne(answer)
                }
                try client.send(message)
                if type == "ready" {
                    // The host's next move (start) must come after the server
                    // took this: wait until every other client has seen it.
                    for (name, other) in clients where name != line.client {
                        try other.next("room_updated") { m in
                            let members = (m["room"] as? [String: Any])?["members"] as? [[String: Any]] ?? []
                            return members.contains { ($0["name"] as? String)?.lowercased() == line.client && $0["ready"] as? Bool == true }
                        }
                    }
                }
                continue
            }
            if Self.timingDependent.contains(type) { continue }
            let received = try client.next(type, timeout: .seconds(10))
            if type == "identified", let token = received["token"] as? String { tokens[line.client] = token }
            if type == "room", roomCode == nil { roomCode = received["code"] as? String }
            if type == "question" { questions[line.client] = received }
            if type == "choice" { offered[line.client] = received["options"] as? [Int] }
            let differences = Self.differences(line.json, received, path: "\(line.client) \(type)", topLevel: true)
            #expect(differences.isEmpty, "transcript line \(i): \(differences)")
        }
    }

    /// Where `expected` (from the doc) and `actual` disagree, ignoring the
    /// run-dependent keys (and the room code, except in errors).
    static func differences(_ expected: Any, _ actual: Any, path: String, topLevel: Bool = false) -> [String] {
        switch (expected, actual) {
        case (let e as [String: Any], let a as [String: Any]):
            var out: [String] = []
            if Set(e.keys) != Set(a.keys) { out.append("\(path): keys \(e.keys.sorted()) vs \(a.keys.sorted())") }
            let isError = e["type"] as? String == "error"
            for (key, value) in e where !variable.contains(key) {
                if key == "code", topLevel, !isError { continue }
                guard let other = a[key] else { continue }
                out += differences(value, other, path: "\(path).\(key)")
            }
            return out
        case (let e as [Any], let a as [Any]):
            guard e.count == a.count else { return ["\(path): \(e.count) items vs \(a.count)"] }
            return zip(e, a).enumerated().flatMap { differences($0.element.0, $0.element.1, path: "\(path)[\($0.offset)]") }
        default:
            let same = (expected as? NSObject)?.isEqual(actual as? NSObject) ?? false
            return same ? [] : ["\(path): \(expected) vs \(actual)"]
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
