import Foundation
import MindPadStorage
import MindPadTestSupport
import Synchronization
import Testing

/// The realtime protocol against the real `mindpad serve` binary, real
/// WebSockets and a real PostgreSQL. Waits are for messages, with deadlines.
@Suite(.serialized) struct RealtimeLiveTests {
    /// A server with short races: Time Attack 6 s, a 0.3 s countdown.
    static func startServer(timeAttackSeconds: String = "6", environment: [String: String] = [:])
        throws -> (ScratchDatabase, ServerProcess, Int) {
        let db = try ScratchDatabase()
        let env = ["MINDPAD_TIME_ATTACK_SECONDS": timeAttackSeconds, "MINDPAD_COUNTDOWN_SECONDS": "0.3"]
            .merging(environment) { _, b in b }
        let (server, port) = try ServerProcess.serve(databaseURL: db.url, environment: env)
        return (db, server, port)
    }

    struct RaceSummary: Sendable {
        var graded: [(correct: Bool, drawn: Int, read: Int)] = []
        var standings: [[String: String]] = []
        var progressCount = 0
        var guesses = 0
        var finishedScore: Int?
    }

    /// Answers every question it gets until the standings arrive: digit
    /// `wrong(i)` is drawn deliberately wrong for question i.
    static func race(_ client: RealtimeClient, wrong: @escaping (Int) -> Bool, timeout: Duration = .seconds(30)) throws -> RaceSummary {
        var summary = RaceSummary()
        let deadline = ContinuousClock.now + timeout
        var answered = 0
        while ContinuousClock.now < deadline {
            if let standings = client.inbox.first(where: { $0["type"] as? String == "standings" }) {
                summary.standings = (standings["entries"] as! [[String: Any]]).map { e in
                    ["name": e["name"] as! String, "rank": "\(e["rank"]!)", "score": "\(e["score"]!)", "completed": (e["completed"] as? Bool) == true ? "true" : "false"]
                }
                break
            }
            guard let question = try? client.next("question", timeout: .milliseconds(200)) else {
                // No question: the race may be ending; standings arrive soon.
                if let standings = try? client.next("standings", timeout: .milliseconds(200)) { client.inboxPutBack(standings) }
                continue
            }
            let id = question["question"] as! String
            let expected = expectedDigit(question)
            let digit = wrong(answered) ? (expected + 1) % 10 : expected
            answered += 1
            let total = try client.draw(digit, question: id, waitForGuess: false)["points"] as? Int ?? 0
            // The live guess covering every point, unless the race ended first.
            let seen = try client.next(oneOf: ["guess", "finished"], timeout: .seconds(5)) {
                $0["type"] as? String == "finished" || ($0["question"] as? String == id && $0["points"] as? Int == total)
            }
            if seen["type"] as? String == "finished" { client.inboxPutBack(seen); continue }
            summary.guesses += 1
            try client.send(["type": "submit", "question": id])
            // Graded, or refused because the race ended meanwhile.
            let reply = try client.next(oneOf: ["graded", "error"], timeout: .seconds(5)) {
                $0["question"] as? String == id || $0["request"] as? String == "submit"
            }
            if reply["type"] as? String == "graded" {
                summary.graded.append((reply["correct"] as! Bool, digit, reply["answer"] as! Int))
            } else {
                #expect(reply["code"] as? String == "race_over")
            }
        }
        summary.progressCount = client.log.filter { $0.message["type"] as? String == "progress" }.count
        summary.finishedScore = (client.log.last { $0.message["type"] as? String == "finished" }?.message["result"] as? [String: Any])?["score"] as? Int
        return summary
    }

