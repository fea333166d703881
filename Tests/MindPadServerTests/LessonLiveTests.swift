import Foundation
import MindPadTestSupport
import Testing

/// A lesson (issue 46) through the real server and PostgreSQL over real
/// sockets: a teacher's projector opens the class's lesson, its pupils
/// join, the teacher locks, starts, pauses, kicks, comes back on another
/// connection and ends it, seeing every pad live.
/// A JSON request body.
private func jsonBody(_ fields: [String: Any]) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
}

/// A teacher signed up through the real API; their token.
private func signUpTeacher(_ http: LiveHTTPServerPort, _ name: String) throws -> String {
    let r = try http.call("POST", "/api/teachers", body: jsonBody(["name": name, "password": "a good passphrase"]))
    guard r.status == 201, let token = try r.json()["token"] as? String else {
        throw LiveHTTPError(description: "sign up \(name): \(r.status) \(r.text)")
    }
    return token
}

/// The teacher's class 3B with `names` on its list: its id and code.
private func classWithList(_ http: LiveHTTPServerPort, teacher: String, names: [String]) throws -> (id: String, code: String) {
    let made = try http.call("POST", "/api/classes", token: teacher, body: jsonBody(["name": "3B"])).json()
    guard let id = made["id"] as? String, let code = made["join_code"] as? String else {
        throw LiveHTTPError(description: "no class made: \(made)")
    }
    let listed = try http.call("POST", "/api/classes/\(id)/pupils", token: teacher, body: jsonBody(["names": names]))
    guard listed.status == 200 else { throw LiveHTTPError(description: "list refused: \(listed.status) \(listed.text)") }
    return (id, code)
}

@Suite(.serialized) struct LessonLiveTests {

    private static func room(_ m: RealtimeClient.Message) -> [String: Any] { m["room"] as? [String: Any] ?? [:] }

