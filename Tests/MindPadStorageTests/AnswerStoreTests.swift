import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// A result's answers (migration 0010): stored in the result's batch
/// statement with their strokes, bounded per result, carried by the
/// journal (old lines without them still read), deleted by age.
@Suite struct AnswerStoreTests {
    /// A drawing of `strokes` strokes of `points` points each, with
    /// fractional coordinates and times as a client sends them.
    static func drawing(strokes: Int = 2, points: Int = 5, offset: Double = 0) -> [[[Double]]] {
        (0..<strokes).map { (s: Int) -> [[Double]] in
            (0..<points).map { (p: Int) -> [Double] in
                let x: Double = offset + Double(s * 40 + p) + 0.25
                let y: Double = 100.5 - Double(p) * 0.1
                let t: Double = Double(s * 500 + p * 16) + 0.5
                return [x, y, t]
            }
        }
    }

    static func answers() -> [AnswerRecord] {
        [
            AnswerRecord(seq: 0, questionID: "r1q0", prompt: #"{"text":"4 × 2 = ?","lhs":4,"rhs":2}"#, answer: "8", expected: "8",
                         correct: true, points: 28, input: "drawn", confidence: 0.995, askedMs: 0, answeredMs: 2480,
                         strokes: drawing()),
            AnswerRecord(seq: 1, questionID: "r1q1", prompt: #"{"digits":"97"}"#, answer: #""08""#, expected: #""08""#,
                         correct: true, points: 1, input: "keypad", confidence: nil, askedMs: 2480, answeredMs: 4100, strokes: nil),
            // A retry: the answer stays unsaid.
            AnswerRecord(seq: 2, questionID: "r1q2", prompt: #"{"guess":{"cells":20,"tries":0}}"#,
                         answer: #"{"guess":{"rows":5,"columns":4}}"#, expected: nil, correct: false, points: 0, input: "tap",
                         confidence: nil, askedMs: 4100, answeredMs: 4100, strokes: nil),
        ]
    }

