import Foundation
import MindPadRecognition
import MindPadTestSupport
import Testing

extension RealtimeLiveTests {
    /// Issue 43 over real sockets, through the real binary: a drawing the
    /// recognizer is unsure of but finds a few digits plausible in (found
    /// through the bundled recognizer, the server's own) has a live guess
    /// with `choices`; its submit is answered with `choice`, not graded and
    /// not refused; a pick not offered is `bad_choice` and the offer stays;
    /// the right pick is graded at the moment it arrived; the run's answers,
    /// the stored row and the replay (`GET /api/races/{race}`) keep what was
    /// offered and tapped.
    @Test func anUnsureDrawingIsOfferedAsAChoiceAndThePickIsTheAnswer() throws {
        let (db, server, port) = try Self.startServer()
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let account = try AnswersLiveTests.account(try ann.identify("Ann"))
        _ = try ann.createRoom(mode: "survival")
        try ann.send(["type": "start"])
        let race = try #require(try ann.next("race_started")["race"] as? String)
        let question = try ann.next("question")
        let digit = expectedDigit(question)
        let (strokes, choices) = try #require(try DigitTemplates.ambiguous(digit, recognizer: try Recognizer.bundled()))

        let guess = try ann.draw(strokes: strokes, question: "r1q0", batches: 2, waitForGuess: true)
        #expect(guess["choices"] as? [Int] == choices && guess["digit"] as? Int == choices[0] && guess["unsure"] == nil)
        try ann.send(["type": "submit", "question": "r1q0"])
        let offer = try ann.next(oneOf: ["choice", "graded", "error"])
        #expect(offer["type"] as? String == "choice")
        #expect(offer["options"] as? [Int] == choices && offer["question"] as? String == "r1q0")
        #expect(Set(offer.keys) == ["type", "question", "options"])

        let notOffered = try #require((0..<10).first { !choices.contains($0) })
        try ann.send(["type": "choose", "question": "r1q0", "answer": notOffered])
        let refused = try ann.error("bad_choice")
        #expect(refused["request"] as? String == "choose")
        try ann.send(["type": "choose", "question": "r1q7", "answer": digit])
        #expect(try ann.error("unsent_question")["request"] as? String == "choose")

        try ann.send(["type": "choose", "question": "r1q0", "answer": digit])
        let graded = try ann.next("graded")
        #expect(graded["correct"] as? Bool == true && graded["answer"] as? Int == digit && graded["expected"] as? Int == digit)
        #expect(graded["confidence"] is Double)

        // The next one typed wrong: the run ends, and its answers say how each came in.
        let next = try ann.next("question")
        try ann.send(["type": "submit", "question": "r1q1", "answer": (expectedDigit(next) + 1) % 10])
        let result = try #require(try ann.next("finished")["result"] as? [String: Any])
        let answers = try #require(result["answers"] as? [[String: Any]])
        let choice: [[String: Any]] = [["place": 0, "options": choices, "tapped": digit]]
        #expect(answers.count == 2)
        #expect(answers[0]["input"] as? String == "drawn" && answers[0]["answer"] as? Int == digit)
        #expect((answers[0]["choice"] as? NSArray)?.isEqual(to: choice) == true)
        #expect(answers[1]["choice"] == nil && answers[1]["input"] as? String == "keypad")
        _ = try ann.next("result_saved", timeout: .seconds(10))

        // Stored with the drawing as submitted, and in the replay.
        let stored = try AnswersLiveTests.storedRun(try db.connect(), account: account, game: "mindpad")
        #expect(stored.race == race)
        #expect(stored.answers.first?.strokes == AnswersLiveTests.stored(strokes))
        let storedChoice = try #require(stored.answers.first?.choice)
        #expect((try JSONSerialization.jsonObject(with: Data(storedChoice.utf8)) as? NSArray)?.isEqual(to: choice) == true)
        #expect(stored.answers.last?.choice == nil)
        let http = try RawHTTPConnection(port: port)
        try http.request("GET", "/api/races/\(race)")
        let replay = try http.readResponse().json()
        let replayed = try #require(((replay["racers"] as? [[String: Any]])?.first?["answers"] as? [[String: Any]]))
        #expect((replayed.first?["choice"] as? NSArray)?.isEqual(to: choice) == true)
        #expect(replayed.first?["answered_ms"] as? Int == answers[0]["answered_ms"] as? Int)
        #expect(replayed.last?["choice"] == nil)

        // The metrics count the offer and the pick.
        let metrics = try RawHTTPConnection(port: port)
        try metrics.request("GET", "/metrics")
        let text = try metrics.readResponse().text
        #expect(MetricsEndpointTests.sample(text, "mindpad_choices_offered_total") == 1)
        #expect(MetricsEndpointTests.sample(text, "mindpad_choices_taken_total") == 1)
    }
}