    @Test func aTeacherConductsALessonAndSeesEveryPad() throws {
        let live = try LiveHTTPServer(environment: ["MINDPAD_COUNTDOWN_SECONDS": "0", "MINDPAD_PASSWORD_ITERATIONS": "1000"])
        defer { live.stop() }
        let http = LiveHTTPServerPort(port: live.port)
        let teacher = try signUpTeacher(http, "Ms Rao"), other = try signUpTeacher(http, "Mr Lee")
        let (classID, classCode) = try classWithList(http, teacher: teacher, names: ["Ann", "Bo"])
        let annToken = try live.register("Annie"), boToken = try live.register("Bobby"), eveToken = try live.register("Eve")
        for (player, token, name) in [("Annie", annToken, "Ann"), ("Bobby", boToken, "Bo")] {
            #expect(try http.call("POST", "/api/players/\(player)/classes", token: token,
                                  body: jsonBody(["code": classCode, "name": name])).status == 200)
        }
        let host: RealtimeClient.Message = ["type": "host_lesson", "token": teacher, "class": classID, "game": "mindpad", "mode": "normal"]

        // Only the class's own teacher opens its lesson, and never on a player's connection.
        let stranger = try RealtimeClient(port: live.port, label: "stranger")
        var theirs = host
        theirs["token"] = other
        try stranger.send(theirs)
        #expect(try stranger.error("class_not_found")["request"] as? String == "host_lesson")
        try stranger.send(["type": "lesson", "action": "start"])
        _ = try stranger.error("not_conducting")
        let ann = try RealtimeClient(port: live.port, label: "Annie")
        try ann.identify("Annie", token: annToken)
        try ann.send(host)
        _ = try ann.error("already_identified")

        let projector = try RealtimeClient(port: live.port, label: "projector")
        try projector.send(host)
        let lesson = try projector.next("lesson")
        let code = try #require(lesson["room"] as? String)
        #expect(lesson["class_name"] as? String == "3B" && lesson["locked"] as? Bool == false)
        let picture = try projector.next("room")
        // The projector is never a player.
        try projector.send(["type": "identify", "name": "Sneaky"])
        _ = try projector.error("already_identified")
        #expect(picture["you"] is NSNull && Self.room(picture)["lesson"] as? String == "3B" && Self.room(picture)["host"] is NSNull)

        // The class's pupils find the lesson without its code.
        let lessonNow = { () -> Any? in
            (try? http.call("GET", "/api/players/Annie/classes", token: annToken).json()["classes"] as? [[String: Any]])?.first?["lesson"]
        }
        #expect(DatabaseHangTests.poll(.seconds(5)) { lessonNow() as? String == code })
        // Pupils of the class join and see that it is a lesson; nobody else does.
        let joined = try ann.join(code)
        #expect(Self.room(joined)["lesson"] as? String == "3B")
        let annID = try #require(joined["you"] as? String)
        _ = try projector.next("room_updated")
        let eve = try RealtimeClient(port: live.port, label: "Eve")
        try eve.identify("Eve", token: eveToken)
        try eve.send(["type": "join_room", "code": code])
        _ = try eve.error("not_in_class")
        // Locked: a newcomer waits outside until the teacher opens it again.
        try projector.send(["type": "lesson", "action": "lock"])
        #expect(try projector.next("lesson")["locked"] as? Bool == true)
        let bo = try RealtimeClient(port: live.port, label: "Bobby")
        try bo.identify("Bobby", token: boToken)
        try bo.send(["type": "join_room", "code": code])
        _ = try bo.error("lesson_locked")
        try projector.send(["type": "lesson", "action": "unlock"])
        _ = try projector.next("lesson") { $0["locked"] as? Bool == false }
        try bo.join(code)

        // A pupil cannot start it; the teacher starts whoever is in.
        try ann.send(["type": "start"])
        _ = try ann.error("not_host")
        try projector.send(["type": "lesson", "action": "start"])
        _ = try projector.next("race_started")
        let annQuestion = try ann.next("question"), boQuestion = try bo.next("question")
        let asked = try projector.next("pad_question") { $0["player"] as? String == annID }
        #expect(asked["question"] as? String == annQuestion["question"] as? String)
        #expect((asked["prompt"] as? [String: Any])?["lhs"] as? Int == (annQuestion["prompt"] as? [String: Any])?["lhs"] as? Int)

        // Ann's pad, live on the wall: her strokes, what the reader reads, the grade.
        let question = try #require(annQuestion["question"] as? String)
        let digit = expectedDigit(annQuestion)
        let guess = try ann.draw(digit, question: question)
        let read = try projector.next("pad_guess") { $0["player"] as? String == annID && $0["question"] as? String == question }
        #expect(read["read"] is String && (read["confidence"] as? Double ?? -1) >= 0)
        try ann.send(["type": "submit", "question": question])
        #expect(try ann.next("graded")["correct"] as? Bool == true)
        let graded = try projector.next("pad_graded") { $0["player"] as? String == annID }
        #expect(graded["correct"] as? Bool == true && graded["answer"] as? Int == digit && graded["question"] as? String == question)
        // Her next answer is wrong: read as she wrote it, the sum is what went wrong.
        let second = try ann.next("question")
        let secondID = try #require(second["question"] as? String)
        let wrongDigit = (expectedDigit(second) + 1) % 10
        try ann.draw(wrongDigit, question: secondID)
        try ann.send(["type": "submit", "question": secondID])
        let wrongGrade = try ann.next("graded") { $0["question"] as? String == secondID }
        #expect(wrongGrade["correct"] as? Bool == false)
        let wrongConfidence = try #require(wrongGrade["confidence"] as? Double)
        // Every batch she sent reached the wall before the grade, stroke by stroke.
        let pads = projector.drain("pad_points").filter { $0["player"] as? String == annID && $0["question"] as? String == question }
        let strokes = DigitTemplates.strokes(for: digit)
        #expect(pads.reduce(0) { $0 + (($1["points"] as? [Any])?.count ?? 0) } == guess["points"] as? Int)
        #expect(Set(pads.compactMap { $0["stroke"] as? Int }) == Set(strokes.indices))

        // Paused: answers wait; resumed: the race goes on.
        try projector.send(["type": "lesson", "action": "pause"])
        _ = try bo.next("room_updated") { Self.room($0)["paused"] as? Bool == true }
        let boQ = try #require(boQuestion["question"] as? String)
        try bo.draw(expectedDigit(boQuestion), question: boQ)
        try bo.send(["type": "submit", "question": boQ])
        _ = try bo.error("paused")
        try projector.send(["type": "lesson", "action": "resume"])
        _ = try bo.next("room_updated") { Self.room($0)["paused"] == nil }

        // The projector reloads: a new connection takes the lesson back, with every pad's question.
        projector.dropConnection()
        let again = try RealtimeClient(port: live.port, label: "projector again")
        try again.send(host)
        #expect(try again.next("lesson")["room"] as? String == code)
        #expect(Self.room(try again.next("room"))["phase"] as? String == "running")
        let questions = [try again.next("pad_question"), try again.next("pad_question")]
        #expect(Set(questions.compactMap { $0["player"] as? String }).count == 2)

        // Kicked: Bobby's run so far is kept, he is out and cannot come back.
        let boID = try #require(questions.compactMap { $0["player"] as? String }.first { $0 != annID })
        try again.send(["type": "lesson", "action": "kick", "player": boID])
        _ = try bo.error("kicked")
        _ = try bo.next("finished")
        _ = try bo.next("left_room")
        #expect(try again.next("lesson")["kicked"] as? [String] == ["Bobby"])
        try bo.send(["type": "join_room", "code": code])
        _ = try bo.error("kicked")

        // The end: Ann is told, her run stored; the class keeps the race for its reports.
        try again.send(["type": "lesson", "action": "end"])
        _ = try ann.error("lesson_ended")
        _ = try ann.next("left_room")
        #expect(try again.next("lesson_ended")["room"] as? String == code)
        // Said once: the answer to its next message comes after anything else it was sent.
        try again.send(["type": "lesson", "action": "start"])
        _ = try again.error("not_conducting")
        #expect(again.drain("lesson_ended").isEmpty)
        try ann.send(["type": "join_room", "code": code])
        _ = try ann.error("room_not_found")
        #expect(DatabaseHangTests.poll(.seconds(5)) { lessonNow() is NSNull })
        let db = try live.db.connect()
        #expect(try db.query("SELECT count(*) AS n FROM class_races WHERE class_id = \(classID)::uuid").value("n") == "1")
        let stored = try db.query("""
            SELECT count(*) AS n FROM game_results r JOIN class_races c ON c.race_id = r.race_id WHERE c.class_id = \(classID)::uuid
            """)
        #expect(stored.value("n") == "2")

        // The class's report: Ann's two answers, the wrong one classified; the same as CSV; hers alone with strokes.
        let report = try http.call("GET", "/api/classes/\(classID)/report", token: teacher)
        #expect(report.status == 200)
        let body = try report.json()
        #expect(body["class"] as? String == "3B")
        let lines = try #require(body["pupils"] as? [[String: Any]])
        #expect(lines.map { $0["name"] as? String } == ["Ann"])
        #expect(lines.first?["answers"] as? Int == 2 && lines.first?["right"] as? Int == 1 && lines.first?["wrong"] as? Int == 1)
        let answers = try #require(body["answers"] as? [[String: Any]])
        #expect(answers.map { $0["question"] as? String } == [question, secondID])
        #expect(answers.allSatisfy { $0["strokes"] == nil && $0["race"] as? String != nil && $0["player"] as? String == "Annie" })
        #expect(answers[0]["wrong_kind"] is NSNull)
        #expect(answers[1]["wrong_kind"] as? String == (wrongConfidence < 0.8 ? "unclear" : "arithmetic"))
        #expect(answers[1]["answer"] as? Int == wrongDigit)
        let csv = try http.call("GET", "/api/classes/\(classID)/report.csv", token: teacher)
        #expect(csv.status == 200 && csv.header("content-type")?.hasPrefix("text/csv") == true)
        #expect(csv.header("content-disposition")?.hasPrefix("attachment") == true)
        let csvLines = csv.text.split(separator: "\r\n")
        #expect(csvLines.count == 3 && csvLines[0].hasPrefix("pupil,player,finished_at") && csvLines[1].hasPrefix("Ann,Annie,"))
        let hers = try http.call("GET", "/api/classes/\(classID)/pupils/ann/answers", token: teacher).json()
        #expect((hers["answers"] as? [[String: Any]])?.allSatisfy { ($0["strokes"] as? [Any])?.isEmpty == false } == true)
        #expect(try http.call("GET", "/api/classes/\(classID)/pupils/Zed/answers", token: teacher).status == 404)
        // Kept off the public boards: the class did not allow them.
        // (A result for the boards waits in pending_boards in the statement that stores it, or is on them.)
        #expect(try db.query("""
            SELECT (SELECT count(*) FROM highscores h JOIN players p ON p.id = h.player_id WHERE p.name = 'Annie')
                 + (SELECT count(*) FROM pending_boards b JOIN players p ON p.id = b.player_id WHERE p.name = 'Annie') AS n
            """).value("n") == "0")
        // The teacher keeps the class's strokes one day: older ones go at once, the answers stay.
        for (body, code) in [(#"{"stroke_days":0}"#, "invalid_stroke_days"), (#"{"stroke_days":1.5}"#, "invalid_stroke_days"),
                             (#"{"public_boards":"yes"}"#, "bad_json"), ("[]", "bad_json")] {
            let r = try http.call("PATCH", "/api/classes/\(classID)", token: teacher, body: body)
            #expect(r.status == 400 && r.errorCode == code, "\(body)")
        }
        #expect(try http.call("PATCH", "/api/classes/\(classID)", token: other, body: #"{"stroke_days":1}"#).status == 404)
        _ = try db.query("UPDATE result_answers SET finished_at = finished_at - interval '2 days'")
        let kept = try http.call("PATCH", "/api/classes/\(classID)", token: teacher, body: #"{"stroke_days":1}"#)
        let keptBody = try kept.json()
        #expect(kept.status == 200 && keptBody["stroke_days"] as? Int == 1 && keptBody["public_boards"] as? Bool == false)
        let blanked = try http.call("GET", "/api/classes/\(classID)/pupils/Ann/answers", token: teacher).json()
        #expect((blanked["answers"] as? [[String: Any]])?.map { $0["strokes"] == nil } == [true, true])
        #expect(try http.call("PATCH", "/api/classes/\(classID)", token: teacher, body: #"{"stroke_days":null,"public_boards":true}"#)
                    .json()["stroke_days"] is NSNull)

        // Nobody else reads them: another teacher, a player, nobody.
        for path in ["/api/classes/\(classID)/report", "/api/classes/\(classID)/report.csv", "/api/classes/\(classID)/pupils/Ann/answers"] {
            #expect(try http.call("GET", path, token: other).status == 404, "\(path)")
            #expect(try http.call("GET", path, token: annToken).status == 401, "\(path)")
            #expect(try http.call("GET", path).status == 401, "\(path)")
        }

        // One pupil's data, deleted at once: her lesson results and answers, her place; Annie plays on.
        #expect(try http.call("DELETE", "/api/classes/\(classID)/pupils/Ann/data", token: other).status == 404)
        #expect(try http.call("DELETE", "/api/classes/\(classID)/pupils/Ann/data", token: annToken).status == 401)
        #expect(try http.call("DELETE", "/api/classes/\(classID)/pupils/Ann/data", token: teacher).status == 204)
        #expect(try http.call("DELETE", "/api/classes/\(classID)/pupils/Ann/data", token: teacher).errorCode == "unknown_pupil")
        #expect(try db.query("SELECT count(*) AS n FROM game_results r JOIN players p ON p.id = r.player_id WHERE p.name = 'Annie'")
                    .value("n") == "0")
        #expect(try db.query("SELECT count(*) AS n FROM result_answers").value("n") == "0")
        #expect(try db.query("SELECT count(*) AS n FROM players WHERE name = 'Annie'").value("n") == "1")
        let after = try http.call("GET", "/api/classes/\(classID)/report", token: teacher).json()
        #expect((after["answers"] as? [Any])?.isEmpty == true && (after["pupils"] as? [Any])?.isEmpty == true)
        let roster = try http.call("GET", "/api/classes/\(classID)/pupils", token: teacher).json()["pupils"] as? [[String: Any]]
        #expect(roster?.compactMap { $0["name"] as? String } == ["Bo"])
    }
}

/// Work a teacher sets for a class (issue 46, item 3), through the real
/// server and PostgreSQL: set, listed for the pupil, played solo over a
/// real socket, counted for the teacher, in the class's report, off the
/// public boards; refused to whoever is not the class's.
@Suite(.serialized) struct AssignmentLiveTests {

    @Test func aPupilPlaysTheWorkSetAndItIsInTheReport() throws {
        let live = try LiveHTTPServer(environment: ["MINDPAD_COUNTDOWN_SECONDS": "0", "MINDPAD_PASSWORD_ITERATIONS": "1000"])
        defer { live.stop() }
        let http = LiveHTTPServerPort(port: live.port)
        let teacher = try signUpTeacher(http, "Ms Rao"), other = try signUpTeacher(http, "Mr Lee")
        let (classID, code) = try classWithList(http, teacher: teacher, names: ["Ann"])
        let annToken = try live.register("Annie"), eveToken = try live.register("Eve")
        #expect(try http.call("POST", "/api/players/Annie/classes", token: annToken, body: jsonBody(["code": code, "name": "Ann"])).status == 200)

        // What a teacher may set: a hosted game, a mode it offers, one of its levels, a due time.
        let path = "/api/classes/\(classID)/assignments"
        for (bad, error) in [(#"{"game":"chess","mode":"normal"}"#, "unknown_game"), (#"{"game":"mindpad","mode":"relay"}"#, "mode_not_offered"),
                             (#"{"game":"mindpad","mode":"normal","level":2}"#, "bad_level"),
                             (#"{"game":"kids_counting","mode":"normal","level":7}"#, "bad_level"),
                             (#"{"game":"mindpad","mode":"normal","due":"friday"}"#, "bad_due"), ("{}", "bad_json")] {
            let r = try http.call("POST", path, token: teacher, body: bad)
            #expect(r.status == 400 && r.errorCode == error, "\(bad): \(r.status) \(r.text)")
        }
        #expect(try http.call("POST", path, token: other, body: #"{"game":"mindpad","mode":"normal"}"#).status == 404)
        let set = try http.call("POST", path, token: teacher, body: #"{"game":"mindpad","mode":"normal","due":"2026-12-18T15:00:00Z"}"#)
        #expect(set.status == 201)
        let work = try set.json()
        let workID = try #require(work["id"] as? String)
        #expect(work["due"] as? String == "2026-12-18T15:00:00.000Z" && work["played_by"] as? Int == 0 && work["level"] is NSNull)
        let kids = try http.call("POST", path, token: teacher, body: #"{"game":"kids_counting","mode":"normal"}"#).json()
        #expect(kids["level"] as? Int == 1)

        // Ann sees both; Eve, in no class, none.
        let hers = try #require(try http.call("GET", "/api/players/Annie/assignments", token: annToken).json()["assignments"] as? [[String: Any]])
        #expect(hers.map { $0["id"] as? String } == [kids["id"] as? String, workID])
        #expect(hers.allSatisfy { $0["class"] as? String == "3B" && $0["played"] as? Bool == false })
        #expect((try http.call("GET", "/api/players/Eve/assignments", token: eveToken).json()["assignments"] as? [Any])?.isEmpty == true)
        #expect(try http.call("GET", "/api/players/Annie/assignments", token: eveToken).status == 401)

        // Over a real socket: the wrong mode refused, Eve refused, Ann plays it through.
        let eve = try RealtimeClient(port: live.port, label: "Eve")
        try eve.identify("Eve", token: eveToken)
        try eve.send(["type": "create_room", "game": "mindpad", "mode": "normal", "assignment": workID])
        _ = try eve.error("not_in_class")
        try eve.send(["type": "create_room", "game": "mindpad", "mode": "normal", "assignment": "not-a-uuid"])
        _ = try eve.error("bad_assignment")
        let ann = try RealtimeClient(port: live.port, label: "Annie")
        try ann.identify("Annie", token: annToken)
        try ann.send(["type": "create_room", "game": "mindpad", "mode": "time_attack", "assignment": workID])
        #expect((try ann.error("bad_assignment")["message"] as? String)?.contains("normal") == true)
        try ann.send(["type": "create_room", "game": "mindpad", "mode": "normal", "assignment": workID])
        let room = try ann.next("room")
        #expect((room["room"] as? [String: Any])?["max_players"] as? Int == 1)
        try ann.send(["type": "start"])
        var answered = 0
        while true {
            let q = try ann.next(oneOf: ["question", "finished"])
            if q["type"] as? String == "finished" { break }
            _ = try ann.answer(expectedDigit(q), question: q["question"] as! String)
            answered += 1
        }
        _ = try ann.next("result_saved")
        #expect(answered == 10)
        let played = try #require(try http.call("GET", path, token: teacher).json()["assignments"] as? [[String: Any]])
        #expect(played.first(where: { $0["id"] as? String == workID })?["played_by"] as? Int == 1)
        let after = try http.call("GET", "/api/players/Annie/assignments", token: annToken).json()["assignments"] as? [[String: Any]]
        #expect(after?.first(where: { $0["id"] as? String == workID })?["played"] as? Bool == true)
        let report = try http.call("GET", "/api/classes/\(classID)/report", token: teacher).json()
        let answers = try #require(report["answers"] as? [[String: Any]])
        #expect(answers.count == 10 && answers.allSatisfy { $0["assignment"] as? String == workID && $0["correct"] as? Bool == true })
        // Off the public boards: the class did not allow them.
        let db = try live.db.connect()
        #expect(try db.query("""
            SELECT (SELECT count(*) FROM highscores) + (SELECT count(*) FROM pending_boards) AS n
            """).value("n") == "0")
        // Taken back: gone from Ann's list, her run still in the report.
        #expect(try http.call("DELETE", "\(path)/\(workID)", token: other).status == 404)
        #expect(try http.call("DELETE", "\(path)/\(workID)", token: teacher).status == 204)
        #expect(try http.call("DELETE", "\(path)/\(workID)", token: teacher).errorCode == "unknown_assignment")
        #expect((try http.call("GET", "/api/players/Annie/assignments", token: annToken).json()["assignments"] as? [Any])?.count == 1)
        let kept = try http.call("GET", "/api/classes/\(classID)/report", token: teacher).json()["answers"] as? [[String: Any]]
        #expect(kept?.count == 10 && kept?.allSatisfy { $0["assignment"] is NSNull } == true)
    }
}

/// A class of 30 survives (issue 46, "Targets"): every pupil's connection
/// drops at once mid-race with the projector's, and all come back: each
/// pupil resumes at the question they were on, the projector takes the
/// lesson back, the race runs to its end and every result is stored.
@Suite(.serialized) struct LessonSurvivalLiveTests {

    /// Answers the question `q` right on the keypad; the next message of the run.
    private static func answerTyped(_ c: RealtimeClient, _ q: RealtimeClient.Message) throws -> RealtimeClient.Message {
        let id = q["question"] as! String
        try c.send(["type": "submit", "question": id, "answer": expectedDigit(q)])
        let graded = try c.next("graded") { $0["question"] as? String == id }
        #expect(graded["correct"] as? Bool == true)
        return try c.next(oneOf: ["question", "finished"])
    }

    @Test func thirtyPupilsAndTheProjectorDropAtOnceAndLoseNothing() throws {
        let live = try LiveHTTPServer(environment: ["MINDPAD_COUNTDOWN_SECONDS": "0", "MINDPAD_PASSWORD_ITERATIONS": "1000"])
        defer { live.stop() }
        let http = LiveHTTPServerPort(port: live.port)
        let teacher = try signUpTeacher(http, "Ms Rao")
        let roster = (0..<30).map { "Pupil\($0)" }
        let (classID, code) = try classWithList(http, teacher: teacher, names: roster)
        var tokens: [String] = []
        for (i, name) in roster.enumerated() {
            let token = try live.register("Kid\(i)")
            #expect(try http.call("POST", "/api/players/Kid\(i)/classes", token: token, body: jsonBody(["code": code, "name": name])).status == 200)
            tokens.append(token)
        }
        let host: RealtimeClient.Message = ["type": "host_lesson", "token": teacher, "class": classID, "game": "mindpad", "mode": "normal"]
        let projector = try RealtimeClient(port: live.port, label: "projector")
        try projector.send(host)
        let room = try #require(try projector.next("lesson")["room"] as? String)
        var pupils: [RealtimeClient] = []
        for i in 0..<30 {
            let c = try RealtimeClient(port: live.port, label: "Kid\(i)")
            try c.identify("Kid\(i)", token: tokens[i])
            try c.join(room)
            pupils.append(c)
        }
        _ = try projector.next("room_updated") { (($0["room"] as? [String: Any])?["members"] as? [Any])?.count == 30 }
        try projector.send(["type": "lesson", "action": "start"])
        // Three questions each, then everybody's connection goes at once.
        var current: [RealtimeClient.Message] = []
        for c in pupils {
            var q = try c.next("question")
            for _ in 0..<3 { q = try Self.answerTyped(c, q) }
            current.append(q)
        }
        #expect(current.allSatisfy { $0["question"] as? String == "r1q3" })
        projector.dropConnection()
        for c in pupils { c.dropConnection() }

        // Everybody back within the grace: the same race, the question each was on.
        var back: [RealtimeClient] = []
        for i in 0..<30 {
            let c = try RealtimeClient(port: live.port, label: "Kid\(i) again")
            try c.identify("Kid\(i)", token: tokens[i])
            let picture = try c.next("room")
            #expect(picture["code"] as? String == room && (picture["room"] as? [String: Any])?["phase"] as? String == "running")
            #expect((picture["progress"] as? [String: Any]).map { _ in true } == true)
            current[i] = try c.next("question")
            #expect(current[i]["question"] as? String == "r1q3")
            back.append(c)
        }
        let again = try RealtimeClient(port: live.port, label: "projector again")
        try again.send(host)
        #expect(try again.next("lesson")["room"] as? String == room)
        _ = try again.next("room")
        var asked = Set<String>()
        for _ in 0..<30 { asked.insert(try again.next("pad_question")["player"] as? String ?? "") }
        #expect(asked.count == 30)

        // The race runs to its end: every pupil's ten answers, every result stored.
        for (i, c) in back.enumerated() {
            var q = current[i]
            while q["type"] as? String == "question" { q = try Self.answerTyped(c, q) }
            #expect((q["result"] as? [String: Any])?["correct"] as? Int == 10)
            _ = try c.next("result_saved")
        }
        let standings = try again.next("standings")
        #expect((standings["entries"] as? [Any])?.count == 30)
        let db = try live.db.connect()
        #expect(try db.query("""
            SELECT count(*) AS n FROM game_results r JOIN class_races c ON c.race_id = r.race_id
            WHERE c.class_id = \(classID)::uuid AND r.correct = 10 AND r.completed
            """).value("n") == "30")
    }
}
