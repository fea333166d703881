import Foundation
import MindPadTestSupport
import Testing

/// `GET /metrics` on the real binary: the series operators scrape, with
/// values that follow what a client just did.
@Suite(.serialized) struct MetricsEndpointTests {
    /// The value of the first sample of `name` whose labels include every one of `labels`.
    static func sample(_ text: String, _ name: String, _ labels: [String] = []) -> Double? {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count >= 2 else { continue }
            let series = parts[0]
            let bare = series.split(separator: "{", maxSplits: 1).first.map(String.init) ?? ""
            guard bare == name, labels.allSatisfy({ series.contains($0) }) else { continue }
            return Double(parts[1])
        }
        return nil
    }

    @Test func scrapeHoldsEverySeries() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer(timeAttackSeconds: "60")
        defer { _ = server.stop(); db.drop() }

        let ann = try RealtimeClient(port: port, label: "ann")
        try ann.identify("MetricsAnn")
        _ = try ann.createRoom(mode: "time_attack", maxPlayers: 1)
        try ann.send(["type": "ready", "ready": true])
        try ann.send(["type": "start"])
        let question = try ann.next("question", timeout: .seconds(5))
        _ = try ann.answer(expectedDigit(question), question: question["question"] as! String)
        try ann.sendText("not json")
        try ann.error("bad_json")
        #expect(try TestHTTP.request(port: port, path: "/api/leaderboard?mode=normal").status == 200)
        #expect(try TestHTTP.request(port: port, path: "/api/leaderboard?mode=chess").status == 400)
        #expect(try TestHTTP.request(port: port, path: "/api/nothing").status == 404)

        let response = try TestHTTP.request(port: port, path: "/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: response.body, as: UTF8.self)

        #expect(Self.sample(text, "mindpad_connections") == 1)
        #expect(Self.sample(text, "mindpad_rooms") == 1)
        #expect(Self.sample(text, "mindpad_races_running") == 1)
        #expect(Self.sample(text, "mindpad_journal_backlog") == 0)
        #expect(Self.sample(text, "mindpad_recognition_backlog") != nil)
        #expect(Self.sample(text, "mindpad_messages_in_total", [#"type="identify""#]) == 1)
        #expect(Self.sample(text, "mindpad_messages_in_total", [#"type="submit""#]) == 1)
        #expect((Self.sample(text, "mindpad_messages_in_total", [#"type="points""#]) ?? 0) >= 1)
        #expect(Self.sample(text, "mindpad_messages_in_total", [#"type="invalid""#]) == 1)
        #expect(Self.sample(text, "mindpad_messages_out_total", [#"type="welcome""#]) == 1)
        #expect(Self.sample(text, "mindpad_messages_out_total", [#"type="graded""#]) == 1)
        #expect((Self.sample(text, "mindpad_messages_out_total", [#"type="guess""#]) ?? 0) >= 1)
        #expect(Self.sample(text, "mindpad_errors_total", [#"code="bad_json""#, #"transport="ws""#]) == 1)
        #expect(Self.sample(text, "mindpad_errors_total", [#"code="unknown_mode""#, #"transport="http""#]) == 1)
        #expect(Self.sample(text, "mindpad_errors_total", [#"code="not_found""#, #"transport="http""#]) == 1)
        // The live guess was read; the submission was read too, or graded
        // from the live guess's reading when the drawing had not changed since.
        let readings = Self.sample(text, "mindpad_recognition_seconds_count") ?? 0
        #expect(readings >= 1)
        #expect(readings + (Self.sample(text, "mindpad_recognition_reused_total") ?? -1) >= 2)
        #expect(Self.sample(text, "mindpad_recognition_wait_seconds_count") == readings)
        #expect(Self.sample(text, "mindpad_recognition_seconds_bucket", [#"le="+Inf""#]) != nil)
        #expect(Self.sample(text, "mindpad_db_query_seconds_count", [#"operation="scores_api""#]) == 1)
        #expect(text.contains("# TYPE mindpad_recognition_seconds histogram"))
        // The service thread's lag heartbeat beats every 50 ms from the start.
        #expect((Self.sample(text, "mindpad_service_lag_seconds_count") ?? 0) >= 1)

        // The gauges follow live state: the room goes when its last member leaves.
        try ann.send(["type": "leave_room"])
        _ = try ann.next("left_room")
        _ = try server.waitForLine(containing: "room closed")
        let after = String(decoding: try TestHTTP.request(port: port, path: "/metrics").body, as: UTF8.self)
        #expect(Self.sample(after, "mindpad_rooms") == 0)
        #expect(Self.sample(after, "mindpad_races_running") == 0)
        // Leaving stored the run: one result, journaled in one fsync and
        // written in one batch, all timed.
        // The write finishes on a database worker after the room closed, and
        // the journal's fsync beside it (either may end first: the batch
        // starts when the journal group forms, not after its fsync), so
        // scrape until both show (5 s at most).
        var stored = after
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.sample(stored, "mindpad_db_query_seconds_count", [#"operation="record_result""#]) != 1
                || Self.sample(stored, "mindpad_db_query_seconds_count", [#"operation="journal_commit""#]) != 1,
              ContinuousClock.now < deadline {
            stored = String(decoding: try TestHTTP.request(port: port, path: "/metrics").body, as: UTF8.self)
        }
        #expect(Self.sample(stored, "mindpad_db_query_seconds_count", [#"operation="record_result""#]) == 1)
        #expect(Self.sample(stored, "mindpad_db_query_seconds_count", [#"operation="record_results_batch""#]) == 1)
        // One group commit of the journal, beside the batch.
        #expect(Self.sample(stored, "mindpad_db_query_seconds_count", [#"operation="journal_commit""#]) == 1)
        #expect(Self.sample(stored, "mindpad_result_batch_size_count") == 1)
        #expect(Self.sample(stored, "mindpad_result_batch_size_sum") == 1)
        #expect(try TestHTTP.request(port: port, method: "POST", path: "/metrics").status == 405)
    }

    @Test func connectionLimitRefusesTheOneTooMany() throws {
        let (db, server, port) = try RealtimeLiveTests.startServer(environment: ["MINDPAD_MAX_CONNECTIONS": "2"])
        defer { _ = server.stop(); db.drop() }
        let a = try RealtimeClient(port: port, label: "a")
        let b = try RealtimeClient(port: port, label: "b")
        let c = try RealtimeClient(port: port, label: "c", expectWelcome: false)
        #expect(try c.waitForClose() == 1013)
        try a.identify("LimitA")
        try b.identify("LimitB")
        let text = String(decoding: try TestHTTP.request(port: port, path: "/metrics").body, as: UTF8.self)
        #expect(Self.sample(text, "mindpad_connections_refused_total", [#"reason="max_connections""#]) == 1)
        #expect(Self.sample(text, "mindpad_connections") == 2)
    }
}
