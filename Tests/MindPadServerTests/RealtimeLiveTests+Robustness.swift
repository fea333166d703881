import Foundation
import MindPadTestSupport
import Testing

extension RealtimeLiveTests {
    /// Every bad input gets its documented answer while Carol's race goes on.
    @Test func badInputsAreRefusedWhileAnotherRaceCarriesOn() throws {
        let (db, server, port) = try Self.startServer(environment: ["MINDPAD_ALLOWED_ORIGINS": "https://app.example"])
        defer { db.drop(); _ = server.stop() }

        // Carol races Normal alone and answers her first question.
        let carol = try RealtimeClient(port: port, label: "carol")
        let carolToken = try carol.identify("Carol")["token"] as! String
        let carolRoom = try carol.createRoom(mode: "normal")
        try carol.send(["type": "start"])
        var carolScore = 0
        func carolAnswers(_ index: Int) throws {
            let question = try carol.next("question") { $0["question"] as? String == "r1q\(index)" }
            let graded = try carol.answer(expectedDigit(question), question: "r1q\(index)")
            #expect(graded["correct"] as? Bool == true)
            carolScore = graded["score"] as! Int
        }
        try carolAnswers(0)

        // Dan: protocol errors, before and after identifying.
        let dan = try RealtimeClient(port: port, label: "dan")
        try dan.send(["type": "create_room", "mode": "normal"])
        #expect(try dan.error("not_identified")["request"] as? String == "create_room")
        try dan.sendText("{nope")
        try dan.error("bad_json")
        try dan.sendText(#"{"type":"dance"}"#)
        try dan.error("unknown_type")
        try dan.sendText("[1,2]")
        try dan.error("bad_message")
        try dan.send(["type": "identify", "name": "Robert'); DROP TABLE"])
        try dan.error("name_disallowed_character")
        // Someone else's name: without the token, and with a wrong one.
        try dan.send(["type": "identify", "name": "CAROL"])
        try dan.error("name_taken")
        try dan.send(["type": "identify", "name": "Carol", "token": String(carolToken.reversed())])
        try dan.error("wrong_token")
        try dan.identify("Dan")
        try dan.send(["type": "identify", "name": "Dan"])
        try dan.error("already_identified")

        // Rooms: unknown code, joining a running race (spectator), a full room.
        try dan.send(["type": "join_room", "code": "ZZZZ"])
        try dan.error("room_not_found")
        try dan.send(["type": "join_room", "code": "A1"])
        try dan.error("room_not_found")
        let watching = try dan.join(carolRoom)
        let roles = ((watching["room"] as! [String: Any])["members"] as! [[String: Any]]).map { $0["role"] as! String }
        #expect(roles == ["racer", "spectator"])
        #expect((watching["room"] as! [String: Any])["phase"] as? String == "running")
        try dan.send(["type": "submit", "question": "r1q1"])
        try dan.error("not_racing")
        try dan.send(["type": "leave_room"])
        try dan.next("left_room")

        let eve = try RealtimeClient(port: port, label: "eve")
        try eve.identify("Eve")
        let small = try eve.createRoom(mode: "normal", maxPlayers: 1, maxSpectators: 0)
        try dan.send(["type": "join_room", "code": small])
        try dan.error("room_full")

        try carolAnswers(1)

        // Dan's own Survival race: stale and unsent questions, too many points,
        // an answer after the end.
        _ = try dan.createRoom(mode: "survival")
        try dan.send(["type": "join_room", "code": carolRoom])
        try dan.error("already_in_room")
        try dan.send(["type": "submit", "question": "r1q0"])
        try dan.error("race_not_running")
        try dan.send(["type": "start"])
        let q0 = try dan.next("question")
        #expect(try dan.answer(expectedDigit(q0), question: "r1q0")["correct"] as? Bool == true)
        let q1 = try dan.next("question")
        try dan.send(["type": "submit", "question": "r1q0"])
        try dan.error("stale_question")
        try dan.send(["type": "submit", "question": "r1q7"])
        try dan.error("unsent_question")
        try dan.send(["type": "submit", "question": "r1q1"])
        try dan.error("empty_drawing")
        let dot = Array(repeating: [5, 5], count: 2_500)
        for _ in 0..<4 { try dan.send(["type": "points", "question": "r1q1", "stroke": 0, "points": dot]) }
        try dan.send(["type": "points", "question": "r1q1", "stroke": 0, "points": [[1, 1]]])
        #expect(try dan.error("too_many_points")["request"] as? String == "points")
        try dan.send(["type": "points", "question": "r1q1", "stroke": 5, "points": [[1, 1]]])
        try dan.error("bad_stroke")
        try dan.send(["type": "clear", "question": "r1q1"])
        let miss = try dan.answer((expectedDigit(q1) + 1) % 10, question: "r1q1")
        #expect(miss["correct"] as? Bool == false && miss["run_over"] as? Bool == true)
        try dan.next("standings")
        try dan.send(["type": "submit", "question": "r1q1"])
        try dan.error("race_over")

        try carolAnswers(2)

        // Transport limits: oversized (1009) and floods (1008).
        let fay = try RealtimeClient(port: port, label: "fay")
        try fay.sendText(#"{"type":"identify","name":""# + String(repeating: "x", count: 70_000) + #""}"#)
        #expect(try fay.waitForClose() == 1009)
        let gus = try RealtimeClient(port: port, label: "gus")
        for _ in 0..<200 { try? gus.sendText(#"{"type":"start"}"#) }
        #expect(try gus.waitForClose() == 1008)
        #expect(gus.inbox.contains { $0["code"] as? String == "rate_limited" })

        // Origins: a foreign page is refused, the listed one and our own host are not.
        #expect(try RealtimeClient(port: port, origin: "https://evil.example", expectWelcome: false).handshakeStatus == 403)
        #expect(try RealtimeClient(port: port, origin: "https://app.example").handshakeStatus == 101)
        #expect(try RealtimeClient(port: port, origin: "http://127.0.0.1:\(port)").handshakeStatus == 101)

        // Carol's race was never disturbed.
        for index in 3..<10 { try carolAnswers(index) }
        let standings = try carol.next("standings")["entries"] as! [[String: Any]]
        #expect(standings.count == 1)
        #expect(standings.first?["score"] as? Int == carolScore)
        #expect(standings.first?["completed"] as? Bool == true)
        #expect(!carol.log.contains { $0.message["type"] as? String == "error" })
        #expect(server.process.isRunning)
    }

    /// A dropped racer who comes back with the token within the grace
    /// period is the same player in the same race.
    @Test func reconnectWithTheTokenResumesTheRace() throws {
        let (db, server, port) = try Self.startServer(timeAttackSeconds: "8")
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        try ann.identify("Ann")
        let code = try ann.createRoom(mode: "time_attack")
        var bo = try RealtimeClient(port: port, label: "bo")
        let identity = try bo.identify("Bo")
        let token = identity["token"] as! String
        try bo.join(code)
        try bo.ready(seenBy: ann)
        try ann.send(["type": "start"])

        let first = try bo.next("question")
        #expect(try bo.answer(expectedDigit(first), question: "r1q0")["correct"] as? Bool == true)
        _ = try bo.next("question") { $0["question"] as? String == "r1q1" }
        bo.dropConnection()
        try ann.next("room_updated", timeout: .seconds(5)) { message in
            let members = (message["room"] as! [String: Any])["members"] as! [[String: Any]]
            return members.contains { $0["name"] as? String == "Bo" && ($0["connected"] as? Bool) == false }
        }

        bo = try RealtimeClient(port: port, label: "bo-again")
        let again = try bo.identify("bo", token: token)
        #expect(again["player_id"] as? String == identity["player_id"] as? String)
        #expect(again["new"] as? Bool == false)
        #expect(again["token"] == nil)
        let resync = try bo.next("room")
        #expect(resync["code"] as? String == code)
        #expect((resync["progress"] as? [String: Any]) != nil)
        // The question he was on, clock still running, then on as before.
        let current = try bo.next("question")
        #expect(current["question"] as? String == "r1q1")
        #expect(try bo.answer(expectedDigit(current), question: "r1q1")["score"] as? Int == 2)
        try ann.next("room_updated") { message in
            let members = (message["room"] as! [String: Any])["members"] as! [[String: Any]]
            return members.allSatisfy { ($0["connected"] as? Bool) == true }
        }

        let entries = try bo.next("standings", timeout: .seconds(12))["entries"] as! [[String: Any]]
        let boEntry = try #require(entries.first { $0["name"] as? String == "Bo" })
        #expect(boEntry["score"] as? Int == 2)
        #expect(boEntry["completed"] as? Bool == true)
        #expect(entries.first?["name"] as? String == "Bo")  // Ann never answered
    }
}

extension RealtimeLiveTests {
    /// A racer who does not come back within the grace keeps the result they
    /// had: it is stored, and the standings show it as abandoned.
    @Test func aRacerWhoNeverReturnsKeepsTheirResultSoFar() throws {
        let (db, server, port) = try Self.startServer(environment: ["MINDPAD_RECONNECT_GRACE_SECONDS": "0.5"])
        defer { db.drop(); _ = server.stop() }
        let ann = try RealtimeClient(port: port, label: "ann")
        try ann.identify("Ann")
        let code = try ann.createRoom(mode: "normal")
        let bo = try RealtimeClient(port: port, label: "bo")
        try bo.identify("Bo")
        try bo.join(code)
        try bo.ready(seenBy: ann)
        try ann.send(["type": "start"])
        let q0 = try bo.next("question")
        let boScore = try bo.answer(expectedDigit(q0), question: "r1q0")["score"] as! Int
        bo.dropConnection()
        // Grace over: Bo is gone from the room, Ann races on alone.
        try ann.next("room_updated", timeout: .seconds(5)) { message in
            ((message["room"] as! [String: Any])["members"] as! [[String: Any]]).count == 1
        }
        for index in 0..<10 {
            let q = try ann.next("question") { $0["question"] as? String == "r1q\(index)" }
            _ = try ann.answer(expectedDigit(q), question: "r1q\(index)")
        }
        let entries = try ann.next("standings")["entries"] as! [[String: Any]]
        #expect(entries.map { $0["name"] as? String } == ["Ann", "Bo"])
        #expect(entries.last?["score"] as? Int == boScore)
        #expect(entries.last?["completed"] as? Bool == false)
        try ann.next("result_saved")
        let stored = try db.connect().query("SELECT count(*) AS n FROM game_results WHERE mode = 'normal'").value("n")
        #expect(stored == "2")
    }
}