    @Test func twoPlayersRaceAFullTimeAttack() throws {
        let (db, server, port) = try Self.startServer()
        defer { db.drop(); _ = server.stop() }

        let ann = try RealtimeClient(port: port, label: "ann")
        let annID = try ann.identify("Ann")
        #expect(annID["new"] as? Bool == true)
        #expect((annID["token"] as? String)?.count ?? 0 >= 32)
        let code = try ann.createRoom(mode: "time_attack")
        #expect(code.count == 4)

        let bo = try RealtimeClient(port: port, label: "bo")
        try bo.identify("Bo")
        let joined = try bo.join(code.lowercased())
        let members = (joined["room"] as! [String: Any])["members"] as! [[String: Any]]
        #expect(members.map { $0["name"] as! String } == ["Ann", "Bo"])
        #expect(members.map { $0["role"] as! String } == ["racer", "racer"])
        try ann.next("room_updated") { (($0["room"] as! [String: Any])["members"] as! [Any]).count == 2 }

        // Only the host starts.
        try bo.send(["type": "start"])
        try bo.error("not_host")
        // The host waits until every other racer is ready.
        try ann.send(["type": "start"])
        #expect(try ann.error("players_not_ready")["message"] as? String == "Waiting for: Bo.")
        try bo.ready(seenBy: ann)
        try ann.send(["type": "start"])
        for client in [ann, bo] {
            let countdown = try client.next("countdown")
            #expect((countdown["starts_in_ms"] as! Int) <= 300)
            let started = try client.next("race_started")
            #expect(started["mode"] as? String == "time_attack")
            #expect((started["ends_in_ms"] as! Int) > 5_000)
        }

        // Both race at once; Bo draws every third answer wrong.
        let results = Mutex<[Int: RaceSummary]>([:])
        let failures = Mutex<[String]>([])
        let clients = [ann, bo]
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            do {
                let summary = try Self.race(clients[i], wrong: { i == 1 && $0 % 3 == 2 })
                results.withLock { $0[i] = summary }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let annRun = try #require(results.withLock { $0[0] })
        let boRun = try #require(results.withLock { $0[1] })

        // The server read every drawing as the digit drawn.
        for run in [annRun, boRun] {
            #expect(run.graded.count >= 3)
            #expect(run.graded.allSatisfy { $0.drawn == $0.read })
        }
        let annScore = annRun.graded.filter(\.correct).count
        let boScore = boRun.graded.filter(\.correct).count
        #expect(annScore == annRun.graded.count)
        #expect(boScore < boRun.graded.count)
        #expect(annRun.finishedScore == annScore)
        #expect(boRun.finishedScore == boScore)

        // Same standings for both, right scores, right order.
        #expect(annRun.standings == boRun.standings)
        let standings = annRun.standings
        #expect(standings.count == 2)
        let byName = Dictionary(uniqueKeysWithValues: standings.map { ($0["name"]!, $0) })
        #expect(byName["Ann"]?["score"] == "\(annScore)")
        #expect(byName["Bo"]?["score"] == "\(boScore)")
        #expect(standings.allSatisfy { $0["completed"] == "true" })
        let winner = annScore >= boScore ? "Ann" : "Bo"  // a tie goes to whoever got there first; Ann never misses
        if annScore != boScore { #expect(standings.first?["name"] == winner) }

        // Progress is coalesced: a 6 s race at ≤ 5 Hz is at most ~32 broadcasts.
        for run in [annRun, boRun] {
            #expect(run.progressCount >= 3)
            #expect(run.progressCount <= 34)
        }

        // The results reached PostgreSQL, each told after its `finished`
        // (the database write runs beside the journal's fsync; the wire
        // order stays durable first, then stored).
        for client in [ann, bo] {
            let saved = try client.next("result_saved", timeout: .seconds(5))
            #expect(saved["stored"] as? String == "database")
            let order = client.log.map { $0.message["type"] as? String ?? "" }.filter { $0 == "finished" || $0 == "result_saved" }
            #expect(order == ["finished", "result_saved"])
        }
        let rows = try db.connect().query("SELECT count(*) AS n FROM game_results WHERE mode = 'time_attack'").value("n")
        #expect(rows == "2")

        // After the race: answers are refused, a rematch goes back to the lobby.
        let lastQuestion = "r1q\(annRun.graded.count)"
        try ann.send(["type": "submit", "question": lastQuestion])
        let late = try ann.next("error") { $0["request"] as? String == "submit" }
        #expect(["race_over", "stale_question", "unsent_question"].contains(late["code"] as? String ?? ""))
        try ann.send(["type": "rematch"])
        try bo.next("room_updated") { (($0["room"] as! [String: Any])["phase"] as? String) == "lobby" && (($0["room"] as! [String: Any])["round"] as? Int) == 2 }
    }
}

extension RealtimeClient {
    /// Puts a message back in the inbox (used when a wait took one it did not need).
    func inboxPutBack(_ message: Message) {
        inboxInsert(message)
    }
}
