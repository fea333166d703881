@testable import MindPadHTTP
import MindPadJSON
import MindPadRules
import Testing
@testable import MindPadServer

/// The kids' games through the in-process hub: a level raced solo by taps
/// and one written digit, stored with its level; `bad_level`; drawing only
/// where the prompt is drawable; everyone in a room gets the same questions.
@Suite struct KidsHubTests {
    /// The right option of a counting prompt: how many things there are.
    static func count(_ question: JSON?) -> Int {
        question?["prompt"]?["picture"]?["items"]?.array?.first?["count"]?.integer ?? -1
    }

    @Test func aSoloLevelByTapsAndADrawnDigitIsStoredWithItsLevel() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        ann.identify("Ann")
        ann.send([("type", .string("create_room")), ("mode", .string("normal")), ("game", .string("kids_counting")),
                  ("level", .int(2))])
        let room = try #require(ann.next("room"))
        #expect(room["room"]?["level"] == .int(2) && room["room"]?["game"] == .string("kids_counting"))
        ann.send([("type", .string("start"))])
        var question = ann.next("question")
        var drawn = false
        for index in 0..<10 {
            let prompt = try #require(question?["prompt"])
            #expect(prompt["level"] == .int(2) && prompt["ask"] == .string("count"))
            let right = Self.count(question)
            #expect((1...5).contains(right))
            let values = try #require(prompt["options"]?.array).compactMap { $0["value"]?.string }
            #expect(values.contains(String(right)) && prompt["drawable"] == .bool(true))
            h.advance(by: .seconds(1))
            if index < 2 {
                // Two wrong taps.
                ann.submit("r1q\(index)", answer: .string(values.first { $0 != String(right) }!))
            } else if !drawn {
                // One answer written on the pad, with live guesses.
                ann.draw(right, question: "r1q\(index)")
                #expect(ann.all("guess").last?["digit"] == .int(right))
                ann.submit("r1q\(index)")
                drawn = true
            } else {
                ann.submit("r1q\(index)", answer: .string(String(right)))
            }
            let graded = try #require(ann.next("graded"))
            #expect(graded["correct"] == .bool(index >= 2) && graded["expected"] == .string(String(right)))
            if index == 2 { #expect(graded["answer"] == .string(String(right)) && graded["confidence"] != nil) }
            #expect(graded["points"] == .int(index >= 2 ? 1 : 0))
            if index < 9 { question = ann.next("question") }
        }
        let finished = try #require(ann.next("finished"))
        #expect(finished["result"]?["score"] == .int(8) && finished["result"]?["correct"] == .int(8))
        let records = h.sink.records.withLock { $0 }
        #expect(records.count == 1)
        #expect(records.first?.game == "kids_counting" && records.first?.level == 2 && records.first?.score == 8)
        // The game's own pass mark travels with the result (storage assumes none).
        #expect(records.first?.passMark == KidsLevel.passMark)
        #expect(records.first?.mode == "normal" && records.first?.keypadAnswers == 0)
        // Stored with the transport's wall clock (the hub reads no other), when it finished.
        let finishedAt = try #require(records.first?.finishedAtMs)
        #expect(finishedAt >= h.transport.wallClockOrigin && finishedAt <= h.transport.wallClockMs)
    }

