import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadRules
import Testing
@testable import MindPadServer

/// The Add-One game (the Fish game) through the in-process hub with the real
/// recognizer: numbers written side by side and read with `readNumber`,
/// live guesses with per-digit boxes, the keypad, and fish.
@Suite struct AddOneHubTests {
    @Test func aSoloRaceAnsweredByDrawingIsReadAsNumbers() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        var question = try #require(ann.startSolo("Ann", game: "addone", mode: "normal"))
        for index in 0..<10 {
            let id = try #require(question["question"]?.string)
            let digits = try #require(question["prompt"]?["digits"]?.string)
            // The prompt is the digits and nothing else.
            #expect(question["prompt"] == .object([("digits", .string(digits))]))
            #expect((2...6).contains(digits.count))
            let answer = DigitTemplates.addOne(digits)
            ann.drawNumber(answer, question: id)
            h.advance(by: .milliseconds(300))
            // The last live guess covers every point and reads the number,
            // each digit in its own box where it was written.
            let guess = try #require(ann.all("guess").last)
            let points = DigitTemplates.strokes(forNumber: answer).reduce(0) { $0 + $1.count }
            #expect(guess["question"] == .string(id) && guess["points"]?.integer == points)
            #expect(guess["number"] == .string(answer))
            #expect(guess["digit"] == nil)
            let boxes = try #require(guess["digits"]?.array)
            #expect(boxes.count == answer.count)
            for (place, reading) in boxes.enumerated() {
                let box = (reading["box"]?.array ?? []).compactMap { $0.number }
                try #require(box.count == 4)
                let left = Double(place) * 220
                #expect(box[0] >= left + 30 && box[2] <= left + 180 && box[1] >= 30 && box[3] <= 275, "\(box)")
                #expect(reading["digit"]?.integer == Int(String(Array(answer)[place])))
                #expect((reading["confidence"]?.number ?? 2) <= 1)
            }
            #expect(guess["confidence"]?.number == boxes.compactMap { $0["confidence"]?.number }.min())
            h.advance(by: .seconds(1))
            ann.submit(id)
            let graded = try #require(ann.next("graded"))
            #expect(graded["answer"] == .string(answer) && graded["expected"] == .string(answer))
            #expect(graded["correct"] == .bool(true) && graded["confidence"]?.number != nil)
            if index < 9 { question = try #require(ann.next("question")) }
        }
        let result = try #require(ann.next("finished")?["result"])
        #expect(result["correct"] == .int(10) && result["keypad_answers"] == .int(0))
        let records = h.sink.records.withLock { $0 }
        #expect(records.count == 1)
        #expect(records.first?.game == "addone" && records.first?.keypadAnswers == 0 && records.first?.fishID == nil)
        #expect(records.first?.score == result["score"]?.integer && (records.first?.score ?? 0) > 0)
    }

