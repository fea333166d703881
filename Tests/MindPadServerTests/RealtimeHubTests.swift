import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadRules
import MindPadStorage
import Synchronization
import Testing
@testable import MindPadServer

/// The realtime hub in-process (`HubHarness`): a manual clock and an
/// in-memory transport, so timings are exact and nothing sleeps.
@Suite struct RealtimeHubTests {
    @Test func anUnavailableDirectoryIsReportedAndRetried() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        h.directory.down.store(true, ordering: .relaxed)
        ann.send([("type", .string("identify")), ("name", .string("Ann"))])
        #expect(ann.errorCode() == "unavailable")
        h.directory.down.store(false, ordering: .relaxed)
        #expect(ann.identify("Ann")?["new"] == .bool(true))
    }

    @Test func aJournaledResultIsReportedWithoutABestAndCarriesItsAccount() throws {
        let h = try HubHarness(journal: true)
        _ = h.connect("someone").identify("Zed")
        let ann = h.connect("ann")
        let q = ann.startSolo("Ann", mode: "survival")
        ann.draw((hiddenDigit(q) + 3) % 10, question: "r1q0")
        ann.submit("r1q0")
        #expect(ann.next("graded")?["correct"] == .bool(false))
        let saved = ann.next("result_saved")
        #expect(saved?["stored"] == .string("journal"))
        #expect(saved?["game"] == .string("mindpad"))
        #expect(saved?["personal_best"] == nil)
        let record = try #require(h.sink.records.withLock { $0.first })
        #expect(record.mode == "survival" && record.answered == 1 && record.correct == 0)
        // Ann is the directory's second player: her account id, not one parsed from "p2".
        #expect(record.playerID == 2 && record.game == "mindpad" && !record.lowerScoreWins)
    }

    @Test func aSecondConnectionTakesOverAndResumes() throws {
        let h = try HubHarness()
        let first = h.connect("first")
        let token = try #require(first.identify("Ann")?["token"]?.string)
        let code = first.createRoom(mode: "time_attack")
        first.send([("type", .string("start"))])
        let race = try #require(first.next("race_started")?["race"]?.string)
        #expect(first.next("question") != nil)

        let second = h.connect("second")
        second.identify("ann", token: token)
        // The whole picture names the running race: its replay is known before `finished`.
        let room = second.next("room")
        #expect(room?["code"]?.string == code && room?["race"]?.string == race)
        #expect(second.next("question")?["question"] == .string("r1q0"))
        #expect(first.closeCode == 4001)
        #expect(first.errorCode() == "replaced")
        // The old connection closing later does not disconnect the player.
        h.hub.closed(first.connection)
        h.transport.settle()
        #expect(second.all("room_updated").allSatisfy { $0["room"]?["members"]?.array?.first?["connected"] == .bool(true) })
    }

    @Test func liveGuessesArePacedAndTheLastBatchIsAlwaysRead() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "time_attack")
        // A batch every 20 ms for a digit of many batches.
        ann.draw(hiddenDigit(q0), question: "r1q0", perBatch: 2, every: .milliseconds(20))
        h.advance(by: .milliseconds(200))
        let guesses = ann.log.filter { $0.message["type"] == .string("guess") }
        let points = DigitTemplates.strokes(for: hiddenDigit(q0)).reduce(0) { $0 + $1.count }
        #expect(guesses.count >= 3)
        // At most one reading per 100 ms, exactly on the interval while batches keep coming…
        for (a, b) in zip(guesses, guesses.dropFirst()) {
            #expect(b.at - a.at >= .milliseconds(100), "guesses at \(a.at) and \(b.at)")
        }
        // …and the last one covers every point drawn.
        #expect(guesses.last?.message["points"]?.integer == points)
        #expect(guesses.last?.message["digit"]?.integer == hiddenDigit(q0))
        #expect(h.recognizer.readings == guesses.count)
    }

    @Test func lateBatchesForAnAnsweredQuestionAreIgnored() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "time_attack")
        ann.draw(hiddenDigit(q0), question: "r1q0")
        ann.submit("r1q0")
        #expect(ann.next("graded")?["correct"] == .bool(true))
        let q1 = ann.next("question")
        _ = ann.all("guess")
        ann.send([("type", .string("points")), ("question", .string("r1q0")), ("stroke", .int(0)),
                  ("points", .array([.array([.int(1), .int(1)])]))])
        #expect(ann.types.contains("error") == false)
        ann.draw(hiddenDigit(q1), question: "r1q1")
        h.advance(by: .milliseconds(200))
        let points = DigitTemplates.strokes(for: hiddenDigit(q1)).reduce(0) { $0 + $1.count }
        #expect(ann.all("guess").last?["points"]?.integer == points)
    }

    @Test func aRefusedSubmitIsAnsweredByTheRulesWithoutReadingTheDrawing() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        ann.identify("Ann")
        _ = ann.createRoom(mode: "normal")
        ann.submit("r1q0")
        #expect(ann.errorCode() == "race_not_running")
        ann.send([("type", .string("start"))])
        let q0 = ann.next("question")
        ann.draw(hiddenDigit(q0), question: "r1q0")
        h.advance(by: .milliseconds(200))
        let readings = h.recognizer.readings
        ann.submit("r1q3")
        #expect(ann.errorCode() == "unsent_question")
        ann.submit("r0q0")
        #expect(ann.errorCode() == "bad_message")
        #expect(h.recognizer.readings == readings)
        ann.submit("r1q0")
        #expect(ann.next("graded")?["confidence"]?.number.map { $0 > 0.5 } == true)
        // Graded from the last live guess's reading of this very drawing.
        #expect(h.recognizer.readings == readings)
        ann.submit("r1q0")
        #expect(ann.errorCode() == "stale_question")
    }

    @Test func aSubmitIsGradedFromTheLiveReadingOfTheSameDrawingAndReadAgainWhenItChanged() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        let q0 = ann.startSolo("Ann", mode: "time_attack")
        ann.draw(hiddenDigit(q0), question: "r1q0")
        h.advance(by: .milliseconds(200))
        let points = DigitTemplates.strokes(for: hiddenDigit(q0)).reduce(0) { $0 + $1.count }
        let guess = try #require(ann.all("guess").last)
        #expect(guess["points"]?.integer == points)
        let readings = h.recognizer.readings
        ann.submit("r1q0")
        let graded = ann.next("graded")
        #expect(graded?["correct"] == .bool(true))
        #expect(graded?["confidence"] == guess["confidence"])
        #expect(h.recognizer.readings == readings)

        // The next question: a stroke added after the live guess (within the
        // pacing interval, so no live reading of it), then submitted at once.
        let q1 = try #require(ann.next("question"))
        ann.draw(hiddenDigit(q1), question: "r1q1")
        h.advance(by: .milliseconds(200))
        #expect(ann.all("guess").last?["points"]?.integer == DigitTemplates.strokes(for: hiddenDigit(q1)).reduce(0) { $0 + $1.count })
        let stroke = DigitTemplates.strokes(for: hiddenDigit(q1)).count
        ann.send([("type", .string("points")), ("question", .string("r1q1")), ("stroke", .int(stroke)),
                  ("points", .array([.array([.int(1), .int(1)])]))])
        ann.send([("type", .string("points")), ("question", .string("r1q1")), ("stroke", .int(stroke)),
                  ("points", .array([.array([.int(2), .int(2)])]))])
        let before = h.recognizer.readings
        ann.submit("r1q1")
        #expect(ann.next("graded") != nil)
        #expect(h.recognizer.readings == before + 1)
    }

    @Test func timeAttackEndsAtItsInstantForEveryoneAndProgressIsCoalesced() throws {
        let h = try HubHarness()
        let ann = h.connect("ann"), bo = h.connect("bo")
        ann.identify("Ann")
        bo.identify("Bo")
        let code = try #require(ann.createRoom(mode: "time_attack"))
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        let q0 = ann.next("question")
        // Ten quick answers from Ann, 30 ms apart: progress goes out at most every 200 ms.
        var question = q0
        for i in 0..<10 {
            ann.draw(hiddenDigit(question), question: "r1q\(i)", perBatch: 100, every: .milliseconds(10))
            ann.submit("r1q\(i)")
            question = ann.next("question")
        }
        h.advance(by: .seconds(1))
        let progress = bo.log.filter { $0.message["type"] == .string("progress") }
        for (a, b) in zip(progress, progress.dropFirst()) { #expect(b.at - a.at >= .milliseconds(200)) }
        #expect(progress.last?.message["racers"]?.array?.first?["correct"]?.integer == 10)
        // The race ends 60 s after it started, to the millisecond, for both.
        let started = try #require(ann.log.first { $0.message["type"] == .string("race_started") }?.at)
        h.advance(by: .seconds(60))
        for client in [ann, bo] {
            let standings = try #require(client.log.first { $0.message["type"] == .string("standings") })
            #expect(standings.at == started + .seconds(60))
        }
        #expect(h.sink.records.withLock { $0.count } == 2)
    }

    @Test func theMessageRateIsLimitedOnTheServerClock() throws {
        var options = HubHarness.quickOptions
        options.messagesPerSecond = 10
        options.messageBurst = 5
        let h = try HubHarness(options: options)
        let ann = h.connect("ann")
        for _ in 0..<5 { ann.send([("type", .string("start"))]) }
        #expect(ann.all("error").count == 5)  // not_identified, but allowed
        h.advance(by: .milliseconds(100))
        ann.send([("type", .string("start"))])
        #expect(ann.closeCode == nil)
        ann.send([("type", .string("start"))])
        #expect(ann.all("error").map { $0["code"]?.string } == ["not_identified", "rate_limited"])
        #expect(ann.closeCode == 1008)
    }
}
