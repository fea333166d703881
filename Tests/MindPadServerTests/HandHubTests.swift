import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadRules
import MindPadStorage
import Testing
@testable import MindPadServer

/// The reader learns each player's hand (issue 43) through the in-process hub
/// with the real recognizer: what it learns from (a sure reading graded
/// right, a tapped choice; never a wrong answer read surely), when the hand
/// is stored and loaded, and the player's switch.
@Suite struct HandHubTests {
    private func metric(_ h: HubHarness, _ name: String) -> Double? {
        MetricsEndpointTests.sample(String(decoding: h.hub.metrics.render(), as: UTF8.self), name)
    }

    /// Answers the current question `q` by drawing `digit`'s template and
    /// submitting it; returns the `graded` and the next question.
    private func answer(_ client: HubClient, _ q: JSON?, with digit: Int) -> (graded: JSON?, next: JSON?) {
        let id = q?["question"]?.string ?? ""
        client.draw(digit, question: id, perBatch: 16, every: .milliseconds(10))
        client.submit(id)
        return (client.next("graded"), client.next("question"))
    }

    @Test func sureRightReadingsAreLearnedStoredAndLoadedAgain() throws {
        let h = try HubHarness()
        #expect(h.recognizer.handModel != nil, "the bundled weights carry a hand model")
        let ann = h.connect("ann")
        let identified = try #require(ann.identify("Ann"))
        #expect(identified["learns_hand"] == .bool(true) && identified["hand_learned"] == .int(0))
        let token = try #require(identified["token"]?.string)
        // Normal: no clock ends the race while the hand waits to be stored.
        _ = ann.createRoom(mode: "normal")
        ann.send([("type", .string("start"))])
        var q = ann.next("question")
        var rightAndSure = 0
        for _ in 0..<6 {
            let step = answer(ann, q, with: hiddenDigit(q))
            let graded = try #require(step.graded)
            if graded["correct"] == .bool(true), let c = graded["confidence"]?.number,
               c >= Double(try #require(h.recognizer.handModel).learnAbove) { rightAndSure += 1 }
            q = step.next
        }
        #expect(rightAndSure >= 3)
        #expect(h.recognizer.learned == rightAndSure)
        #expect(metric(h, "mindpad_hand_learned_total") == Double(rightAndSure))
        // Nothing is stored until the delay has passed ...
        #expect(h.directory.handSaves.load(ordering: .relaxed) == 0)
        h.advance(by: HubHarness.quickOptions.handSaveDelay)
        #expect(h.directory.handSaves.load(ordering: .relaxed) == 1)
        let stored = try #require(h.directory.hands.withLock { $0[1] })
        #expect(stored.learned == rightAndSure && (stored.bytes?.count ?? 0) <= 4096)
        // ... and once more when the player leaves having learned since.
        let step = answer(ann, q, with: hiddenDigit(q))
        #expect(step.graded?["correct"] == .bool(true))
        h.hub.closed(ann.connection)
        #expect(h.directory.handSaves.load(ordering: .relaxed) == 2)
        // Back on another connection: the hand comes with them.
        let again = h.connect("ann again")
        let back = try #require(again.identify("Ann", token: token))
        #expect(back["hand_learned"] == .int(h.directory.hands.withLock { $0[1]?.learned ?? -1 }))
        #expect(back["hand_learned"]?.integer ?? 0 >= rightAndSure)
    }

    @Test func aWrongAnswerReadSurelyIsNeverLearned() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        var q = ann.startSolo("Ann", mode: "time_attack")
        for _ in 0..<5 {
            let wrong = (hiddenDigit(q) + 5) % 10
            let step = answer(ann, q, with: wrong)
            #expect(step.graded?["correct"] == .bool(false))
            q = step.next
        }
        #expect(h.recognizer.learned == 0)
    }

    @Test func theDigitTappedIsLearnedEvenWhenItIsWrong() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "time_attack")
        let digit = hiddenDigit(q0)
        let (strokes, choices) = try #require(try DigitTemplates.ambiguous(digit, recognizer: try Recognizer.bundled()))
        ann.draw(strokes: strokes, question: "r1q0", perBatch: 8, every: .milliseconds(20))
        ann.submit("r1q0")
        #expect(ann.next("choice") != nil)
        let other = try #require(choices.first { $0 != digit })
        ann.send([("type", .string("choose")), ("question", .string("r1q0")), ("answer", .int(other))])
        #expect(ann.next("graded")?["correct"] == .bool(false))
        // What the player meant is what they tapped: learned as that digit.
        #expect(h.recognizer.learned == 1)
        h.advance(by: HubHarness.quickOptions.handSaveDelay)
        let bytes = try #require(h.directory.hands.withLock { $0[1]?.bytes })
        let model = try #require(h.recognizer.handModel)
        let hand = try PlayerHand(bytes: bytes, width: model.width)
        #expect(hand.counts[other] == 1 && hand.learned == 1)
    }

    @Test func switchedOffTheHandIsForgottenAndNothingIsLearned() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        var q = ann.startSolo("Ann", mode: "time_attack")
        q = answer(ann, q, with: hiddenDigit(q)).next
        q = answer(ann, q, with: hiddenDigit(q)).next
        let learned = h.recognizer.learned
        #expect(learned >= 1)
        ann.send([("type", .string("reading")), ("learn", .bool(false))])
        let off = try #require(ann.next("reading"))
        #expect(off["learns_hand"] == .bool(false) && off["hand_learned"] == .int(0))
        #expect(h.directory.hands.withLock { $0[1] } == StoredHand(learns: false, bytes: nil, learned: 0))
        for _ in 0..<3 { q = answer(ann, q, with: hiddenDigit(q)).next }
        #expect(h.recognizer.learned == learned)
        h.advance(by: .seconds(30))
        h.hub.closed(ann.connection)
        #expect(h.directory.handSaves.load(ordering: .relaxed) == 0)
        // On again: a new hand, learning from the next answers.
        let again = h.connect("ann again")
        let back = try #require(again.identify("Ann", token: "token-ann"))
        #expect(back["learns_hand"] == .bool(false))
        again.send([("type", .string("reading")), ("learn", .bool(true))])
        #expect(again.next("reading")?["learns_hand"] == .bool(true))
        // A bad setting is refused as such.
        again.send([("type", .string("reading")), ("learn", .string("yes"))])
        #expect(again.errorCode() == "bad_message")
    }
}
