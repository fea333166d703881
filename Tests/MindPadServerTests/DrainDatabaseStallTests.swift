import Foundation
import MindPadServer
import MindPadStorage
import MindPadTestSupport
import Testing

/// A drain while PostgreSQL is away (issue 45, item 2). A drained instance
/// is done only once PostgreSQL has every result it finished: it waits for
/// the database within the drain's bound and then exits 0, or exits 75 and
/// says loudly how many results are left and in which journal. Before, it
/// exited 0 at once with its results only in the journal.
@Suite(.serialized) struct DrainDatabaseStallTests {
    /// A process instance of a cluster whose player has just finished a
    /// Survival race while PostgreSQL is frozen or stopped (`away`): the
    /// result is journaled and the player told so.
    private func finishedWhileAway(_ cluster: PrivateCluster, drainSeconds: Int, away: () throws -> Void)
        throws -> (server: ServerProcess, player: String, dataDir: URL) {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("mindpad-drainstall-\(UUID().uuidString)")
        let (server, port) = try ServerProcess.serve(
            databaseURL: cluster.url, extraArguments: ["--data-dir", dataDir.path],
            environment: ["MINDPAD_INSTANCE": "i1", "LOG_LEVEL": "debug", "MINDPAD_COUNTDOWN_SECONDS": "0",
                          "MINDPAD_DRAIN_SECONDS": "\(drainSeconds)"])
        try server.waitForLine(containing: "registered in the cluster")
        try server.waitForLine(containing: "handling signals")
        let sam = try RealtimeClient(port: port, label: "Sam")
        let player = try #require((try sam.identify("Sam")["player_id"] as? String)?.dropFirst()).description
        _ = try sam.createRoom(mode: "survival")
        try sam.send(["type": "start"])
        let question = try sam.next("question", timeout: .seconds(10))
        try away()
        // One miss ends a Survival race.
        try sam.send(["type": "submit", "question": question["question"] as! String,
                      "answer": "\((expectedDigit(question) + 1) % 10)"])
        try sam.next("finished", timeout: .seconds(10))
        #expect(try sam.next("result_saved", timeout: .seconds(10))["stored"] as? String == "journal")
        #expect(try ResultJournal(directory: dataDir).pending().count == 1)
        return (server, player, dataDir)
    }

    @Test func aDrainDuringADatabaseStallWaitsForItAndStoresTheResult() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let (server, player, dataDir) = try finishedWhileAway(cluster, drainSeconds: 60) { try cluster.freeze() }
        defer { try? FileManager.default.removeItem(at: dataDir) }
        kill(server.process.processIdentifier, SIGUSR1)
        // The rooms ended; the drain waits for the database rather than exit.
        let waiting = try server.waitForLine(containing: "waiting for the database to store the journaled results", timeout: .seconds(15))
        #expect(waiting.contains("results=1") && waiting.contains(dataDir.path))
        #expect(server.process.isRunning)
        cluster.thaw()
        let exit = server.waitForExit(timeout: .seconds(30))
        #expect(exit == 0, "exit status \(String(describing: exit))\n\(server.output)")
        let stored = try PostgresConnection(connectionString: cluster.url)
            .query("SELECT count(*) AS n FROM game_results WHERE player_id = \(player)::bigint")
        #expect(stored.value("n") == "1")
        #expect(try ResultJournal(directory: dataDir).pending().isEmpty)
        #expect(!server.output.contains("DRAIN INCOMPLETE"))
    }

    @Test func aDrainWhoseDatabaseStaysDownExitsNonZeroAndSaysWhatIsLeftWhere() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let (server, player, dataDir) = try finishedWhileAway(cluster, drainSeconds: 1) { try cluster.stop() }
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let signalled = ContinuousClock.now
        kill(server.process.processIdentifier, SIGUSR1)
        let exit = server.waitForExit(timeout: .seconds(30))
        // The bound (1 s) has passed, but a drain gives the database 5 s after its rooms ended.
        #expect(ContinuousClock.now - signalled >= .seconds(5))
        #expect(exit == DrainIncomplete.exitCode, "exit status \(String(describing: exit))\n\(server.output)")
        let loud = try #require(server.output.split(separator: "\n").first { $0.contains("DRAIN INCOMPLETE") })
        #expect(loud.contains("critical") && loud.contains("results=1") && loud.contains(dataDir.appendingPathComponent("results.journal").path))
        let pending = try ResultJournal(directory: dataDir).pending()
        #expect(pending.count == 1)
        #expect(loud.contains(pending[0].resultID))
        // Started again on the same data directory with PostgreSQL up, an instance writes it.
        try cluster.start()
        let (again, _) = try ServerProcess.serve(databaseURL: cluster.url, extraArguments: ["--data-dir", dataDir.path],
                                                 environment: ["LOG_LEVEL": "debug"])
        defer { _ = again.stop() }
        try waitFor("the journal replayed", timeout: .seconds(15)) {
            try PostgresConnection(connectionString: cluster.url)
                .query("SELECT count(*) AS n FROM game_results WHERE player_id = \(player)::bigint").value("n") == "1"
        }
    }

    /// An operator's SIGTERM while a drained instance waits for the
    /// database ends the wait at once: the same loud exit, not the bound.
    @Test func sigtermEndsADrainsWaitForTheDatabase() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let (server, _, dataDir) = try finishedWhileAway(cluster, drainSeconds: 600) { try cluster.stop() }
        defer { try? FileManager.default.removeItem(at: dataDir) }
        kill(server.process.processIdentifier, SIGUSR1)
        try server.waitForLine(containing: "waiting for the database to store the journaled results", timeout: .seconds(15))
        let signalled = ContinuousClock.now
        kill(server.process.processIdentifier, SIGTERM)
        let exit = server.waitForExit(timeout: .seconds(30))
        #expect(ContinuousClock.now - signalled < .seconds(10), "the wait went on after SIGTERM")
        #expect(exit == DrainIncomplete.exitCode, "exit status \(String(describing: exit))\n\(server.output)")
        #expect(server.output.contains("DRAIN INCOMPLETE"))
        #expect(try ResultJournal(directory: dataDir).pending().count == 1)
    }
}

