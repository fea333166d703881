import Foundation
import MindPadRules
import MindPadStorage
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// One instance of a cluster: the application in-process with its own
/// port and data directory, sharing the database of the others.
final class ClusterNode: InProcessServer {
    init(_ instance: String, _ db: ScratchDatabase, adminToken: String? = nil,
         configure: (inout Configuration) -> Void = { _ in }) throws {
        try super.init(adminToken: adminToken, database: db, configure: { config in
            config.instance = instance
            configure(&config)
        })
    }

    func post(_ path: String, token: String?) throws -> TestHTTPResponse {
        try TestHTTP.request(port: port, method: "POST", path: path,
                             headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }
}

/// Two or three instances in one process on one PostgreSQL (issue 21):
/// rooms live on their owner, a join elsewhere is `moved` there, sessions
/// are single cluster-wide, a dead owner's rooms are `room_lost`, and a
/// drain lets the races finish. Real sockets, a real database; waits are
/// for messages and rows.
@Suite(.serialized) struct ClusterLiveTests {
    @Test func aRoomIsJoinedOnItsOwnerWhicheverInstanceWasReachedFirst() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let a = try ClusterNode("i1", db), b = try ClusterNode("i2", db)
        defer { a.stop(); b.stop() }

        let ann = try RealtimeClient(port: a.port, label: "Ann")
        #expect(try ann.identify("Ann")["instance"] as? String == "i1")
        let code = try ann.createRoom(mode: "normal")
        #expect(try db.connect().query("SELECT instance FROM room_directory WHERE code = \(code)").value("instance") == "i1")

        // Bob's first connection reached i2: the room is i1's.
        let bob = try RealtimeClient(port: b.port, label: "Bob")
        let bobIdentified = try bob.identify("Bob")
        #expect(bobIdentified["instance"] as? String == "i2")
        try bob.send(["type": "join_room", "code": "ZZZZ"])
        #expect(try bob.error("room_not_found")["request"] as? String == "join_room")
        try bob.send(["type": "join_room", "code": code.lowercased()])
        let moved = try bob.next("moved")
        #expect(moved["room"] as? String == code && moved["instance"] as? String == "i1")

        // As the client does: to /ws?instance=i1, identify, the same join_room.
        let bobOnOwner = try RealtimeClient(port: a.port, path: "/ws?instance=i1", label: "Bob")
        #expect(try bobOnOwner.identify("Bob", token: bobIdentified["token"] as? String)["instance"] as? String == "i1")
        #expect(try bobOnOwner.join(code)["code"] as? String == code)
        try ann.next("room_updated") { (($0["room"] as? [String: Any])?["members"] as? [Any])?.count == 2 }
        // Identifying on i1 replaced Bob's session on i2.
        #expect(try bob.error("replaced")["code"] as? String == "replaced")
        #expect(try bob.waitForClose() == 4001)

        // Asked for i1 but HAProxy could not reach it and chose i2: the room is lost to this client.
        let cy = try RealtimeClient(port: b.port, path: "/ws?instance=i1", label: "Cy")
        try cy.identify("Cy")
        try cy.send(["type": "join_room", "code": code])
        let lost = try cy.error("room_lost")
        #expect(lost["message"] as? String == "The server running room \(code) went away; its race is over.")
    }

    @Test func identifyingOnAnotherInstanceReplacesTheSessionAndKeepsTheRoom() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let a = try ClusterNode("i1", db), b = try ClusterNode("i2", db)
        defer { a.stop(); b.stop() }
        try waitFor("both listeners") { a.app.clusterListenCount == 1 && b.app.clusterListenCount == 1 }

        let ann = try RealtimeClient(port: a.port, label: "Ann")
        let token = try #require(try ann.identify("Ann")["token"] as? String)
        let code = try ann.createRoom(mode: "normal")

        let annOnB = try RealtimeClient(port: b.port, label: "Ann")
        try annOnB.identify("Ann", token: token)
        #expect(try ann.error("replaced")["message"] as? String == "You signed in on another connection.")
        #expect(try ann.waitForClose() == 4001)

        // Back on i1 within the grace: resumed in the room; i2's session goes.
        let annAgain = try RealtimeClient(port: a.port, path: "/ws?instance=i1", label: "Ann")
        try annAgain.identify("Ann", token: token)
        #expect(try annAgain.next("room")["code"] as? String == code)
        #expect(try annOnB.waitForClose() == 4001)
        // The newest session is not replaced by the announcements before it.
        try annAgain.send(["type": "join_room", "code": "ZZZZ"])
        #expect(try annAgain.error("already_in_room")["code"] as? String == "already_in_room")
        #expect(annAgain.closeFrame == nil)

