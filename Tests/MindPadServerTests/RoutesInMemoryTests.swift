import Foundation
import MindPadHTTP
import Testing
@testable import MindPadServer

/// The HTTP routes without a socket (issue 44, item 5): each request goes
/// to `GameServer.handle` as the transport hands it, on a real PostgreSQL.
/// What the routes decide (status, error codes, Allow, the kinds' own
/// resources, names as sent) is checked here in milliseconds; the live
/// suites keep what only a socket shows (framing, keep-alive, limits).
@Suite struct RoutesInMemoryTests {
    @Test func theCatalogUnknownPathsAndMethodsNotAllowed() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        let games = try h.call(.get, "/api/games")
        #expect(games.status == 200)
        let entries = try #require(try games.json()["games"] as? [[String: Any]])
        #expect(entries.count == GameRegistry.standard.games.count)
        #expect(entries.filter { $0["group"] as? String == "kids" }.count == 9)
        let post = try h.call(.post, "/api/games")
        #expect(post.status == 405 && post.header("allow")?.contains("GET") == true)
        let unknown = try h.call(.get, "/api/nothing/here")
        #expect(try unknown.status == 404 && (try unknown.json()["error"] as? String) == "not_found")
        #expect(try h.call(.get, "/healthz").status == 200)
    }

    @Test func aPlayerRegistersAndTheirPagesAreServedByTheNameAsSent() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        // A name that looks like SQL is only ever a name.
        let name = "Bo'; DROP TABLE x"
        let created = try h.call(.post, "/api/players", headers: ["content-type": "application/json"],
                                 body: #"{"name":"小明"}"#)
        #expect(try created.status == 201 && (try created.json()["token"] as? String)?.count == 64)
        let profile = try h.call(.get, "/api/players/%E5%B0%8F%E6%98%8E")
        #expect(try profile.status == 200 && (try profile.json()["name"] as? String) == "小明")
        let refused = try h.call(.post, "/api/players", headers: ["content-type": "application/json"],
                                 body: #"{"name":"\#(name)"}"#)
        #expect(refused.status == 400)
        #expect(try h.call(.get, "/api/players/Nobody").status == 404)
        // The path finder's own resource, registered with it.
        let rounds = try h.call(.get, "/api/players/%E5%B0%8F%E6%98%8E/path_rounds")
        #expect(try rounds.status == 200 && (try rounds.json()["rounds"] as? [Any])?.isEmpty == true)
        #expect(try h.call(.get, "/api/players/Nobody/path_rounds").status == 404)
        #expect(try h.call(.post, "/api/players/%E5%B0%8F%E6%98%8E/path_rounds").status == 405)
    }

    @Test func boardsRefuseWhatNoGameOffersBeforeAnyQuery() throws {
        let h = try RouteHarness()
        defer { h.stop() }
        let unknownGame = try h.call(.get, "/api/leaderboard?game=chess&mode=normal")
        #expect(try unknownGame.status == 400 && (try unknownGame.json()["error"] as? String) == "unknown_game")
        #expect(try h.call(.get, "/api/leaderboard?game=kids_counting&mode=survival").status == 400)
        let board = try h.call(.get, "/api/leaderboard?game=path_finder&mode=normal&period=all")
        #expect(board.status == 200)
    }

    @Test func theOperatorsRoutesWantTheToken() throws {
        let h = try RouteHarness(adminToken: "route-token")
        defer { h.stop() }
        #expect(try h.call(.post, "/api/admin/reset", body: #"{"scope":"all"}"#).status == 401)
        #expect(try h.call(.post, "/api/admin/reset", headers: ["authorization": "Bearer wrong"], body: #"{"scope":"all"}"#).status == 401)
        let reset = try h.call(.post, "/api/admin/reset", headers: ["authorization": "Bearer route-token", "content-type": "application/json"],
                               body: #"{"scope":"all"}"#)
        #expect(try reset.status == 200 && (try reset.json()["scope"] as? String) == "all")
        // A single instance does not drain.
        #expect(try h.call(.post, "/api/admin/drain", headers: ["authorization": "Bearer route-token"]).status == 409)
    }
}
