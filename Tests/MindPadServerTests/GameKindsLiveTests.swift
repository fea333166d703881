import Foundation
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// A second game kind, registered only here, raced through the real server:
/// the application started in-process with one more registration line, a
/// real PostgreSQL, real sockets, and its own leaderboard over HTTP.
@Suite struct GameKindsLiveTests {
    @Test func aToyKindRacesThroughTheRealServerOntoItsOwnLeaderboard() throws {
        let server = try InProcessServer(register: { $0.register(QuickPick()) },
                                         configure: { $0.realtime.countdown = .milliseconds(100) })
        defer { server.stop() }
        let port = server.port

        // The catalog lists both games.
        let catalog = try TestHTTP.request(port: port, path: "/api/games").json()
        let ids = (catalog["games"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == ["mindpad", "addone", "kids_counting", "kids_comparing", "kids_colours", "kids_positions",
                        "kids_classifying", "kids_addition", "kids_subtraction", "kids_multiplication", "kids_division", "path_finder",
                        "quick_pick"])
        // Games with levels list them and their pass mark; others do not.
        let catalogEntries = try #require(catalog["games"] as? [[String: Any]])
        let counting = try #require(catalogEntries.first { $0["id"] as? String == "kids_counting" })
        #expect(counting["answer_input"] as? String == "choice_or_digit" && counting["pass_mark"] as? Int == 8)
        let levels = try #require(counting["levels"] as? [[String: Any]])
        #expect(levels.count == 6 && levels.first?["level"] as? Int == 1)
        #expect((levels.first?["name"] as? [String: String]) == ["en": "Ant", "zh": "蚂蚁"])
        #expect((levels.last?["name"] as? [String: String])?["en"] == "Fox")
        let mindpadEntry = try #require(catalogEntries.first { $0["id"] as? String == "mindpad" })
        #expect(mindpadEntry["levels"] == nil && mindpadEntry["pass_mark"] == nil)
        // A client finds a game's module by its id, else by its group: the kids' nine are one group, the rest none.
        let grouped = catalogEntries.filter { $0["group"] != nil }
        #expect(grouped.count == 9 && grouped.allSatisfy { $0["group"] as? String == "kids" })
        #expect(mindpadEntry["group"] == nil)
        // Only the Fish game's racers bring a fish.
        let fishGames = catalogEntries.filter { $0["plays_with_fish"] as? Bool == true }.compactMap { $0["id"] as? String }
        #expect(fishGames == ["addone"])
        #expect(catalogEntries.allSatisfy { $0["plays_with_fish"] is Bool })

        let ann = try RealtimeClient(port: port, label: "ann")
        let bo = try RealtimeClient(port: port, label: "bo")
        try ann.identify("Ann")
        try bo.identify("Bo")
        try ann.send(["type": "create_room", "game": "quick_pick", "mode": "normal"])
        let room = try ann.next("room")
        #expect((room["room"] as? [String: Any])?["game"] as? String == "quick_pick")
        try bo.join(room["code"] as! String)
        try bo.send(["type": "ready", "ready": true])
        try ann.next("room_updated") { (($0["room"] as? [String: Any])?["members"] as? [[String: Any]])?.last?["ready"] as? Bool == true }
        try ann.send(["type": "start"])
        for index in 0..<QuickPick().normalQuestionCount {
            for client in [ann, bo] {
                let question = try client.next("question")
                let options = (question["prompt"] as! [String: Any])["options"] as! [Int]
                let best = options.firstIndex(of: options.max()!)!
                // Ann always right, Bo right only on the first question.
                let pick = client === ann || index == 0 ? best : (best + 1) % 3
                try client.send(["type": "submit", "question": "r1q\(index)", "answer": ["option_index": pick]])
                let graded = try client.next("graded")
                #expect(graded["correct"] as? Bool == (pick == best))
            }
        }
        let standings = try ann.next("standings")
        let names = (standings["entries"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Ann", "Bo"])
        for client in [ann, bo] {
            let saved = try client.next("result_saved", timeout: .seconds(10))
            #expect(saved["game"] as? String == "quick_pick" && saved["stored"] as? String == "database")
        }

        // Its own board: both players there, MindPad's board empty.
        let board = try TestHTTP.request(port: port, path: "/api/leaderboard?game=quick_pick&mode=normal").json()
        #expect(board["game"] as? String == "quick_pick")
        let entries = (board["entries"] as? [[String: Any]]) ?? []
        #expect(entries.compactMap { $0["name"] as? String } == ["Ann", "Bo"])
        #expect((entries.first?["score"] as? Int ?? 0) > (entries.last?["score"] as? Int ?? 0))
        let mindpad = try TestHTTP.request(port: port, path: "/api/leaderboard?mode=normal").json()
        #expect((mindpad["entries"] as? [[String: Any]])?.isEmpty == true)
        // A mode the game does not offer is refused; the profile says which game.
        #expect(try TestHTTP.request(port: port, path: "/api/leaderboard?game=quick_pick&mode=survival").status == 400)
        let profile = try TestHTTP.request(port: port, path: "/api/players/Ann?game=quick_pick").json()
        #expect(profile["game"] as? String == "quick_pick")
        #expect(((profile["highscores"] as? [String: Any])?["normal"] as? [String: Any])?["score"] as? Int ?? 0 > 0)
        #expect((profile["recent"] as? [[String: Any]])?.count == 1)
    }

    /// A kind's own resource under `/api` is registered with it and nowhere
    /// else (issue 44): answered, its methods checked (405 with Allow), the
    /// player's name captured as sent; without the kind, 404.
    @Test func aToyKindsOwnRouteIsServedBesideItAndNowhereElse() throws {
        struct Echo: Encodable { let game: String; let name: String }
        let echo = APIRoute(pattern: ["quick_pick", "{name}", "echo"], allowed: [.get]) { api, captured, _, responder in
            responder.respond(.json(200, Echo(game: api.games.info("quick_pick")?.identifier ?? "", name: captured[0])))
        }
        let server = try InProcessServer(register: { $0.register(QuickPick(), routes: [echo]) })
        defer { server.stop() }
        let got = try TestHTTP.request(port: server.port, path: "/api/quick_pick/%E5%B0%8F%20Ann/echo")
        #expect(got.status == 200)
        #expect(try got.json() as? [String: String] == ["game": "quick_pick", "name": "小 Ann"])
        let post = try TestHTTP.request(port: server.port, method: "POST", path: "/api/quick_pick/Ann/echo")
        #expect(post.status == 405 && post.headers["allow"]?.contains("GET") == true)
        #expect(try TestHTTP.request(port: server.port, path: "/api/quick_pick/Ann/other").status == 404)
        // The path finder's route comes with the path finder.
        #expect(GameRegistry.standard.routes.map(\.pattern) == [["players", "{name}", "path_rounds"]])
        let plain = try InProcessServer(register: { $0.register(QuickPick()) })
        defer { plain.stop() }
        #expect(try TestHTTP.request(port: plain.port, path: "/api/quick_pick/Ann/echo").status == 404)
    }
}
