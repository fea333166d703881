import MindPadJSON
import MindPadRules
import Testing
@testable import MindPadServer

/// Rooms of a kind other than MindPad, in-process: the hub and its rooms
/// never name a kind; prompts and answers cross the wire through the kind's
/// `Codable` types.
@Suite struct GameKindsHubTests {
    @Test func aTapKindRacesThroughTheHubAndStoresItsOwnResults() throws {
        let h = try HubHarness()
        let ann = h.connect("ann"), bo = h.connect("bo")
        ann.identify("Ann")
        bo.identify("Bo")
        let code = try #require(ann.createRoom(game: "quick_pick", mode: "normal"))
        bo.send([("type", .string("join_room")), ("code", .string(code))])
        #expect(bo.next("room")?["room"]?["game"] == .string("quick_pick"))
        // The host may start once every other racer is ready.
        ann.send([("type", .string("start"))])
        #expect(ann.errorCode() == "players_not_ready")
        bo.send([("type", .string("ready")), ("ready", .bool(true))])
        ann.send([("type", .string("start"))])
        let kind = QuickPick()
        for index in 0..<kind.normalQuestionCount {
            for client in [ann, bo] {
                let q = try #require(client.next("question"))
                let prompt = try #require(q["prompt"])
                #expect(prompt["instruction"] == .string("Tap the largest"))
                let options = try #require(prompt["options"]?.array).compactMap(\.integer)
                // Ann taps the largest, Bo the first.
                let pick = client === ann ? options.firstIndex(of: options.max()!)! : 0
                h.advance(by: .seconds(1))
                client.submit("r1q\(index)", answer: .object([("option_index", .int(pick))]))
                let graded = try #require(client.next("graded"))
                #expect(graded["answer"] == .object([("option_index", .int(pick))]))
                #expect(graded["confidence"] == nil)
                #expect(graded["correct"] == .bool(pick == options.firstIndex(of: options.max()!)!))
            }
        }
        let standings = try #require(ann.next("standings"))
        #expect(standings["entries"]?.array?.first?["name"] == .string("Ann"))
        let records = h.sink.records.withLock { $0 }
        #expect(records.count == 2 && records.allSatisfy { $0.game == "quick_pick" && $0.mode == "normal" })
        #expect(ann.next("result_saved")?["game"] == .string("quick_pick"))
    }

    @Test func aTapKindRefusesDrawingAndBadAnswersClearly() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        #expect(ann.startSolo("Ann", game: "quick_pick", mode: "normal") != nil)
        ann.send([("type", .string("points")), ("question", .string("r1q0")), ("stroke", .int(0)),
                  ("points", .array([.array([.int(1), .int(1)])]))])
        #expect(ann.errorCode() == "answer_not_drawn")
        ann.submit("r1q0")
        #expect(ann.errorCode() == "answer_missing")
        ann.submit("r1q0", answer: .object([("option_index", .string("two"))]))
        let bad = try #require(ann.next("error"))
        #expect(bad["code"] == .string("bad_answer"))
        #expect(bad["message"]?.string?.contains("option_index") == true)
        ann.submit("r1q0", answer: .int(2))
        #expect(ann.errorCode() == "bad_answer")
        // Nothing was graded: the same question still takes a good answer.
        ann.submit("r1q0", answer: .object([("option_index", .int(0))]))
        #expect(ann.next("graded") != nil)
    }

    @Test func unknownGamesAndModesAreRefused() throws {
        let h = try HubHarness()
        let ann = h.connect("ann")
        ann.identify("Ann")
        ann.send([("type", .string("create_room")), ("mode", .string("normal")), ("game", .string("chess"))])
        let unknown = try #require(ann.next("error"))
        #expect(unknown["code"] == .string("unknown_game") && unknown["request"] == .string("create_room"))
        ann.send([("type", .string("create_room")), ("mode", .string("survival")), ("game", .string("quick_pick"))])
        #expect(ann.errorCode() == "mode_not_offered")
        // No game named: MindPad, as before.
        #expect(ann.createRoom(mode: "survival") != nil)
        #expect(h.hub.rooms.values.first?.game.identifier == "mindpad")
    }

    @Test func theRegistryIsTheOnlyPlaceAKindIsNamed() {
        let games = HubHarness.games
        #expect(games.games.map(\.identifier) == ["mindpad", "addone"] + KidsGame.all.map(\.identifier) + ["path_finder", "quick_pick"])
        #expect(games.info("addone")?.answerInput == .drawnNumber && games.info("addone")?.playsWithFish == true)
        #expect(games.info("mindpad")?.answerInput == .drawnDigit)
        #expect(games.info("mindpad")?.normalQuestionCount == 10)
        #expect(games.info("quick_pick")?.modes == [.normal, .timeAttack])
        #expect(games.info("path_finder")?.answerInput == .move && games.info("path_finder")?.boardOrder == .lowerFirst)
        #expect(games.info("path_finder")?.modes == [.normal] && games.info("path_finder")?.normalQuestionCount == 1)
        #expect(GameRegistry.isValidIdentifier("quick_pick") && !GameRegistry.isValidIdentifier("Quick") &&
                !GameRegistry.isValidIdentifier("1x") && !GameRegistry.isValidIdentifier(""))
    }
}