    /// JSON text compared by value (PostgreSQL prints `jsonb` its own way).
    static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        let parse = { (s: String) in try? JSONSerialization.jsonObject(with: Data(s.utf8), options: .fragmentsAllowed) as? NSObject }
        return parse(a).map { $0.isEqual(parse(b)) } ?? false
    }

    static func expectSame(_ read: [AnswerRecord], _ wanted: [AnswerRecord]) {
        #expect(read.count == wanted.count)
        for (r, w) in zip(read, wanted) {
            #expect(same(r.prompt, w.prompt) && same(r.answer, w.answer) && same(r.expected, w.expected), "#\(w.seq)")
            #expect(same(r.choice, w.choice), "#\(w.seq)")
            var r2 = r, w2 = w
            (r2.prompt, r2.answer, r2.expected, w2.prompt, w2.answer, w2.expected) = ("", "", nil, "", "", nil)
            (r2.choice, w2.choice) = (nil, nil)
            // `real` keeps about 7 digits.
            #expect(abs((r.confidence ?? -1) - (w.confidence ?? -1)) < 1e-6, "#\(w.seq)")
            (r2.confidence, w2.confidence) = (nil, nil)
            #expect(r2 == w2, "#\(w.seq)")
        }
    }

    @Test func answersAndStrokesRoundTripInTheResultsStatementOnce() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann"), bo = try store.player("Bo")
        var mine = result(ann, score: 57)
        mine.answers = Self.answers()
        var theirs = result(bo, score: 10, at: wednesdayNoonMs + 5)
        theirs.answers = [Self.answers()[1]]
        let plain = result(bo, score: 20, at: wednesdayNoonMs + 9)
        // One batch, one of them twice: each result's answers land once.
        let outcomes = try store.record([mine, theirs, plain, mine])
        #expect(outcomes.map(\.stored) == [true, true, true, false])
        let answers = AnswerStore(store.connection)
        Self.expectSame(try answers.answers(ofResult: mine.resultID), mine.answers)
        Self.expectSame(try answers.answers(ofResult: theirs.resultID), theirs.answers)
        #expect(try answers.answers(ofResult: plain.resultID).isEmpty)
        // Written again (a replay): nothing changes.
        #expect(try store.record(mine).stored == false)
        let rows = try store.connection.query("""
            SELECT count(*) AS n, count(strokes) AS drawn, bool_and(finished_at = to_timestamp(\(wednesdayNoonMs)::bigint / 1000.0)
                   OR result_id <> \(mine.resultID)::uuid) AS at FROM result_answers
            """)
        #expect(rows.value("n") == "4" && rows.value("drawn") == "1" && rows.value("at") == "t")
    }

    /// At most 200 answers; a drawing that would take the run past 20,000
    /// points is kept without its strokes (NULL), the answer itself kept.
    @Test func theBoundsKeepTheAnswersAndDropStrokesPastThePointBound() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let big = Self.drawing(strokes: 4, points: 2_000)       // 8,000 points
        let small = Self.drawing(strokes: 1, points: 50)
        var r = result(ann, score: 1)
        r.answers = AnswerRecord.bounded((0..<205).map { i in
            AnswerRecord(seq: i, questionID: "r1q\(i)", prompt: "{}", answer: "\(i % 10)", expected: "1", correct: i % 10 == 1,
                         points: i % 10 == 1 ? 1 : 0, input: "drawn", confidence: 0.5, askedMs: i * 100, answeredMs: i * 100 + 50,
                         strokes: i < 3 ? big : small)
        })
        #expect(r.answers.count == AnswerRecord.maxPerResult)
        #expect(try store.record(r).stored)
        let read = try AnswerStore(store.connection).answers(ofResult: r.resultID)
        #expect(read.count == 200 && read.map(\.seq) == Array(0..<200))
        // 8,000 + 8,000 fit; the third big one would pass 20,000: NULL.
        #expect(read[0].strokes == big && read[1].strokes == big && read[2].strokes == nil)
        // Small ones after it fit while the total stays within the bound.
        let kept = read.dropFirst(3).filter { $0.strokes != nil }.count
        #expect(kept == (20_000 - 16_000) / 50 && read.last?.strokes == nil)
        #expect(read.reduce(0) { $0 + $1.pointCount } <= AnswerRecord.maxPointsPerResult)
    }

    /// Issue 43: an answer picked among the readings offered keeps what was
    /// offered and tapped (migration 0014's `choice`), through the results
    /// statement, the journal, the answers read back and the replay's read;
    /// only a drawn answer may have one.
    @Test func aTappedChoiceIsKeptWithItsAnswer() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        let choice = #"[{"place":0,"options":[1,7],"tapped":7}]"#
        var mine = result(ann, score: 57)
        mine.raceID = "c7h0icetest1"
        mine.answers = Self.answers()
        mine.answers[0].answer = "7"
        mine.answers[0].choice = choice
        let number = AnswerRecord(seq: 3, questionID: "r1q3", prompt: #"{"digits":"2639"}"#, answer: #""3740""#, expected: #""3740""#,
                                  correct: true, points: 1, input: "drawn", confidence: 0.55, askedMs: 4100, answeredMs: 6000,
                                  strokes: Self.drawing(strokes: 4), choice: #"[{"place":1,"options":[1,7],"tapped":7},{"place":3,"options":[6,0],"tapped":0}]"#)
        mine.answers.append(number)
        #expect(try store.record(mine).stored)
        let read = try AnswerStore(store.connection).answers(ofResult: mine.resultID)
        Self.expectSame(read, mine.answers)
        #expect(read.map { $0.choice != nil } == [true, false, false, true])
        let runs = try RaceStore(store.connection).race("c7h0icetest1")
        #expect(Self.same(runs.first?.answers.first?.choice, choice) && runs.first?.answers[1].choice == nil)
        #expect(Self.same(runs.first?.answers.last?.choice, number.choice))
        // The table takes a choice only for a drawn answer, as an array of 1 to 8 places.
        for (input, value) in [("keypad", choice), ("drawn", #"{"place":0}"#), ("drawn", "[]")] {
            #expect(throws: PostgresError.self, "\(input) \(value)") {
                try store.connection.query("""
                    UPDATE result_answers SET input = \(input), choice = \(value)::jsonb
                    WHERE result_id = \(mine.resultID)::uuid AND seq = 0
                    """)
            }
        }
        // The journal carries it.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("choice-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        try journal.append([mine])
        #expect(try ResultJournal(directory: dir).pending().first?.answers.map(\.choice) == mine.answers.map(\.choice))
    }

    /// Journal lines carry answers with strokes; a line written before
    /// answers were kept still reads, with none.
    @Test func theJournalCarriesAnswersAndOldLinesStillRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("answers-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        var r = GameResultRecord(resultID: "00000000-0000-4000-8000-000000000001", playerID: 1, mode: "normal",
                                 score: 29, correct: 2, answered: 3, durationMs: 4100, raceID: "k3v9q2m7x1cd", finishedAtMs: 2000)
        r.answers = Self.answers()
        try journal.append([r])
        let old = #"{"resultID":"00000000-0000-4000-8000-000000000002","playerID":1,"mode":"normal","score":5,"correct":1,"answered":1,"durationMs":10,"finishedAtMs":1000}"#
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data((old + "\n").utf8))
        try handle.close()
        let pending = try ResultJournal(directory: dir).pending()
        #expect(pending.count == 2)
        #expect(pending.first?.answers == [] && pending.first?.resultID.hasSuffix("2") == true)
        #expect(pending.last == r)
        #expect(pending.last?.answers[0].strokes == Self.drawing())
    }

    /// The cleanup deletes the answers of results finished before the
    /// cutoff, in batches, and nothing else: newer answers and every result stay.
    @Test func retentionDeletesOnlyOldAnswers() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let ann = try store.player("Ann")
        var old = result(ann, score: 1, at: wednesdayNoonMs - 40 * dayMs)
        old.answers = Self.answers()
        var older = result(ann, score: 2, at: wednesdayNoonMs - 400 * dayMs)
        older.answers = Self.answers()
        var recent = result(ann, score: 3, at: wednesdayNoonMs - 29 * dayMs)
        recent.answers = Self.answers()
        _ = try store.record([old, older, recent])
        let cutoff = Date(timeIntervalSince1970: Double(wednesdayNoonMs - 30 * dayMs) / 1000)
        let answers = AnswerStore(store.connection)
        // Batches of 2: six rows go in four statements.
        #expect(try answers.deleteAnswers(finishedBefore: cutoff, batch: 2) == 6)
        #expect(try answers.answers(ofResult: old.resultID).isEmpty && answers.answers(ofResult: older.resultID).isEmpty)
        Self.expectSame(try answers.answers(ofResult: recent.resultID), recent.answers)
        #expect(try store.connection.query("SELECT count(*) AS n FROM game_results").value("n") == "3")
        #expect(try answers.deleteAnswers(finishedBefore: cutoff) == 0)
    }
}

