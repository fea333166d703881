import MindPadJSON
import MindPadRules
import Testing
@testable import MindPadServer

/// What docs/protocol.md decides about ready, message order on join and
/// resume, and coming back after a race or after the grace: in-process.
@Suite struct ProtocolDecisionsTests {
    /// Ann hosts, Bo joins; both identified.
    func room(_ h: HubHarness, mode: String = "normal") throws -> (HubClient, HubClient, String) {
        let ann = h.connect("ann"), bo = h.connect("bo")
        ann.identify("Ann")
        bo.identify("Bo")
        let code = try #require(ann.createRoom(mode: mode))
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        return (ann, bo, code)
    }

    @Test func theJoinerGetsTheWholePictureFirstAndNoEchoOfTheirArrival() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        ann.identify("Ann")
        ann.send([("type", .string("create_room")), ("mode", .string("normal"))])
        #expect(ann.types == ["room"])
        _ = ann.next("room")
        let bo = h.connect("bo")
        bo.identify("Bo")
        bo.send([("type", .string("join_room")), ("code", .string(h.hub.rooms.keys.first!))])
        #expect(bo.types == ["room"])
        #expect(ann.types == ["room_updated"])
    }

    @Test func theHostStartsOnceEveryOtherRacerIsReadyAndConnected() throws {
        let h = try HubHarness()
        let (ann, bo, _) = try room(h)
        ann.send([("type", .string("start"))])
        let refusal = try #require(ann.next("error"))
        #expect(refusal["code"] == .string("players_not_ready") && refusal["message"] == .string("Waiting for: Bo."))
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        // Bo drops: not ready until back (or gone when the grace ends).
        h.hub.closed(bo.connection)
        h.transport.settle()
        ann.send([("type", .string("start"))])
        #expect(ann.errorCode() == "players_not_ready")
        h.advance(by: .seconds(16))
        ann.send([("type", .string("start"))])
        #expect(ann.next("race_started") != nil)
        // Solo: the host alone never waits.
        let cy = h.connect("cy")
        #expect(cy.startSolo("Cy", mode: "survival") != nil)
    }

    @Test func aRacerBackAfterTheRaceEndedLearnsTheirResultAgain() throws {
        let h = try HubHarness()
        let (ann, bo, _) = try room(h, mode: "survival")
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        for client in [ann, bo] {
            let q = client.next("question")
            client.draw((hiddenDigit(q) + 1) % 10, question: "r1q0")
            if client === bo { h.hub.closed(bo.connection); h.transport.settle() } else { client.submit("r1q0") }
        }
        // Ann's miss ended her run; Bo dropped before answering.
        #expect(ann.next("finished") != nil && ann.next("result_saved") != nil)
        // Bo comes back within the grace, with his token, on a new connection.
        let again = h.connect("bo-again")
        again.identify("Bo", token: "token-bo")
        #expect(again.types.first == "room")
        _ = again.next("room")
        let q = again.next("question")
        #expect(q?["question"] == .string("r1q0"))
        // His canvas starts empty: a submit now is an empty drawing.
        again.submit("r1q0")
        #expect(again.errorCode() == "empty_drawing")
        again.draw((hiddenDigit(q) + 1) % 10, question: "r1q0")
        again.submit("r1q0")
        #expect(again.next("finished") != nil && again.next("result_saved")?["stored"] == .string("database"))
        // Back once more after the race: room (with standings), then his finished and result_saved again.
        h.hub.closed(again.connection)
        h.transport.settle()
        let third = h.connect("bo-third")
        third.identify("Bo", token: "token-bo")
        #expect(third.types == ["room", "finished", "result_saved"])
        #expect(third.next("room")?["standings"] != nil)
    }

    @Test func afterTheGraceAReturningRacerIsNoLongerAMemberAndRejoinsAsASpectator() throws {
        let h = try HubHarness()
        let (ann, bo, code) = try room(h, mode: "time_attack")
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        h.hub.closed(bo.connection)
        h.transport.settle()
        h.advance(by: .seconds(16))
        let back = h.connect("bo-back")
        back.identify("Bo", token: "token-bo")
        #expect(back.types.isEmpty)
        back.send([("type", .string("ready")), ("ready", .bool(true))])
        #expect(back.errorCode() == "not_in_room")
        back.send([("type", .string("join_room")), ("code", .string(code))])
        let room = try #require(back.next("room"))
        let me = room["room"]?["members"]?.array?.first { $0["name"] == .string("Bo") }
        #expect(me?["role"] == .string("spectator"))
        back.submit("r1q0")
        #expect(back.errorCode() == "not_racing")
    }
}