    @Test func badLevelsAreRefusedAndTheDefaultIsLevelOne() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        ann.identify("Ann")
        for (game, level) in [("kids_counting", JSON.int(7)), ("kids_counting", .int(0)), ("kids_division", .int(-1)),
                              ("kids_colours", .string("two")), ("kids_colours", .double(1.5)), ("mindpad", .int(1)),
                              ("addone", .int(2))] {
            ann.send([("type", .string("create_room")), ("mode", .string("normal")), ("game", .string(game)), ("level", level)])
            let error = try #require(ann.next("error"))
            #expect(error["code"] == .string("bad_level") && error["request"] == .string("create_room"), "\(game) \(level)")
        }
        #expect(h.hub.roomCount == 0)
        // Modes other than normal are not offered.
        ann.send([("type", .string("create_room")), ("mode", .string("survival")), ("game", .string("kids_counting"))])
        #expect(ann.errorCode() == "mode_not_offered")
        // No level: level 1. MindPad's room says none.
        #expect(ann.createRoom(game: "kids_positions", mode: "normal") != nil)
        #expect(h.hub.rooms.values.first?.snapshot.level == 1)
        ann.send([("type", .string("leave_room"))])
        _ = ann.next("left_room")
        ann.send([("type", .string("create_room")), ("mode", .string("normal"))])
        #expect(ann.next("room")?["room"]?["level"] == nil)
    }

    @Test func drawingIsTakenOnlyWhereThePromptIsDrawable() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let first = try #require(ann.startSolo("Ann", game: "kids_colours", mode: "normal", level: 3))
        #expect(first["prompt"]?["drawable"] == .bool(false) && first["prompt"]?["options"]?.array?.count == 4)
        let stroke: [(String, JSON)] = [("type", .string("points")), ("question", .string("r1q0")), ("stroke", .int(0)),
                                        ("points", .array([.array([.int(1), .int(1)]), .array([.int(5), .int(9)])]))]
        ann.send(stroke)
        #expect(ann.errorCode() == "answer_not_drawn")
        ann.submit("r1q0")
        #expect(ann.errorCode() == "answer_missing")
        ann.submit("r1q0", answer: .int(3))
        #expect(ann.errorCode() == "bad_answer")
        ann.submit("r1q0", answer: .string("Red!"))
        #expect(ann.errorCode() == "bad_answer")
        // The colour asked for is the right option.
        let asked = try #require(first["prompt"]?["picture"]?["colour"]?.string)
        ann.submit("r1q0", answer: .string(asked))
        #expect(ann.next("graded")?["correct"] == .bool(true))
        // A late batch for the old question is ignored without a reply.
        #expect(ann.next("question") != nil)
        ann.send(stroke)
        #expect(ann.all("error").isEmpty)

        // A drawable question with nothing drawn and no answer.
        let bo = h.connect("bo")
        #expect(bo.startSolo("Bo", game: "kids_counting", mode: "normal")?["prompt"]?["drawable"] == .bool(true))
        bo.submit("r1q0")
        #expect(bo.errorCode() == "answer_missing")
    }

    @Test func twoRacersInARoomGetTheSameQuestions() throws {
        let h = try HubHarness()
        let ann = h.connect("ann"), bo = h.connect("bo")
        ann.identify("Ann")
        bo.identify("Bo")
        let code = try #require(ann.createRoom(game: "kids_addition", mode: "normal", level: 3))
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        #expect(bo.next("room")?["room"]?["level"] == .int(3))
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        for index in 0..<10 {
            let a = try #require(ann.next("question")), b = try #require(bo.next("question"))
            #expect(a == b)
            #expect(a["prompt"]?["picture"]?["scene"] == .string("numbers") && a["prompt"]?["level"] == .int(3))
            let left = a["prompt"]?["picture"]?["left"]?.integer ?? 0, right = a["prompt"]?["picture"]?["right"]?.integer ?? 0
            #expect(left + right <= 10)
            for client in [ann, bo] {
                client.submit("r1q\(index)", answer: .string(String(left + right)))
                #expect(client.next("graded")?["correct"] == .bool(true))
            }
        }
        let standings = try #require(ann.next("standings"))
        #expect(standings["entries"]?.array?.map { $0["score"] } == [.int(10), .int(10)])
        #expect(h.sink.records.withLock { $0 }.allSatisfy { $0.level == 3 && $0.game == "kids_addition" })
        // Each question was encoded once for the room: both racers were sent the same bytes.
        let questions = { (c: HubClient) in
            h.transport.payloads[c.connection, default: []].filter { $0.text.hasPrefix(#"{"type":"question""#) }
        }
        let a = questions(ann), b = questions(bo)
        #expect(a.count == 10 && b.count == 10)
        #expect(zip(a, b).allSatisfy { $0 === $1 })
    }
}