/// What answers add to the results' batch statement: 100 results of a fast
/// Time Attack race each (60 written answers, 50 points a drawing, as
/// measured in docs/architecture.md) against the same results without
/// answers, alternately, 5 batches each; prints the medians. Runs only when
/// asked: `MINDPAD_MEASURE_ANSWER_SIZE=1 swift test --filter AnswerBatchMeasurement`.
@Suite(.serialized) struct AnswerBatchMeasurement {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MINDPAD_MEASURE_ANSWER_SIZE"] != nil))
    func aBatchWithAnswersAgainstOneWithout() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let store = ScoreStore(try db.connect())
        let players = try (0..<100).map { try store.player("Racer\($0)") }
        let drawing = AnswerStoreTests.drawing(strokes: 2, points: 25)
        func batch(answers: Bool, round: Int) -> [GameResultRecord] {
            players.map { p in
                var r = result(p, "time_attack", score: 60, at: wednesdayNoonMs + Int64(round) * 1000)
                if answers {
                    r.answers = (0..<60).map { i in
                        AnswerRecord(seq: i, questionID: "r1q\(i)", prompt: #"{"text":"4 × 2 = ?","lhs":4,"operation":"*","rhs":2,"masked_result":"?","hidden_position":0,"difficulty":1}"#,
                                     answer: "8", expected: "8", correct: true, points: 1, input: "drawn", confidence: 0.99,
                                     askedMs: i * 2500, answeredMs: i * 2500 + 2000, strokes: drawing)
                    }
                }
                return r
            }
        }
        var times: [Bool: [Duration]] = [true: [], false: []]
        var encoding: [Duration] = []
        for round in 0..<10 {
            let withAnswers = round % 2 == 0
            let rows = batch(answers: withAnswers, round: round)
            // About what the statement's parameter costs to write (the
            // same records as journal lines), apart from the statement.
            let encodeStarted = ContinuousClock.now
            _ = try JSONEncoder().encode(rows)
            if withAnswers { encoding.append(ContinuousClock.now - encodeStarted) }
            let started = ContinuousClock.now
            #expect(try store.record(rows).allSatisfy(\.stored))
            times[withAnswers]!.append(ContinuousClock.now - started)
        }
        let median = { (d: [Duration]) in d.sorted()[d.count / 2] }
        #expect(try store.connection.query("SELECT count(*) AS n FROM result_answers").value("n") == "30000")
        print("AnswerBatchMeasurement: 100 results, median of 5 batches: with 60 answers each \(median(times[true]!)) "
              + "(encoding them as journal lines alone: \(median(encoding))), without \(median(times[false]!))")
    }
}