        // i1's listening backend is ended: it listens again and still hears i2.
        let killed = try db.connect().query("""
            SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'mindpad-listen-i1' AND datname = current_database()
            """)
        #expect(killed.count == 1)
        try waitFor("i1 listening again") { a.app.clusterListenCount == 2 }
        let annOnBAgain = try RealtimeClient(port: b.port, label: "Ann")
        try annOnBAgain.identify("Ann", token: token)
        #expect(try annAgain.waitForClose() == 4001)
    }

    @Test func aKilledOwnersRoomIsMovedUntilItIsSeenDeadThenLostAndItsCodeFree() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        // i1 a real process, to be killed with SIGKILL; i2 in-process.
        let (a, aPort) = try ServerProcess.serve(databaseURL: db.url, environment: ["MINDPAD_INSTANCE": "i1"])
        defer { _ = a.stop(signal: SIGKILL) }
        let b = try ClusterNode("i2", db)
        defer { b.stop() }
        let ann = try RealtimeClient(port: aPort, label: "Ann")
        #expect(try ann.identify("Ann")["instance"] as? String == "i1")
        let code = try ann.createRoom(mode: "normal")
        #expect(a.stop(signal: SIGKILL) != nil)

        // Within the liveness window the directory still sends players there…
        let bob = try RealtimeClient(port: b.port, label: "Bob")
        try bob.identify("Bob")
        try bob.send(["type": "join_room", "code": code])
        #expect(try bob.next("moved")["instance"] as? String == "i1")
        // …and once i1 is not seen for 15 s (made so here, rather than waited for), the room is lost.
        try db.connect().query("UPDATE instances SET seen_at = now() - interval '1 minute' WHERE id = 'i1'")
        try bob.send(["type": "join_room", "code": code])
        #expect(try bob.error("room_lost")["message"] as? String == "The server running room \(code) went away; its race is over.")
        // Its code can be opened again by a live instance.
        #expect(try RoomDirectoryStore(db.connect()).reserve(code: code, instance: "i2", game: "mindpad"))
        let own = try bob.createRoom(mode: "normal")
        #expect(try RoomDirectoryStore(db.connect()).lookup(code: own) == RoomDirectoryEntry(instance: "i2", alive: true, draining: false))
    }

    @Test func aStoppedOwnerIsDeadAtOnceAndItsRoomsAreLost() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let a = try ClusterNode("i1", db), b = try ClusterNode("i2", db)
        defer { b.stop() }
        let ann = try RealtimeClient(port: a.port, label: "Ann")
        try ann.identify("Ann")
        let code = try ann.createRoom(mode: "normal")
        a.stop()
        #expect(try ann.waitForClose() == 1001)
        #expect(try RoomDirectoryStore(db.connect()).lookup(code: code) == RoomDirectoryEntry(instance: "i1", alive: false, draining: false))
        let bob = try RealtimeClient(port: b.port, path: "/ws?instance=i1", label: "Bob")
        try bob.identify("Bob")
        try bob.send(["type": "join_room", "code": code])
        try bob.error("room_lost")
        // A room closed while the instance runs is released at once.
        let cy = try RealtimeClient(port: b.port, label: "Cy")
        try cy.identify("Cy")
        let own = try cy.createRoom(mode: "normal")
        try cy.send(["type": "leave_room"])
        try cy.next("left_room")
        try waitFor("the room released") { try RoomDirectoryStore(db.connect()).lookup(code: own) == nil }
    }

    @Test func sigusr1DrainsAProcessInstanceWhichExitsCleanly() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let (a, port) = try ServerProcess.serve(databaseURL: db.url, environment: ["MINDPAD_INSTANCE": "i1", "LOG_LEVEL": "debug"])
        defer { _ = a.stop(signal: SIGKILL) }
        try a.waitForLine(containing: "handling signals")
        let idle = try RealtimeClient(port: port, label: "Idle")
        try idle.identify("Idle")
        #expect(a.stop(signal: SIGUSR1, timeout: .seconds(10)) != nil)
        #expect(a.process.terminationStatus == 0)
        #expect(try idle.waitForClose() == 1012)
        #expect(a.output.contains("draining"))
    }

    @Test func theReplyToAJoinOfACodeNotOpenHere() {
        let entry = { (instance: String, alive: Bool) in Result<RoomDirectoryEntry?, PostgresError>.success(
            RoomDirectoryEntry(instance: instance, alive: alive, draining: false)) }
        let type = { (m: OutgoingMessage) in m.type + (m.errorCode.map { ":" + $0.rawValue } ?? "") }
        #expect(type(RealtimeHub.answer(toJoining: "ABCD", entry("i2", true), here: "i1", asked: nil)) == "moved")
        #expect(RealtimeHub.answer(toJoining: "ABCD", entry("i2", true), here: "i1", asked: nil).text
            == #"{"type":"moved","room":"ABCD","instance":"i2"}"#)
        #expect(type(RealtimeHub.answer(toJoining: "ABCD", entry("i2", true), here: "i1", asked: "i3")) == "moved")
        #expect(type(RealtimeHub.answer(toJoining: "ABCD", entry("i2", false), here: "i1", asked: nil)) == "error:room_lost")
        #expect(type(RealtimeHub.answer(toJoining: "ABCD", entry("i2", true), here: "i1", asked: "i2")) == "error:room_lost")
        #expect(type(RealtimeHub.answer(toJoining: "ABCD", entry("i1", true), here: "i1", asked: nil)) == "error:room_lost")
        #expect(type(RealtimeHub.answer(toJoining: "ABCD", .success(nil), here: "i1", asked: "i2")) == "error:room_not_found")
        #expect(type(RealtimeHub.answer(toJoining: "ABCD", .failure(PostgresError(.timedOut, message: "")), here: "i1", asked: nil))
            == "error:unavailable")
        #expect(ServerMessage.moved(room: nil, instance: nil).text == #"{"type":"moved","room":null,"instance":null}"#)
    }

    @Test func aDrainClosesLobbiesLetsTheRaceFinishStoresItsResultAndStops() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let a = try ClusterNode("i1", db, adminToken: "drain-token") { config in
            config.realtime.timeAttackLength = .seconds(3)
            config.realtime.countdown = .milliseconds(300)
        }
        let b = try ClusterNode("i2", db)
        defer { a.stop(); b.stop() }

        let lee = try RealtimeClient(port: a.port, label: "Lee")
        try lee.identify("Lee")
        _ = try lee.createRoom(mode: "normal")
        let rae = try RealtimeClient(port: a.port, label: "Rae")
        let raeAccount = try #require((try rae.identify("Rae")["player_id"] as? String)?.dropFirst()).description
        _ = try rae.createRoom(mode: "time_attack")
        try rae.send(["type": "start"])
        try rae.next("race_started")

        #expect(try a.post("/api/admin/drain", token: nil).status == 401)
        #expect(try a.post("/api/admin/drain", token: "wrong").status == 401)
        let drained = try a.post("/api/admin/drain", token: "drain-token")
        #expect(drained.status == 202)
        #expect(try drained.json()["draining"] as? Bool == true && drained.json()["rooms"] as? Int == 1)
        // Again: the same drain, still one racing room.
        let again = try a.post("/api/admin/drain", token: "drain-token")
        #expect(try again.status == 202 && again.json()["rooms"] as? Int == 1)
        let health = try TestHTTP.request(port: a.port, path: "/healthz")
        #expect(try health.status == 503 && health.json()["status"] as? String == "draining")
        #expect(try TestHTTP.request(port: b.port, path: "/healthz").status == 200)
        try waitFor("instances.draining") {
            try db.connect().query("SELECT draining FROM instances WHERE id = 'i1'").value("draining") == "t"
        }

        // The lobby closes at once; a new room is sent elsewhere.
        #expect(try lee.error("draining")["message"] as? String == "This server is restarting; open or join a room again.")
        #expect(try lee.waitForClose() == 1012)
        let late = try RealtimeClient(port: a.port, label: "Late")
        try late.identify("Late")
        try late.send(["type": "create_room", "mode": "normal"])
        let moved = try late.next("moved")
        #expect(moved["room"] is NSNull && moved["instance"] is NSNull)

        // The race runs to its end; its result is stored and said so, then 1012.
        let summary = try RealtimeLiveTests.race(rae, wrong: { _ in false })
        #expect(summary.standings.count == 1)
        #expect(try rae.next("result_saved", timeout: .seconds(10))["stored"] as? String == "database")
        #expect(try rae.waitForClose(timeout: .seconds(10)) == 1012)
        #expect(try late.waitForClose(timeout: .seconds(10)) == 1012)
        // Then the normal stop: the application ends by itself.
        try a.app.wait()
        let stored = try db.connect().query("SELECT count(*) AS n FROM game_results WHERE player_id = \(raeAccount)::bigint")
        #expect(stored.value("n") == "1")
        #expect(try db.connect().query("""
            SELECT draining AND seen_at < now() - interval '15 seconds' AS gone FROM instances WHERE id = 'i1'
            """).value("gone") == "t")
    }

    @Test func aDrainStopsAtItsBoundWithTheRaceStillRunningAndStoresTheRun() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let a = try ClusterNode("i1", db, adminToken: "t") { config in
            config.drainSeconds = 1
            config.realtime.timeAttackLength = .seconds(600)
            config.realtime.countdown = .milliseconds(300)
        }
        defer { a.stop() }
        let rae = try RealtimeClient(port: a.port, label: "Rae")
        let raeAccount = try #require((try rae.identify("Rae")["player_id"] as? String)?.dropFirst()).description
        _ = try rae.createRoom(mode: "time_attack")
        try rae.send(["type": "start"])
        try rae.next("race_started")
        // Fin's solo Survival race is over (one miss) before the drain.
        let fin = try RealtimeClient(port: a.port, label: "Fin")
        try fin.identify("Fin")
        _ = try fin.createRoom(mode: "survival")
        try fin.send(["type": "start"])
        let question = try fin.next("question")
        try fin.answer((expectedDigit(question) + 1) % 10, question: question["question"] as! String)
        try fin.next("result_saved")

        let drained = try a.post("/api/admin/drain", token: "t")
        #expect(try drained.status == 202 && drained.json()["rooms"] as? Int == 1)
        // A finished room is not a lobby: its members are closed without `draining`.
        #expect(try fin.waitForClose() == 1012)
        #expect(!fin.inbox.contains { $0["code"] as? String == "draining" })
        // A new race cannot start while draining.
        try rae.send(["type": "rematch"])
        #expect(try rae.error("draining")["request"] as? String == "rematch")
        // The bound passes with the race running: the normal stop ends the run (stored) and says 1001.
        #expect(try rae.waitForClose(timeout: .seconds(10)) == 1001)
        try a.app.wait()
        let stored = try db.connect().query("""
            SELECT count(*) AS n, bool_or(completed) AS completed FROM game_results WHERE player_id = \(raeAccount)::bigint
            """)
        #expect(stored.value("n") == "1" && stored.value("completed") == "f")
    }

    @Test func sigusr1IsIgnoredByASingleInstance() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let (server, port) = try ServerProcess.serve(databaseURL: db.url, environment: ["LOG_LEVEL": "debug"])
        defer { _ = server.stop() }
        try server.waitForLine(containing: "handling signals")
        kill(server.process.processIdentifier, SIGUSR1)
        try server.waitForLine(containing: "SIGUSR1 ignored")
        #expect(server.process.isRunning)
        #expect(try TestHTTP.request(port: port, path: "/healthz").status == 200)
    }

    @Test func aSingleInstanceDoesNotDrainAndSaysNoInstance() throws {
        let server = try InProcessServer(adminToken: "t")
        defer { server.stop() }
        let post = { (token: String?) in
            try TestHTTP.request(port: server.port, method: "POST", path: "/api/admin/drain",
                                 headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        }
        #expect(try post(nil).status == 401)
        let refused = try post("t")
        #expect(try refused.status == 409 && refused.json()["error"] as? String == "not_clustered")
        let get = try TestHTTP.request(port: server.port, path: "/api/admin/drain")
        #expect(get.status == 405 && get.headers["allow"] == "POST")
        #expect(try TestHTTP.request(port: server.port, path: "/healthz").status == 200)
        #expect(server.app.drain() == false)
        let ann = try RealtimeClient(port: server.port, path: "/ws?instance=i9", label: "Ann")
        #expect(try ann.identify("Ann")["instance"] == nil)
        let code = try ann.createRoom(mode: "normal")
        #expect(try server.db.connect().query("SELECT count(*) AS n FROM room_directory").value("n") == "0")
        #expect(code.count == 4)
    }
}
