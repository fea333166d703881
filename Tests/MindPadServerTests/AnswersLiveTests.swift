import Foundation
import MindPadRecognition
import MindPadStorage
import MindPadTestSupport
import Testing

/// Issue 19, "strokes are kept", through the real binary: every graded
/// answer of a run (written, typed, tapped) is in `finished.result.answers`
/// and in `result_answers` with its strokes as sent; races have unique ids
/// on the wire and in storage; answers survive a database that is away;
/// spectators see the leader's question.
@Suite struct AnswersLiveTests {
    /// The account id behind an `identified` message (`p<id>`).
    static func account(_ identified: RealtimeClient.Message) throws -> Int64 {
        try #require(Int64(String((identified["player_id"] as? String ?? "").dropFirst())))
    }

    /// The strokes as the client sent them, as storage keeps them.
    static func stored(_ strokes: [[StrokePoint]]) -> [[[Double]]] {
        strokes.map { $0.map { [$0.x, $0.y, $0.t] } }
    }

    /// The player's one stored result: its race id and answers.
    static func storedRun(_ sql: PostgresConnection, account: Int64, game: String) throws -> (race: String?, answers: [AnswerRecord]) {
        let rows = try sql.query("""
            SELECT result_id::text AS id, race_id FROM game_results WHERE player_id = \(account)::bigint AND game = \(game)
            """)
        try #require(rows.count == 1, "\(rows.rows)")
        return (rows.value("race_id"), try AnswerStore(sql).answers(ofResult: try #require(rows.value("id"))))
    }

    static func isRaceID(_ s: String?) -> Bool {
        guard let s else { return false }
        return s.count == 12 && s.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// The wire answers and the stored ones say the same of each answer.
    static func expectSame(_ wire: [[String: Any]], _ stored: [AnswerRecord]) {
        #expect(wire.count == stored.count)
        for (w, s) in zip(wire, stored) {
            #expect(w["seq"] as? Int == s.seq && w["question"] as? String == s.questionID && w["input"] as? String == s.input)
            #expect(w["correct"] as? Bool == s.correct && w["points"] as? Int == s.points)
            #expect(w["asked_ms"] as? Int == s.askedMs && w["answered_ms"] as? Int == s.answeredMs)
            #expect((w["confidence"] != nil) == (s.confidence != nil) && (s.input == "drawn") == (s.confidence != nil))
        }
    }

    /// Add-One in Survival: typed right, written right, typed wrong (the
    /// run ends); a kids' level: one written, the rest tapped. Each answer
    /// is on the wire and stored, the written ones with their strokes.
    @Test func writtenTypedAndTappedAnswersAreSentAndStoredWithTheirStrokes() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer()
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let account = try Self.account(try ann.identify("Ann"))

        try ann.send(["type": "create_room", "game": "addone", "mode": "survival"])
        _ = try ann.next("room")
        try ann.send(["type": "start"])
        let started = try ann.next("race_started")
        let race = started["race"] as? String
        #expect(Self.isRaceID(race))
        var prompts: [[String: Any]] = []
        var written: [[StrokePoint]] = []
        for index in 0..<3 {
            let question = try ann.next("question")
            let id = question["question"] as! String
            let prompt = try #require(question["prompt"] as? [String: Any])
            prompts.append(prompt)
            let right = DigitTemplates.addOne(prompt["digits"] as! String)
            switch index {
            case 1:
                written = DigitTemplates.strokes(forNumber: right)
                try ann.draw(strokes: written, question: id, batches: 2, waitForGuess: true)
                try ann.send(["type": "submit", "question": id])
            case 2:
                try ann.send(["type": "submit", "question": id, "answer": DigitTemplates.addOne(right)])
            default:
                try ann.send(["type": "submit", "question": id, "answer": right])
            }
            let graded = try ann.next("graded") { $0["question"] as? String == id }
            #expect(graded["correct"] as? Bool == (index < 2), "\(graded)")
        }
        let finished = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
        #expect(finished["race"] as? String == race)
        let answers = try #require(finished["answers"] as? [[String: Any]])
        #expect(answers.map { $0["input"] as? String } == ["keypad", "drawn", "keypad"])
        #expect(answers.map { $0["question"] as? String } == ["r1q0", "r1q1", "r1q2"])
        for (a, p) in zip(answers, prompts) { #expect((a["prompt"] as? NSDictionary)?.isEqual(to: p) == true) }
        #expect(answers[2]["expected"] as? String == DigitTemplates.addOne(prompts[2]["digits"] as! String))
        #expect(answers.allSatisfy { ($0["answered_ms"] as? Int ?? -1) >= ($0["asked_ms"] as? Int ?? 0) })
        #expect(answers[1]["asked_ms"] as? Int == answers[0]["answered_ms"] as? Int)
        let standings = try ann.next("standings")
        #expect(standings["race"] as? String == race)
        #expect((standings["entries"] as? [[String: Any]])?.allSatisfy { $0["race"] as? String == race && $0["answers"] == nil } == true)
        #expect(try ann.next("result_saved", timeout: .seconds(10))["stored"] as? String == "database")

        let sql = try db.connect()
        let addOne = try Self.storedRun(sql, account: account, game: "addone")
        #expect(addOne.race == race)
        Self.expectSame(answers, addOne.answers)
        #expect(addOne.answers.map { $0.strokes == nil } == [true, false, true])
        #expect(addOne.answers[1].strokes == Self.stored(written))

        // A kids' level: the first written, the rest tapped, two wrong.
        try ann.send(["type": "leave_room"])
        _ = try ann.next("left_room")
        try ann.send(["type": "create_room", "game": "kids_counting", "mode": "normal", "level": 1])
        _ = try ann.next("room")
        try ann.send(["type": "start"])
        let kidsRace = try ann.next("race_started")["race"] as? String
        #expect(Self.isRaceID(kidsRace) && kidsRace != race)
        var drawn: [[StrokePoint]] = []
        for index in 0..<10 {
            let (id, _, right, values) = try KidsLiveTests.countingQuestion(try ann.next("question"))
            if index == 0 {
                drawn = DigitTemplates.strokes(for: right)
                try ann.draw(strokes: drawn, question: id, batches: 3, waitForGuess: true)
                try ann.send(["type": "submit", "question": id])
            } else {
                let tap = index % 4 == 3 ? values.first { $0 != String(right) }! : String(right)
                try ann.send(["type": "submit", "question": id, "answer": tap])
            }
            _ = try ann.next("graded") { $0["question"] as? String == id }
        }
        let kids = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
        let kidsAnswers = try #require(kids["answers"] as? [[String: Any]])
        #expect(kidsAnswers.map { $0["input"] as? String } == ["drawn"] + Array(repeating: "tap", count: 9))
        #expect(kidsAnswers.map { $0["correct"] as? Bool } == (0..<10).map { $0 % 4 != 3 })
        _ = try ann.next("result_saved", timeout: .seconds(10))
        let stored = try Self.storedRun(sql, account: account, game: "kids_counting")
        #expect(stored.race == kidsRace)
        Self.expectSame(kidsAnswers, stored.answers)
        #expect(stored.answers[0].strokes == Self.stored(drawn) && stored.answers.dropFirst().allSatisfy { $0.strokes == nil })
    }

    /// A rematch is a new race with a new id; both rounds' results keep
    /// their own, and each round's answers are that round's only.
    @Test func everyRoundIsARaceOfItsOwn() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer()
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let account = try Self.account(try ann.identify("Ann"))
        _ = try ann.createRoom(mode: "survival")
        var races: [String?] = []
        for round in 1...2 {
            try ann.send(["type": round == 1 ? "start" : "rematch"])
            if round == 2 { try ann.send(["type": "start"]) }
            races.append(try ann.next("race_started")["race"] as? String)
            // Right once, then wrong: two answers.
            for right in [true, false] {
                let q = try ann.next("question")
                let digit = right ? expectedDigit(q) : (expectedDigit(q) + 5) % 10
                _ = try ann.answer(digit, question: q["question"] as! String)
            }
            let result = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
            #expect(result["race"] as? String == races.last!)
            #expect((result["answers"] as? [[String: Any]])?.map { $0["question"] as? String } == ["r\(round)q0", "r\(round)q1"])
            _ = try ann.next("result_saved", timeout: .seconds(10))
        }
        #expect(races.allSatisfy(Self.isRaceID) && races[0] != races[1])
        let rows = try db.connect().query("""
            SELECT race_id, (SELECT count(*) FROM result_answers a WHERE a.result_id = r.result_id) AS n
            FROM game_results r WHERE player_id = \(account)::bigint ORDER BY finished_at
            """)
        #expect(rows.rows == [[races[0]!, "2"], [races[1]!, "2"]])
    }

    /// PostgreSQL stops during a race: the run ends on the journal, and
    /// once the database is back its answers, strokes included, are in
    /// `result_answers`, once.
    @Test func answersSurviveADatabaseThatIsAway() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let (server, port) = try ServerProcess.serve(databaseURL: cluster.url,
                                                     environment: ["MINDPAD_COUNTDOWN_SECONDS": "0.2"])
        defer { _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        let account = try Self.account(try ann.identify("Ann"))
        _ = try ann.createRoom(mode: "survival")
        try ann.send(["type": "start"])
        let race = try ann.next("race_started")["race"] as? String
        let first = try ann.next("question")
        try cluster.stop()

        // Right once, then wrong: Survival's run ends while the database is away.
        var drawn: [[[[Double]]]] = []
        var question = first
        for right in [true, false] {
            if !right { question = try ann.next("question", timeout: .seconds(10)) }
            let digit = right ? expectedDigit(question) : (expectedDigit(question) + 5) % 10
            drawn.append(Self.stored(DigitTemplates.strokes(for: digit)))
            let graded = try ann.answer(digit, question: question["question"] as! String)
            #expect(graded["correct"] as? Bool == right)
        }
        let result = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
        #expect((result["answers"] as? [[String: Any]])?.count == 2)
        #expect(try ann.next("result_saved", timeout: .seconds(10))["stored"] as? String == "journal")

        try cluster.start()
        let sql = try PostgresConnection(connectionString: cluster.url)
        let landed = DatabaseHangTests.poll(.seconds(45)) {
            (try? sql.query("SELECT count(*) AS n FROM result_answers").value("n")) == "2"
        }
        #expect(landed, "\(server.output)")
        let stored = try Self.storedRun(sql, account: account, game: "mindpad")
        #expect(stored.race == race)
        #expect(stored.answers.map(\.strokes) == drawn.map(Optional.some))
        #expect(stored.answers.map(\.correct) == [true, false] && stored.answers.allSatisfy { $0.input == "drawn" })
    }

    /// Spectators get the leading racer's question when it changes and
    /// when they join a running race; racers never do.
    @Test func spectatorsSeeTheLeadersQuestionAndRacersDoNot() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer(timeAttackSeconds: "20")
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        try ann.identify("Ann")
        let bo = try RealtimeClient(port: port, label: "bo")
        try bo.identify("Bo")
        let code = try ann.createRoom(mode: "time_attack", maxPlayers: 1)
        let room = try bo.join(code)
        #expect(((room["room"] as? [String: Any])?["members"] as? [[String: Any]])?.last?["role"] as? String == "spectator")
        #expect(room["race"] == nil)   // the lobby has no race yet
        try ann.send(["type": "start"])
        let race = try ann.next("race_started")["race"] as? String
        let q0 = try ann.next("question")
        let seen = try bo.next("spectating")
        #expect(seen["round"] as? Int == 1 && seen["question_index"] as? Int == 0 && seen["racer"] as? String == "p1")
        #expect((seen["prompt"] as? NSDictionary)?.isEqual(to: q0["prompt"] as! [String: Any]) == true)

        _ = try ann.answer(expectedDigit(q0), question: q0["question"] as! String)
        let q1 = try ann.next("question")
        let next = try bo.next("spectating")
        #expect(next["question_index"] as? Int == 1)
        #expect((next["prompt"] as? NSDictionary)?.isEqual(to: q1["prompt"] as! [String: Any]) == true)

        let cy = try RealtimeClient(port: port, label: "cy")
        try cy.identify("Cy")
        // Joining a running race: `room` (naming the race), then the question at once.
        #expect(try cy.join(code)["race"] as? String == race && Self.isRaceID(race))
        let joined = try cy.next("spectating")
        #expect(joined["question_index"] as? Int == 1 && joined["racer"] as? String == "p1")

        _ = try ann.answer((expectedDigit(q1) + 5) % 10, question: q1["question"] as! String)
        #expect(try bo.next("spectating")["question_index"] as? Int == 2)
        #expect(try cy.next("spectating")["question_index"] as? Int == 2)
        ann.pump(for: .milliseconds(300))
        #expect(!ann.log.contains { $0.message["type"] as? String == "spectating" })
    }
}

/// How many bytes a 150 s Time Attack race's answers take in PostgreSQL
/// (docs/architecture.md, "Answers and strokes"): a real race on the real
/// binary, one racer writing a digit from the templates every 2.5 s (a fast
/// racer: 60 answers), then `pg_column_size` of the stored rows and
/// `pg_total_relation_size` of the table. Takes 150 s, so it runs only when
/// asked: `MINDPAD_MEASURE_ANSWER_SIZE=1 swift test --filter AnswerSizeMeasurement`.
@Suite struct AnswerSizeMeasurement {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MINDPAD_MEASURE_ANSWER_SIZE"] != nil))
    func aTimeAttackRacesAnswersInPostgreSQL() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer(timeAttackSeconds: "150")
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        try ann.identify("Ann")
        _ = try ann.createRoom(mode: "time_attack")
        try ann.send(["type": "start"])
        _ = try ann.next("race_started")
        var answered = 0
        var points = 0
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(147) {
            let q = try ann.next("question", timeout: .seconds(10))
            let strokes = DigitTemplates.strokes(for: expectedDigit(q))
            points += strokes.reduce(0) { $0 + $1.count }
            _ = try ann.answer(expectedDigit(q), question: q["question"] as! String)
            answered += 1
            // The next answer at the next 2.5 s mark from the start.
            let next = started + .milliseconds(2500) * answered
            if next > ContinuousClock.now { ann.pump(for: next - ContinuousClock.now) }
        }
        let result = try #require(try ann.next("finished", timeout: .seconds(10))["result"] as? [String: Any])
        #expect((result["answers"] as? [Any])?.count == answered)
        _ = try ann.next("result_saved", timeout: .seconds(10))
        let sql = try db.connect()
        try sql.execute(script: "VACUUM ANALYZE result_answers")
        let size = try sql.query("""
            SELECT count(*) AS answers, sum(pg_column_size(a.*)) AS row_bytes, sum(pg_column_size(strokes)) AS stroke_bytes,
                   sum(pg_column_size(prompt) + pg_column_size(answer) + coalesce(pg_column_size(expected), 0)) AS json_bytes,
                   pg_total_relation_size('result_answers') AS table_bytes, pg_relation_size('result_answers') AS heap_bytes,
                   pg_indexes_size('result_answers') AS index_bytes,
                   coalesce(pg_total_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'result_answers')), 0) AS toast_bytes
            FROM result_answers a
            """)
        #expect(size.value("answers") == String(answered))
        print("AnswerSizeMeasurement: \(answered) answers, \(points) stroke points; \(size.rows) "
              + "(answers, row_bytes, stroke_bytes, json_bytes, table_bytes, heap_bytes, index_bytes, toast_bytes)")
    }
}
