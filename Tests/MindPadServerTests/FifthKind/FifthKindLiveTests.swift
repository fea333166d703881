import Foundation
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// Issue 44's fifth kind: `Tally` (this folder) is registered by one line
/// and raced through the real server (in-process, real PostgreSQL, real
/// sockets). Its detail travels in `finished`, is stored, and comes back
/// through the replay API (with its replay part) and through its own route;
/// its board shows its rank value. No file outside this folder knows it.
@Suite struct FifthKindLiveTests {
    @Test func aKindFromItsOwnFolderRacesStoresAndReadsBackItsDetail() throws {
        let server = try InProcessServer(register: { $0.register(Tally(), routes: [.tallies]) },
                                         configure: { $0.realtime.countdown = .milliseconds(100) })
        defer { server.stop() }
        let port = server.port
        let catalog = try #require(try TestHTTP.request(port: port, path: "/api/games").json()["games"] as? [[String: Any]])
        #expect(catalog.last?["id"] as? String == "tally" && catalog.last?["board_order"] as? String == "lower_first")

        let ann = try RealtimeClient(port: port, label: "ann")
        try ann.identify("Ann")
        try ann.send(["type": "create_room", "game": "tally", "mode": "normal"])
        _ = try ann.next("room")
        try ann.send(["type": "start"])
        let first = try ann.next("question")
        let id = try #require(first["question"] as? String)
        let prompt = try #require(first["prompt"] as? [String: Any])
        let target = try #require(prompt["target"] as? Int)
        #expect(prompt["count"] as? Int == 0)
        // Tap +1 until the counter shows the target: each tap re-sends the question as it stands.
        for n in 1...target {
            try ann.send(["type": "submit", "question": id, "answer": ["option_index": 0]])
            let again = try ann.next("question")
            #expect((again["prompt"] as? [String: Any])?["count"] as? Int == n)
        }
        // An option the game has not is no answer at all.
        try ann.send(["type": "submit", "question": id, "answer": ["option_index": 7]])
        #expect(try ann.error("bad_answer")["request"] as? String == "submit")
        try ann.send(["type": "submit", "question": id, "answer": ["option_index": 1]])
        #expect(try ann.next("graded")["correct"] as? Bool == true)
        let finished = try ann.next("finished")
        let result = try #require(finished["result"] as? [String: Any])
        let race = try #require(result["race"] as? String)
        // The kind's members ride with the result, as the kind wrote them; not its replay part.
        let tally = try #require(result["tally"] as? [String: Any])
        #expect(tally["target"] as? Int == target && tally["count"] as? Int == target && tally["done_ms"] is Int)
        #expect(tally["tap_ms"] == nil)
        #expect(try ann.next("result_saved", timeout: .seconds(10))["stored"] as? String == "database")

        // The replay: the members with the replay part over them.
        let replay = try TestHTTP.request(port: port, path: "/api/races/\(race)").json()
        let racer = try #require((replay["racers"] as? [[String: Any]])?.first)
        let stored = try #require(racer["tally"] as? [String: Any])
        #expect(stored["target"] as? Int == target && stored["done_ms"] as? Int == tally["done_ms"] as? Int)
        let taps = try #require(stored["tap_ms"] as? [Int])
        #expect(taps.count == target && taps == taps.sorted() && (taps.last ?? .max) <= (stored["done_ms"] as? Int ?? -1))
        // Its own route reads its stored detail back.
        let own = try TestHTTP.request(port: port, path: "/api/players/Ann/tallies").json()
        let rounds = try #require(own["rounds"] as? [[String: Any]])
        #expect(rounds.count == 1 && rounds[0]["target"] as? Int == target && rounds[0]["done_ms"] as? Int == tally["done_ms"] as? Int)
        #expect(try TestHTTP.request(port: port, path: "/api/players/Nobody/tallies").status == 404)
        // Its board: lower first, the rank value its score stands for.
        let board = try TestHTTP.request(port: port, path: "/api/leaderboard?game=tally&mode=normal").json()
        let entry = try #require((board["entries"] as? [[String: Any]])?.first)
        let score = try #require(entry["score"] as? Int)
        #expect(entry["name"] as? String == "Ann" && entry["rank_value"] as? Double == Double(score) / 1000)
    }
}