    @Test func aNumberOfTheWrongLengthIsAWrongAnswerShownAsRead() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", game: "addone", mode: "survival"))
        let digits = try #require(question["prompt"]?["digits"]?.string)
        let right = DigitTemplates.addOne(digits)
        let short = String(right.dropLast())
        ann.drawNumber(short, question: "r1q0")
        ann.submit("r1q0")
        let graded = try #require(ann.next("graded"))
        #expect(graded["answer"] == .string(short) && graded["expected"] == .string(right))
        #expect(graded["correct"] == .bool(false) && graded["run_over"] == .bool(true))
    }

    @Test func keypadAnswersAreGradedAsTypedAndCounted() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        var question = try #require(ann.startSolo("Ann", game: "addone", mode: "time_attack"))
        // Malformed keypad answers are refused clearly, and lose nothing.
        for bad: JSON in [.string("32a0"), .string(""), .string("123456789"), .int(3240), .string("٣٢")] {
            ann.submit("r1q0", answer: bad)
            let error = try #require(ann.next("error"))
            #expect(error["code"] == .string("bad_answer") && error["request"] == .string("submit"))
            #expect(error["message"]?.string?.contains("digits") == true, "\(error)")
        }
        #expect(ann.all("graded").isEmpty)
        var typed = 0, correct = 0
        for index in 0..<6 {
            let id = try #require(question["question"]?.string)
            let right = DigitTemplates.addOne(try #require(question["prompt"]?["digits"]?.string))
            h.advance(by: .seconds(2))
            switch index {
            case 2:
                // Written, between typed answers.
                ann.drawNumber(right, question: id)
                ann.submit(id)
                correct += 1
            case 4:
                // Typed wrong: a wrong answer, graded as typed (leading zero kept).
                ann.submit(id, answer: .string("0" + right))
                typed += 1
            default:
                ann.submit(id, answer: .string(right))
                typed += 1
                correct += 1
            }
            let graded = try #require(ann.next("graded"))
            #expect(graded["correct"] == .bool(index != 4) && graded["expected"] == .string(right))
            #expect((graded["confidence"] == nil) == (index != 2))
            question = try #require(ann.next("question"))
        }
        h.advance(by: .seconds(60))
        let result = try #require(ann.next("finished")?["result"])
        #expect(result["keypad_answers"] == .int(typed) && result["answered"] == .int(6) && result["correct"] == .int(correct))
        #expect(result["score"] == .int(correct))
        let record = try #require(h.sink.records.withLock { $0 }.first)
        #expect(record.keypadAnswers == 5 && record.answered == 6 && record.mode == "time_attack")
    }

    @Test func mindPadTakesATypedDigitForKeyboardOnlyPlay() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", mode: "normal"))
        // Anything but one digit is refused and loses nothing.
        for bad: JSON in [.string("12"), .int(10), .string("x"), .int(-1)] {
            ann.submit("r1q0", answer: bad)
            #expect(ann.errorCode() == "bad_answer")
        }
        // A typed digit is graded as typed, with no drawing, and counted as typed.
        ann.submit("r1q0", answer: .string(String(hiddenDigit(question))))
        let graded = try #require(ann.next("graded"))
        #expect(graded["answer"] == .int(hiddenDigit(question)) && graded["correct"] == .bool(true))
        #expect(graded["confidence"] == nil)
        let next = try #require(ann.next("question"))
        ann.submit("r1q1", answer: .int((hiddenDigit(next) + 1) % 10))
        #expect(try #require(ann.next("graded"))["correct"] == .bool(false))
    }

    @Test func racersBringTheirFishAndTheirResultsNameIt() throws {
        let h = try HubHarness()
        let ann = h.connect("ann"), bo = h.connect("bo"), cy = h.connect("cy")
        ann.identify("Ann")
        bo.identify("Bo")
        cy.identify("Cy")
        let annFish = UUID(), boFish = UUID()
        // Malformed ids, and a fish for a game without fish, are refused.
        for fish: JSON in [.string("nope"), .int(5), .string(annFish.uuidString + "0"), .string("{\(annFish.uuidString)}")] {
            ann.send([("type", .string("create_room")), ("game", .string("addone")), ("mode", .string("normal")), ("fish", fish)])
            let error = try #require(ann.next("error"))
            #expect(error["code"] == .string("bad_fish") && error["request"] == .string("create_room"))
        }
        ann.send([("type", .string("create_room")), ("mode", .string("normal")), ("fish", .string(annFish.uuidString))])
        #expect(ann.errorCode() == "bad_fish")
        #expect(h.hub.roomCount == 0)
        let mindpad = try #require(cy.createRoom(mode: "normal"))
        bo.send([("type", .string("join_room")), ("code", .string(mindpad)), ("fish", .string(boFish.uuidString))])
        let refused = try #require(bo.next("error"))
        #expect(refused["code"] == .string("bad_fish") && refused["request"] == .string("join_room"))
        #expect(refused["message"]?.string?.contains("MindPad") == true)

        let code = try #require(ann.createRoom(game: "addone", mode: "time_attack", fish: annFish.uuidString.lowercased()))
        bo.send([("type", .string("join_room")), ("code", .string(code)), ("fish", .string("bad"))])
        #expect(bo.errorCode() == "bad_fish")
        bo.send([("type", .string("join_room")), ("code", .string(code)), ("fish", .string(boFish.uuidString))])
        #expect(bo.next("room")?["room"]?["game"] == .string("addone"))
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        for client in [ann, bo] {
            let q = try #require(client.next("question"))
            client.submit("r1q0", answer: .string(DigitTemplates.addOne(try #require(q["prompt"]?["digits"]?.string))))
            #expect(client.next("graded")?["correct"] == .bool(true))
        }
        h.advance(by: .seconds(60))
        #expect(ann.next("standings") != nil)
        let records = h.sink.records.withLock { $0 }
        let fishByPlayer = Dictionary(uniqueKeysWithValues: records.map { ($0.playerID, $0.fishID) })
        #expect(records.count == 2 && Set(fishByPlayer.values.compactMap { $0 }) == [annFish, boFish])
        #expect(records.allSatisfy { $0.keypadAnswers == 1 && $0.score == 1 })
    }

    @Test func aKeypadAnswerWhileTheDrawingIsBeingReadIsRefused() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", game: "addone", mode: "normal"))
        let right = DigitTemplates.addOne(try #require(question["prompt"]?["digits"]?.string))
        ann.drawNumber(right, question: "r1q0")
        // The last point once more, after the last live guess: the drawing
        // changed since that reading, so the submit reads it again.
        let strokes = DigitTemplates.strokes(forNumber: right)
        let last = try #require(strokes.last?.last)
        h.hub.received(#"{"type":"points","question":"r1q0","stroke":\#(strokes.count - 1),"points":[[\#(last.x),\#(last.y)]]}"#,
                       from: ann.connection)
        // Both arrive before the reading comes back (posted, not yet run).
        h.hub.received(#"{"type":"submit","question":"r1q0"}"#, from: ann.connection)
        h.hub.received(#"{"type":"submit","question":"r1q0","answer":"\#(right)"}"#, from: ann.connection)
        h.transport.settle()
        #expect(ann.errorCode() == "submit_pending")
        let graded = try #require(ann.next("graded"))
        #expect(graded["answer"] == .string(right) && graded["confidence"] != nil)
        #expect(ann.all("graded").isEmpty)
    }

    /// `undo` takes back the last stroke, and only that one: the live guess
    /// follows what is left, a repeated or stale undo takes back nothing
    /// more, and a drawing undone to nothing is empty.
    @Test func anUndoTakesBackTheLastStrokeAndTheGuessFollows() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", game: "addone", mode: "normal"))
        let right = DigitTemplates.addOne(try #require(question["prompt"]?["digits"]?.string))
        func undo(_ stroke: Int, question: String = "r1q0") {
            ann.send([("type", .string("undo")), ("question", .string(question)), ("stroke", .int(stroke))])
        }
        // The right number, then a digit too many (a 4: two strokes).
        let strokes = DigitTemplates.strokes(forNumber: right + "4")
        let kept = DigitTemplates.strokes(forNumber: right).count
        #expect(strokes.count == kept + 2)
        ann.draw(strokes: strokes, question: "r1q0", perBatch: 16, every: .milliseconds(50))
        h.advance(by: .milliseconds(300))
        #expect(ann.all("guess").last?["number"] == .string(right + "4"))

        // Not the last stroke, another question: ignored, no reply.
        undo(kept)
        undo(strokes.count - 1, question: "r1q5")
        h.advance(by: .milliseconds(300))
        #expect(!ann.types.contains { $0 == "guess" || $0 == "error" }, "\(ann.types)")

        // The 4's strokes taken back, the second undo of each sent twice.
        undo(strokes.count - 1)
        undo(strokes.count - 1)
        undo(kept)
        undo(kept)
        h.advance(by: .milliseconds(300))
        let guess = try #require(ann.all("guess").last)
        #expect(guess["number"] == .string(right))
        #expect(guess["points"]?.integer == strokes.prefix(kept).reduce(0) { $0 + $1.count })
        #expect(!ann.types.contains("error"), "\(ann.types)")
        // The next stroke number is the first one taken back.
        ann.send([("type", .string("points")), ("question", .string("r1q0")), ("stroke", .int(kept + 1)),
                  ("points", .array([.array([.double(1), .double(1)])]))])
        #expect(ann.errorCode() == "bad_stroke")

        // Bad shapes are bad_message.
        ann.send([("type", .string("undo")), ("question", .string("r1q0"))])
        #expect(ann.errorCode() == "bad_message")
        ann.send([("type", .string("undo")), ("question", .string("r1q0")), ("stroke", .int(-1))])
        #expect(ann.errorCode() == "bad_message")

        ann.submit("r1q0")
        let graded = try #require(ann.next("graded"))
        #expect(graded["answer"] == .string(right) && graded["correct"] == .bool(true))

        // The next question: undone to nothing, no guess, and nothing to submit.
        _ = try #require(ann.next("question"))
        ann.draw(strokes: DigitTemplates.strokes(forNumber: "1"), question: "r1q1", perBatch: 16, every: .milliseconds(50))
        h.advance(by: .milliseconds(300))
        _ = ann.all("guess")
        undo(0, question: "r1q1")
        h.advance(by: .milliseconds(300))
        #expect(ann.all("guess").isEmpty)
        ann.submit("r1q1")
        #expect(ann.errorCode() == "empty_drawing")
    }

    /// A live reading still out when its ink is taken away (the stroke
    /// undone, or the pad cleared and written again) is sent as no guess:
    /// it is of no drawing the player has. The next guess reads what is there.
    @Test func aReadingOfInkTakenAwayIsNoGuess() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", game: "addone", mode: "normal"))
        let right = DigitTemplates.addOne(try #require(question["prompt"]?["digits"]?.string))
        let strokes = DigitTemplates.strokes(forNumber: right + "4")
        let kept = DigitTemplates.strokes(forNumber: right).count
        ann.draw(strokes: strokes, question: "r1q0", perBatch: 16, every: .milliseconds(50))
        h.advance(by: .milliseconds(300))
        _ = ann.all("guess")
        // Straight into the hub, without settling: the readings they start stay out.
        func write(_ range: Range<Int>) {
            for s in range {
                let points = strokes[s].map { "[\($0.x),\($0.y)]" }.joined(separator: ",")
                h.hub.received(#"{"type":"points","question":"r1q0","stroke":\#(s),"points":[\#(points)]}"#, from: ann.connection)
            }
        }
        func undoThe4() {
            h.hub.received(#"{"type":"undo","question":"r1q0","stroke":\#(kept + 1)}"#, from: ann.connection)
            h.hub.received(#"{"type":"undo","question":"r1q0","stroke":\#(kept)}"#, from: ann.connection)
        }
        for takeAway in ["undo", "clear"] {
            // One more point on the 4 starts a reading (the pacer's interval
            // has passed); its ink is taken away before it comes back.
            let last = try #require(strokes.last?.last)
            h.hub.received(#"{"type":"points","question":"r1q0","stroke":\#(kept + 1),"points":[[\#(last.x),\#(last.y)]]}"#,
                           from: ann.connection)
            if takeAway == "clear" {
                h.hub.received(#"{"type":"clear","question":"r1q0"}"#, from: ann.connection)
                // Written again, the 4 too, before the reading comes back.
                write(0..<strokes.count)
            }
            undoThe4()
            h.transport.settle()
            h.advance(by: .milliseconds(300))
            let guesses = ann.all("guess")
            #expect(!guesses.isEmpty, "\(takeAway): the drawing left is read")
            #expect(guesses.allSatisfy { $0["number"] == .string(right) }, "\(takeAway): \(guesses.map { $0["number"] ?? .null })")
            if takeAway == "undo" {
                // The 4 again, for the clear.
                write(kept..<strokes.count)
                h.transport.settle()
                h.advance(by: .milliseconds(300))
                #expect(ann.all("guess").last?["number"] == .string(right + "4"))
            }
        }
        ann.submit("r1q0")
        #expect(ann.next("graded")?["correct"] == .bool(true))
    }

    @Test func theFishStaysWithTheRacerThroughARematch() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        ann.identify("Ann")
        let bubbles = UUID()
        #expect(ann.createRoom(game: "addone", mode: "survival", fish: bubbles.uuidString) != nil)
        for round in 1...2 {
            ann.send([("type", .string("start"))])
            #expect(ann.next("question") != nil)
            // A miss ends a Survival run at once.
            ann.submit("r\(round)q0", answer: .string("0"))
            #expect(ann.next("graded")?["run_over"] == .bool(true))
            #expect(ann.next("standings") != nil)
            if round == 1 { ann.send([("type", .string("rematch"))]) }
        }
        let records = h.sink.records.withLock { $0 }
        #expect(records.count == 2 && records.allSatisfy { $0.fishID == bubbles && $0.keypadAnswers == 1 && $0.answered == 1 })
    }

    @Test func anAnswerHoldsEveryDigitTheRecognizerReads() {
        // A reading is never too long to be an answer (it would be
        // `unreadable_answer` instead of a wrong answer), and the keypad takes as many.
        #expect(DigitString.maxCount == Recognizer.maxNumberDigits)
    }
}
