@testable import MindPadHTTP
@testable import MindPadTransport
import Foundation
import MindPadRecognition
import MindPadRules
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// The realtime layer's pure parts: codec, codes, limits, the templates the
/// live tests draw with.
@Suite struct RealtimeUnitTests {
    @Test func everyDigitTemplateIsRecognized() throws {
        let recognizer = try Recognizer.bundled()
        let workspace = recognizer.makeWorkspace()
        for digit in 0...9 {
            let result = try recognizer.recognize(Drawing(strokes: DigitTemplates.strokes(for: digit)), in: workspace)
            #expect(result.digit == digit, "template \(digit) read as \(result.digit) (\(result.confidence))")
        }
    }

    @Test func clientMessagesDecodeAndRefuseClearly() throws {
        guard case .success(.points(let q, let stroke, let points)) = ClientMessage.decode(
            #"{"type":"points","question":"r2q7","stroke":1,"points":[[1,2,3],[4.5,0]]}"#) else {
            Issue.record("points did not decode"); return
        }
        #expect(q == QuestionID(round: 2, index: 7))
        #expect(stroke == 1)
        #expect(points == [StrokePoint(x: 1, y: 2, t: 3), StrokePoint(x: 4.5, y: 0, t: 0)])
        guard case .success(.ready(true)) = ClientMessage.decode(#"{"type":"ready","ready":true}"#) else {
            Issue.record("ready did not decode"); return
        }
        func code(_ text: String) -> String? {
            if case .failure(let e) = ClientMessage.decode(text) { return e.code.rawValue }
            return nil
        }
        #expect(code("{nope") == "bad_json")
        #expect(code("[1,2]") == "bad_message")
        #expect(code(#"{"type":"dance"}"#) == "unknown_type")
        #expect(code(#"{"type":"ready","ready":1}"#) == "bad_message")
        #expect(code(#"{"type":"points","question":"r1q0","stroke":0,"points":[[true,1]]}"#) == "bad_message")
        #expect(code(#"{"type":"points","question":"q1","stroke":0,"points":[]}"#) == "bad_message")
        #expect(code(#"{"type":"create_room","mode":"blitz"}"#) == "bad_message")
        #expect(code(#"{"type":"create_room","mode":"normal","max_players":9}"#) == "bad_message")
        #expect(code(#"{"type":"identify"}"#) == "bad_message")
    }

    @Test func roomCodesAvoidLookAlikes() {
        var generator = SystemRandomNumberGenerator()
        var seen = Set<String>()
        for _ in 0..<500 {
            let code = RoomCode.make(avoiding: { seen.contains($0) }, using: &generator)
            #expect((4...6).contains(code.count))
            #expect(!code.contains { "ILOQUV0123456789".contains($0) })
            seen.insert(code)
        }
        // A cluster asks for longer codes after its directory refused short ones.
        for shortest in [5, 6, 9] {
            let code = RoomCode.make(avoiding: { _ in false }, shortest: shortest, using: &generator)
            #expect(code.count == min(shortest, 6))
            #expect(RoomCode.normalize(code) == code)
        }
        #expect(RoomCode.normalize(" abcd ") == "ABCD")
        #expect(RoomCode.normalize("AB1D") == nil)
        #expect(RoomCode.normalize("ABC") == nil)
    }

    @Test func tokenBucketAllowsBurstThenRate() {
        let start = RaceInstant(milliseconds: 5_000)
        var bucket = TokenBucket(rate: 10, burst: 5, now: start)
        var taken = 0
        for _ in 0..<6 where bucket.take(now: start) { taken += 1 }
        #expect(taken == 5)
        let later = bucket.take(now: start + .milliseconds(110))
        let again = bucket.take(now: start + .milliseconds(110))
        #expect(later && !again)
    }

