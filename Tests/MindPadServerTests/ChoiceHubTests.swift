import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadRules
import MindPadStorage
import Testing
@testable import MindPadServer

/// A choice instead of a refusal (issue 43) through the in-process hub with
/// the real recognizer: a submitted drawing read unsurely but with a few
/// plausible digits is offered (`choice`), the player's tap (`choose`) is
/// their answer, graded at the moment it arrived and kept with the drawing
/// and what was offered. The ambiguous drawings are found through the
/// bundled recognizer (`DigitTemplates.ambiguous`), so the tests hold for
/// retrained weights and a refitted choice rule.
@Suite struct ChoiceHubTests {
    private func metric(_ h: HubHarness, _ name: String) -> Double? {
        MetricsEndpointTests.sample(String(decoding: h.hub.metrics.render(), as: UTF8.self), name)
    }

    /// An ambiguous drawing of the question's hidden digit, with its choices.
    private func ambiguous(for question: JSON?) throws -> (strokes: [[StrokePoint]], choices: [Int]) {
        let digit = hiddenDigit(question)
        return try #require(try DigitTemplates.ambiguous(digit, recognizer: try Recognizer.bundled()),
                            "no drawing of \(digit) is offered as a choice holding it")
    }

    @Test func anUnsureReadingIsOfferedAndTheTapIsGradedAtItsTime() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "survival")
        let started = try #require(ann.log.first { $0.message["type"] == .string("race_started") }?.at)
        let digit = hiddenDigit(q0)
        let (strokes, choices) = try ambiguous(for: q0)
        #expect((2...3).contains(choices.count) && choices.contains(digit))

        // The live guess says what the choice will be: "1 or 7?".
        ann.draw(strokes: strokes, question: "r1q0", perBatch: 4, every: .milliseconds(20))
        h.advance(by: .milliseconds(200))
        let guess = try #require(ann.all("guess").last)
        #expect(guess["choices"] == .array(choices.map(JSON.int)))
        #expect(guess["digit"] == .int(choices[0]) && guess["unsure"] == nil)

        // Submitted: not graded, not refused; offered.
        ann.submit("r1q0")
        let offer = try #require(ann.next("choice"))
        #expect(offer == .object([("type", .string("choice")), ("question", .string("r1q0")),
                                  ("options", .array(choices.map(JSON.int)))]))
        #expect(!ann.types.contains("graded") && !ann.types.contains("error"))
        let offered = metric(h, "mindpad_choices_offered_total")

        // The clock runs on while the player looks: the answer counts when the tap arrives.
        h.advance(by: .milliseconds(1500))
        let tappedAt = h.transport.now
        ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", .int(digit))])
        let graded = try #require(ann.next("graded"))
        #expect(graded["answer"] == .int(digit) && graded["correct"] == .bool(true) && graded["expected"] == .int(digit))
        #expect(metric(h, "mindpad_choices_taken_total") == 1 && offered == 1)

        // The run's log and the stored answer keep the drawing, what was offered and what was tapped.
        let q1 = try #require(ann.next("question"))
        ann.submit("r1q1", answer: .int((hiddenDigit(q1) + 1) % 10))
        let result = try #require(ann.next("finished")?["result"])
        let first = try #require(result["answers"]?.array?.first)
        #expect(first["input"] == .string("drawn") && first["answer"] == .int(digit))
        #expect(first["answered_ms"]?.integer == Int((tappedAt - started).milliseconds))
        let choice = JSON.array([.object([("place", .int(0)), ("options", .array(choices.map(JSON.int))), ("tapped", .int(digit))])])
        #expect(first["choice"] == choice)
        #expect(result["answers"]?.array?.last?["choice"] == nil)
        let record = try #require(h.sink.records.withLock { $0.first }?.answers.first)
        #expect(record.choice.map { try? JSON.parse($0) } == choice)
        #expect(record.strokes?.count == strokes.count && record.input == "drawn")
    }

    @Test func aPickThatWasNotOfferedIsRefusedAndTheOfferStays() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "time_attack")
        let digit = hiddenDigit(q0)
        let (strokes, choices) = try ambiguous(for: q0)
        ann.draw(strokes: strokes, question: "r1q0", perBatch: 8, every: .milliseconds(20))
        ann.submit("r1q0")
        #expect(ann.next("choice")?["options"] == .array(choices.map(JSON.int)))
        let notOffered = try #require((0..<10).first { !choices.contains($0) })
        for bad: JSON in [.int(notOffered), .string(String(notOffered)), .string("17"), .int(12), .bool(true), .array([.int(digit)])] {
            ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", bad)])
            let error = try #require(ann.next("error"))
            #expect(error["code"] == .string("bad_choice") && error["request"] == .string("choose"), "\(bad)")
            #expect(error["message"]?.string?.contains(choices.map(String.init).joined(separator: " or ")) == true)
        }
        // An answer is required at all.
        ann.send([("type", .string("choose")), ("question", .string("r1q0"))])
        #expect(ann.errorCode() == "bad_message")
        #expect(!ann.types.contains("graded"))
        // The offer stayed: a pick among it is graded (a digit as a string too).
        ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", .string(String(digit)))])
        #expect(ann.next("graded")?["correct"] == .bool(true))
        // Taken: the next question has nothing to pick, nor has the one answered.
        ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", .int(digit))])
        #expect(ann.errorCode() == "stale_question")
        ann.send([("type", .string("choose")), ("question", .string("r1q1")), ("answer", .int(digit))])
        #expect(ann.errorCode() == "no_choice")
    }

    /// A batch, an undo or a clear withdraws the offer; a submit then reads
    /// the drawing as it is now.
    @Test func aChangedDrawingWithdrawsTheOffer() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "time_attack")
        let digit = hiddenDigit(q0)
        let (strokes, _) = try ambiguous(for: q0)
        func offered() {
            ann.submit("r1q0")
            #expect(ann.next("choice") != nil)
        }
        func choose() { ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", .int(digit))]) }

        ann.draw(strokes: strokes, question: "r1q0", perBatch: 8, every: .milliseconds(20))
        offered()
        // The same drawing submitted again: the same choice, not read again.
        let readings = h.recognizer.readings
        offered()
        #expect(h.recognizer.readings == readings)

        // A new stroke withdraws it.
        ann.send([("type", .string("points")), ("question", .string("r1q0")), ("stroke", .int(strokes.count)),
                  ("points", .array([.array([.int(300), .int(300)]), .array([.int(301), .int(330)])]))])
        choose()
        #expect(ann.errorCode() == "no_choice")
        // Undone: what is left is the ambiguous drawing again, offered again once submitted.
        ann.send([("type", .string("undo")), ("question", .string("r1q0")), ("stroke", .int(strokes.count))])
        h.advance(by: .milliseconds(200))
        offered()
        ann.send([("type", .string("undo")), ("question", .string("r1q0")), ("stroke", .int(strokes.count - 1))])
        choose()
        #expect(ann.errorCode() == "no_choice")
        // Cleared and written again: offered again; cleared: withdrawn.
        ann.send([("type", .string("clear")), ("question", .string("r1q0"))])
        ann.draw(strokes: strokes, question: "r1q0", perBatch: 8, every: .milliseconds(20))
        offered()
        ann.send([("type", .string("clear")), ("question", .string("r1q0"))])
        choose()
        #expect(ann.errorCode() == "no_choice")
        // A sure drawing is graded at once, no choice.
        ann.draw(digit, question: "r1q0")
        ann.submit("r1q0")
        #expect(ann.next("graded")?["correct"] == .bool(true))
        #expect(ann.all("choice").isEmpty)
    }

    /// "Write it again" stays for what is no digit at all.
    @Test func aScribbleIsStillRefused() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        ann.startSolo("Ann", mode: "normal")
        ann.draw(strokes: DigitTemplates.scribble, question: "r1q0", perBatch: 8, every: .milliseconds(20))
        h.advance(by: .milliseconds(200))
        let guess = try #require(ann.all("guess").last)
        #expect(guess["unsure"] == .bool(true) && guess["digit"] == .null && guess["choices"] == nil)
        ann.submit("r1q0")
        #expect(ann.errorCode() == "unsure_drawing")
        #expect(ann.all("choice").isEmpty && !ann.types.contains("graded"))
        ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", .int(1))])
        #expect(ann.errorCode() == "no_choice")
    }

    /// The race rules are asked before the offer: a pick after the race
    /// ended is `race_over`, and a typed digit answers the question with an
    /// offer open, graded as typed.
    @Test func theRulesComeFirstAndATypedDigitStillAnswers() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "time_attack")
        let digit = hiddenDigit(q0)
        let (strokes, choices) = try ambiguous(for: q0)
        ann.draw(strokes: strokes, question: "r1q0", perBatch: 8, every: .milliseconds(20))
        ann.submit("r1q0")
        #expect(ann.next("choice") != nil)
        ann.submit("r1q0", answer: .int(digit))
        let graded = try #require(ann.next("graded"))
        #expect(graded["correct"] == .bool(true) && graded["confidence"] == nil)
        let q1 = try #require(ann.next("question"))
        let second = try ambiguous(for: q1)
        ann.draw(strokes: second.strokes, question: "r1q1", perBatch: 8, every: .milliseconds(20))
        ann.submit("r1q1")
        #expect(ann.next("choice") != nil)
        h.advance(by: .seconds(61))
        ann.send([("type", .string("choose")), ("question", .string("r1q1")), ("answer", .int(second.choices[0]))])
        #expect(ann.errorCode() == "race_over")
        let result = try #require(ann.next("finished")?["result"])
        #expect(result["answers"]?.array?.count == 1 && result["keypad_answers"] == .int(1))
        #expect(result["answers"]?.array?.first?["input"] == .string("keypad"))
        #expect(result["answers"]?.array?.first?["choice"] == nil)
        _ = choices
    }

    /// A number (Add-One) offers each unsure place; the pick is the whole
    /// number with each place picked.
    @Test func aNumberOffersItsUnsurePlaces() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let question = try #require(ann.startSolo("Ann", game: "addone", mode: "survival"))
        let answer = DigitTemplates.addOne(try #require(question["prompt"]?["digits"]?.string))
        let found = try #require(try DigitTemplates.ambiguousNumber(answer, recognizer: try Recognizer.bundled()),
                                 "no drawing of \(answer) is offered as a choice")
        ann.draw(strokes: found.strokes, question: "r1q0", perBatch: 16, every: .milliseconds(50))
        h.advance(by: .milliseconds(300))
        let guess = try #require(ann.all("guess").last)
        var shown = Array(answer)
        shown[found.place] = "?"
        #expect(guess["number"] == .string(String(shown)))
        #expect(guess["digits"]?.array?[found.place]["choices"] == .array(found.choices.map(JSON.int)))
        ann.submit("r1q0")
        let offer = try #require(ann.next("choice"))
        #expect(offer["number"] == .string(String(shown)) && offer["options"] == nil)
        let places = try #require(offer["digits"]?.array)
        #expect(places.count == answer.count)
        for (i, place) in places.enumerated() {
            if i == found.place {
                #expect(place == .object([("options", .array(found.choices.map(JSON.int)))]))
            } else {
                #expect(place == .object([("digit", .int(Int(String(Array(answer)[i]))!))]))
            }
        }
        // Not a number offered: a digit alone, another length, a sure place changed, a number as a number.
        var changed = Array(answer)
        changed[(found.place + 1) % answer.count] = changed[(found.place + 1) % answer.count] == "5" ? "6" : "5"
        var other = Array(answer)
        other[found.place] = Character(String(try #require((0..<10).first { !found.choices.contains($0) })))
        for bad: JSON in [.int(found.choices[0]), .string(answer + "0"), .string(String(changed)), .string(String(other))] {
            ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", bad)])
            #expect(ann.errorCode() == "bad_choice", "\(bad)")
        }
        ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", .string(answer))])
        let graded = try #require(ann.next("graded"))
        #expect(graded["answer"] == .string(answer) && graded["correct"] == .bool(true))
        let q1 = try #require(ann.next("question"))
        ann.submit("r1q1", answer: .string(try #require(q1["prompt"]?["digits"]?.string)))
        let result = try #require(ann.next("finished")?["result"])
        let choice = JSON.array([.object([("place", .int(found.place)), ("options", .array(found.choices.map(JSON.int))),
                                          ("tapped", .int(Int(String(Array(answer)[found.place]))!))])])
        #expect(result["answers"]?.array?.first?["choice"] == choice)
    }

    /// Only options the game can take as an answer are offered; a place
    /// left with one is decided without asking (the path finder takes two
    /// digits 1–9, so a 0 is never offered).
    @Test func onlyAnswersTheGameTakesAreOffered() throws {
        let reading = DrawingReading.number(NumberReading(digits: [
            DigitReading(digit: 4, confidence: 0.99, box: InkBox(x0: 0, y0: 0, x1: 10, y1: 20)),
            DigitReading(digit: 0, confidence: 0.6, box: InkBox(x0: 20, y0: 0, x1: 30, y1: 20), choices: [0, 6]),
        ]))
        let question = QuestionID(round: 1, index: 0)
        let takesOneToNine = { (digits: [Int]) in digits.count == 2 && digits.allSatisfy((1...9).contains) }
        guard case .grade(let digits) = ChoiceOffer.make(question: question, reading: reading, strokes: [], accepts: takesOneToNine) else {
            Issue.record("offered a 0 to the path finder"); return
        }
        #expect(digits == [4, 6])
        guard case .offer(let offer) = ChoiceOffer.make(question: question, reading: reading, strokes: [], accepts: { _ in true }) else {
            Issue.record("not offered"); return
        }
        #expect(offer.places == [[4], [0, 6]])
        #expect(offer.pick(.string("46")) == [4, 6] && offer.pick(.string("40")) == [4, 0])
        #expect(offer.pick(.string("47")) == nil && offer.pick(.int(46)) == nil && offer.pick(.string("4")) == nil)
        #expect(offer.message.text == #"{"type":"choice","question":"r1q0","number":"4?","digits":[{"digit":4},{"options":[0,6]}]}"#)
        // No option an answer: the likeliest reading goes to the game, which refuses it as before.
        guard case .grade(let likeliest) = ChoiceOffer.make(question: question, reading: reading, strokes: [], accepts: { _ in false }) else {
            Issue.record("offered what the game cannot take"); return
        }
        #expect(likeliest == [4, 0])
    }
}
