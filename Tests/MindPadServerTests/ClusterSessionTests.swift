import Foundation
import MindPadTestSupport
import Testing
@testable import MindPadServer

/// One player, one session, cluster-wide, whatever the interleaving (issue
/// 45, item 1): two tabs that reconnect at the same moment after a drain
/// identify as the same player on two instances at once. Real sockets, two
/// instances in-process on one real PostgreSQL.
@Suite(.serialized) struct ClusterSessionTests {
    /// What became of one connection's `identify`.
    enum Outcome: Equatable { case live, replaced, other(String) }

    @Test func concurrentIdentifiesOnTwoInstancesLeaveExactlyOneSessionPerPlayer() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let (pa, aPort) = try ServerProcess.serve(databaseURL: db.url, environment: ["MINDPAD_INSTANCE": "i1"])
        let (pb, bPort) = try ServerProcess.serve(databaseURL: db.url, environment: ["MINDPAD_INSTANCE": "i2"])
        defer { _ = pa.stop(); _ = pb.stop() }
        struct P { let port: Int }
        let a = P(port: aPort), b = P(port: bPort)

        let pairs = Int(ProcessInfo.processInfo.environment["PAIRS"] ?? "") ?? 200
        // Every player exists first, with a token (as after a drain close).
        var tokens: [String] = []
        for i in 0..<pairs {
            let first = try RealtimeClient(port: i % 2 == 0 ? a.port : b.port, label: "reg\(i)")
            tokens.append(try #require(try first.identify("Twin\(i)")["token"] as? String))
            first.dropConnection()
        }
        // Two connections per player, one on each instance, every identify
        // sent at once (each pair's two in alternating order).
        var onA: [RealtimeClient] = [], onB: [RealtimeClient] = []
        for i in 0..<pairs {
            onA.append(try RealtimeClient(port: a.port, label: "a\(i)"))
            onB.append(try RealtimeClient(port: b.port, label: "b\(i)"))
        }
        // Pair after pair, each pair's two identifies sent at once (in
        // alternating order), so that both instances race for that player.
        for i in 0..<pairs {
            let identify: [String: Any] = ["type": "identify", "name": "Twin\(i)", "token": tokens[i]]
            let order = i % 2 == 0 ? [onA[i], onB[i]] : [onB[i], onA[i]]
            for client in order { try client.send(identify) }
            // Each identify ends: identified, or replaced by the other (4001).
            for client in order {
                let first = try client.next(oneOf: ["identified", "error"], timeout: .seconds(20))
                if first["type"] as? String == "error" {
                    #expect(first["code"] as? String == "replaced", "\(client.label): \(first)")
                    #expect(try client.waitForClose(timeout: .seconds(10)) == 4001, "\(client.label)")
                }
            }
        }
        // Both instances have acted on every announcement made so far once
        // each has replaced a sentinel's session because of an announcement
        // made after them all (notifications arrive in commit order).
        let s1 = try RealtimeClient(port: a.port, label: "s1")
        let sentinel = try #require(try s1.identify("Sentinel")["token"] as? String)
        let s2 = try RealtimeClient(port: b.port, label: "s2")
        try s2.identify("Sentinel", token: sentinel)
        #expect(try s1.waitForClose(timeout: .seconds(10)) == 4001)
        let s3 = try RealtimeClient(port: a.port, label: "s3")
        try s3.identify("Sentinel", token: sentinel)
        #expect(try s2.waitForClose(timeout: .seconds(10)) == 4001)

        // A live session answers; a replaced one is closed (its close frame
        // may still be on its way, so each is asked and waited for).
        var outcomes: [(Outcome, Outcome)] = []
        for i in 0..<pairs { outcomes.append((try Self.outcome(of: onA[i]), try Self.outcome(of: onB[i]))) }
        let both = outcomes.indices.filter { outcomes[$0] == (.live, .live) }
        let neither = outcomes.indices.filter { outcomes[$0] == (.replaced, .replaced) }
        let odd = outcomes.indices.filter { [outcomes[$0].0, outcomes[$0].1].contains { if case .other = $0 { true } else { false } } }
        #expect(both.isEmpty, "\(both.count) of \(pairs) players kept two live sessions: \(both.prefix(10))")
        #expect(neither.isEmpty, "\(neither.count) of \(pairs) players were left with none: \(neither.prefix(10))")
        #expect(odd.isEmpty, "\(odd.map { outcomes[$0] }.prefix(5))")
    }

    /// A claim made while an instance's listener was reconnecting was never
    /// announced to it: once it listens again it reads the latest claims of
    /// its players and closes the sessions they overtook.
    @Test func aClaimMissedWhileTheListenerWasAwayIsFoundWhenItListensAgain() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let a = try ClusterNode("i1", db)
        defer { a.stop() }
        try waitFor("listening") { a.app.clusterListenCount == 1 }
        let ann = try RealtimeClient(port: a.port, label: "Ann")
        let token = try #require(try ann.identify("Ann")["token"] as? String)
        let annAgain = try RealtimeClient(port: a.port, label: "Ann again")
        try annAgain.identify("Ann", token: token)
        #expect(try ann.waitForClose() == 4001)
        let connection = try db.connect()
        #expect(try connection.query("SELECT generation FROM player_sessions").value("generation") == "1")
        // Another instance's claim, its announcement lost (no listener heard it).
        try connection.query("UPDATE player_sessions SET generation = generation + 1, instance = 'i2'")
        try annAgain.send(["type": "leave_room"])
        try annAgain.error("not_in_room")
        // i1's listening backend ends; listening again, i1 finds the claim.
        try connection.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mindpad-listen-i1' AND datname = current_database()")
        #expect(try annAgain.error("replaced", timeout: .seconds(10))["message"] as? String == "You signed in on another connection.")
        #expect(try annAgain.waitForClose() == 4001)
        #expect(a.app.clusterListenCount == 2)
    }

    /// Whether `client`'s session is live (it answers a message) or was
    /// replaced (closed with 4001).
    static func outcome(of client: RealtimeClient) throws -> Outcome {
        if let close = client.closeFrame { return close.code == 4001 ? .replaced : .other("closed \(String(describing: close))") }
        try? client.send(["type": "leave_room"])
        do {
            try client.error("not_in_room", timeout: .seconds(10))
            return .live
        } catch {
            let close = try? client.waitForClose(timeout: .seconds(5))
            return close == 4001 ? .replaced : .other("\(client.label): \(error); close \(String(describing: close))")
        }
    }
}