    @Test func drawingBufferEnforcesTheLimits() {
        var buffer = DrawingBuffer()
        buffer.reset(to: QuestionID(round: 1, index: 0))
        #expect(buffer.append([StrokePoint(x: 1, y: 1)], stroke: 1)?.code.rawValue == "bad_stroke")
        #expect(buffer.append(Array(repeating: StrokePoint(x: 1, y: 1), count: 10_000), stroke: 0) == nil)
        #expect(buffer.append([StrokePoint(x: 1, y: 1)], stroke: 0)?.code.rawValue == "too_many_points")
        #expect(buffer.pointCount == 10_000)
        buffer.reset(to: QuestionID(round: 1, index: 1))
        for s in 0..<64 { #expect(buffer.append([StrokePoint(x: 1, y: 1)], stroke: s) == nil) }
        #expect(buffer.append([StrokePoint(x: 1, y: 1)], stroke: 64)?.code.rawValue == "too_many_strokes")
        #expect(buffer.append([StrokePoint(x: 2e6, y: 1)], stroke: 63)?.code.rawValue == "coordinate_out_of_range")
    }

    @Test func aDrawingKeepsItsReadingOnlyWhileItIsUnchanged() throws {
        let recognizer = try Recognizer.bundled()
        let seven = try recognizer.recognize(Drawing(strokes: DigitTemplates.strokes(for: 7)), in: recognizer.makeWorkspace())
        let reading = DrawingReading.digit(seven)
        var buffer = DrawingBuffer()
        buffer.reset(to: QuestionID(round: 1, index: 0))
        #expect(buffer.append([StrokePoint(x: 1, y: 1)], stroke: 0) == nil)
        let read = buffer.revision
        buffer.remember(reading, of: read)
        #expect(buffer.currentReading?.handwritten == HandwrittenAnswer(digits: [seven.digit]))
        // A batch added: the reading is of an older drawing.
        #expect(buffer.append([StrokePoint(x: 2, y: 2)], stroke: 0) == nil)
        #expect(buffer.currentReading == nil)
        // A reading that comes back after the drawing changed is not kept.
        buffer.remember(reading, of: read)
        #expect(buffer.currentReading == nil)
        // Cleared and drawn again to the same point count: a new drawing.
        buffer.remember(reading, of: buffer.revision)
        buffer.reset(to: QuestionID(round: 1, index: 0))
        #expect(buffer.currentReading == nil)
        #expect(buffer.append([StrokePoint(x: 1, y: 1), StrokePoint(x: 2, y: 2)], stroke: 0) == nil)
        #expect(buffer.currentReading == nil)
        // Read as a number instead of a digit: not the same reading.
        buffer.remember(reading, of: buffer.revision)
        buffer.readsNumber = true
        #expect(buffer.currentReading == nil)
        // A failed append changes nothing.
        buffer.remember(reading, of: buffer.revision)
        #expect(buffer.append([StrokePoint(x: 1, y: 1)], stroke: 5) != nil)
        #expect(buffer.currentReading != nil)
    }

    @Test func originsAreCheckedAgainstTheHostAndTheList() {
        #expect(WebServer.originAllowed(nil, host: "a.example", allowed: []))
        #expect(WebServer.originAllowed("https://a.example", host: "a.example", allowed: []))
        #expect(WebServer.originAllowed("http://127.0.0.1:8080", host: "127.0.0.1:8080", allowed: []))
        #expect(!WebServer.originAllowed("https://evil.example", host: "a.example", allowed: []))
        #expect(WebServer.originAllowed("https://app.example", host: "a.example", allowed: ["https://app.example/"]))
        #expect(WebServer.originAllowed("https://evil.example", host: "a.example", allowed: ["*"]))
        #expect(!WebServer.originAllowed("null", host: "a.example", allowed: []))
    }

    @Test func optionsReadTheEnvironment() throws {
        let o = try RealtimeOptions(environment: ["MINDPAD_TIME_ATTACK_SECONDS": "6", "MINDPAD_COUNTDOWN_SECONDS": "0.5",
                                                  "MINDPAD_ALLOWED_ORIGINS": "https://a.example, https://b.example"])
        #expect(o.timeAttackLength == .seconds(6))
        #expect(o.countdown == .milliseconds(500))
        #expect(o.allowedOrigins == ["https://a.example", "https://b.example"])
        #expect(RealtimeOptions().timeAttackLength == .seconds(150))
        #expect(throws: ConfigurationError.self) { try RealtimeOptions(environment: ["MINDPAD_TIME_ATTACK_SECONDS": "soon"]) }
    }

    @Test func outgoingMessagesPutTheTypeFirstAndLeaveOutNils() {
        let m = OutgoingMessage("x", [("s", .string("a\"b\\c\n\u{1}\u{202E}")), ("n", nil), ("d", .double(0.5))])
        #expect(m.text == #"{"type":"x","s":"a\"b\\c\n\u0001\u202e","d":0.5}"#)
        #expect(m.type == "x" && m.errorCode == nil)
        let e = ServerMessage.error(ProtocolError(.badJSON, "no"))
        #expect(e.errorCode == .badJSON && e.type == "error")
    }

    @Test func unknownTypesAreNamedInRequestWithoutInvisibleCharacters() {
        guard case .failure(let e) = ClientMessage.decode(#"{"type":"da\u202ence\u0000\n\"x"}"#) else {
            Issue.record("decoded"); return
        }
        #expect(e.code == .unknownType)
        #expect(e.request == "dancex")
        #expect(!e.message.unicodeScalars.contains { $0.value == 0x202E || $0.value < 0x20 })
    }

    @Test func anInfiniteCoordinateIsOutOfRangeNotBadJSON() {
        guard case .success(.points(_, _, let points)) = ClientMessage.decode(
            #"{"type":"points","question":"r1q0","stroke":0,"points":[[1e999,2]]}"#) else {
            Issue.record("did not decode"); return
        }
        var buffer = DrawingBuffer()
        buffer.reset(to: QuestionID(round: 1, index: 0))
        #expect(buffer.append(points, stroke: 0)?.code == .coordinateOutOfRange)
    }

    @Test func everyErrorCodeIsDocumented() throws {
        let doc = try String(contentsOf: ServerProcess.projectRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        for code in ProtocolErrorCode.allCases {
            #expect(doc.contains("`\(code.rawValue)`"), "docs/protocol.md does not list \(code.rawValue)")
        }
    }

    /// Every client message kind has its section, and every message the
    /// server writes (each `OutgoingMessage("type")` in Sources) is shown in
    /// docs/protocol.md (issue 46's lessons among them).
    @Test func everyMessageIsDocumented() throws {
        let root = ServerProcess.projectRoot
        let doc = try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        for kind in ClientMessage.Kind.allCases {
            #expect(doc.contains("### `\(kind.rawValue)`"), "docs/protocol.md has no section for \(kind.rawValue)")
        }
        let sources = root.appendingPathComponent("Sources/MindPadServer/Realtime")
        var types = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /OutgoingMessage\("([a-z_]+)"/) { types.insert(String(match.1)) }
        }
        #expect(types.isSuperset(of: ["room", "lesson", "pad_points", "pad_guess", "pad_graded", "pad_question", "pad_clear", "lesson_ended"]))
        for type in types {
            #expect(doc.contains("\"type\":\"\(type)\""), "docs/protocol.md shows no \(type) message")
        }
    }

    @Test func theTransportClockRoundsUpSoDeadlinesAreNeverEarly() {
        #expect(LWSRealtimeTransport.millisecondsRoundedUp(.zero) == 0)
        #expect(LWSRealtimeTransport.millisecondsRoundedUp(.milliseconds(5)) == 5)
        #expect(LWSRealtimeTransport.millisecondsRoundedUp(.microseconds(5_001)) == 6)
        #expect(LWSRealtimeTransport.millisecondsRoundedUp(.nanoseconds(1)) == 1)
        #expect(LWSRealtimeTransport.millisecondsRoundedUp(.seconds(2) + .microseconds(999)) == 2_001)
    }
}
