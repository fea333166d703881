import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// Migration 0018 on a database that holds the path finder's rounds in
/// `path_rounds` (0009, 0016): every round moves into its result's detail,
/// times from the race start, its route into the replay part, nothing
/// lost; the table goes.
@Suite struct ResultDetailMigrationTests {
    @Test func pathRoundsBecomeTheirResultsDetail() throws {
        let db = try ScratchDatabase()
        defer { db.drop() }
        let all = try MigrationFile.load(from: ServerProcess.projectRoot.appendingPathComponent("Migrations"))
        let connection = try db.connect()
        _ = try Migrator(files: all.filter { $0.version < 18 }).migrate(on: connection)
        // A finished round with its route (race started 12:00:00, grid shown
        // 2.5 s in, goal 14.25 s in, stored at 14.3 s), one left, one from
        // before 0011 and 0016 (no completed, no route), and a MindPad result.
        _ = try connection.execute(script: """
            INSERT INTO players (name, name_key, token_hash) VALUES ('Ann', 'ann', repeat('a', 64));
            INSERT INTO game_results (result_id, player_id, game, mode, score, correct, answered, duration_ms, finished_at, race_id, completed)
            SELECT v.id::uuid, p.id, v.game, 'normal', v.score, v.correct, GREATEST(v.correct, 1), v.ms, timestamptz '2026-11-18 12:00:00+00' + v.ms * interval '1 ms',
                   v.race, v.completed
            FROM players p, (VALUES
                ('00000000-0000-4000-8000-000000000001', 'path_finder', 6120, 1, 14300, 'r1', true),
                ('00000000-0000-4000-8000-000000000002', 'path_finder', 0, 0, 30000, 'r2', false),
                ('00000000-0000-4000-8000-000000000003', 'path_finder', 4000, 1, 20000, 'r3', NULL),
                ('00000000-0000-4000-8000-000000000004', 'mindpad', 170, 8, 61000, 'r4', true)
            ) AS v (id, game, score, correct, ms, race, completed);
            INSERT INTO path_rounds (result_id, player_id, grid_rows, grid_columns, goal_row, goal_column, steps, best_steps,
                                     tries, started_at, ended_at, route)
            SELECT v.id::uuid, p.id, 4, 5, 3, 4, v.steps, 5, v.tries, timestamptz '2026-11-18 12:00:00+00' + v.shown * interval '1 ms',
                   timestamptz '2026-11-18 12:00:00+00' + v.reached * interval '1 ms', v.route::jsonb
            FROM players p, (VALUES
                ('00000000-0000-4000-8000-000000000001', 9, 1, 2500, 14250, '[[1,1,2500],[1,2,3000]]'),
                ('00000000-0000-4000-8000-000000000002', 2, 0, 1000, NULL, '[[1,1,1000]]'),
                ('00000000-0000-4000-8000-000000000003', 5, 0, 0, 16000, NULL)
            ) AS v (id, steps, tries, shown, reached, route);
            """)
        let report = try Migrator(files: all).migrate(on: connection)
        #expect(report.applied.first == 18)
        let rows = try connection.query("""
            SELECT race_id, completed, detail::text AS detail, replay_detail::text AS replay FROM game_results ORDER BY race_id
            """)
        func json(_ i: Int, _ column: String) -> NSDictionary? {
            rows.value(column, row: i).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary }
        }
        func path(_ i: Int) -> NSDictionary? { json(i, "detail")?["path"] as? NSDictionary }
        #expect(rows.count == 4)
        // The finished round: every value, times from the race start.
        let one = try #require(path(0))
        #expect(one["rows"] as? Int == 4 && one["columns"] as? Int == 5 && one["steps"] as? Int == 9 && one["best_steps"] as? Int == 5)
        #expect((one["goal"] as? NSDictionary) == ["row": 3, "column": 4] && one["tries"] as? Int == 1)
        #expect(one["grid_shown_ms"] as? Int == 2500 && one["goal_reached_ms"] as? Int == 14250)
        #expect((one["rank_value"] as? NSNumber)?.doubleValue == 6.12 && one["route"] is NSNull)
        #expect(json(0, "replay") == ["path": ["route": [[1, 1, 2500], [1, 2, 3000]]]])
        #expect(rows.value("completed", row: 0) == "t")
        // The round left: no end, no rank value; its route kept.
        let two = try #require(path(1))
        #expect(two["goal_reached_ms"] is NSNull && two["rank_value"] is NSNull && two["grid_shown_ms"] as? Int == 1000)
        #expect(json(1, "replay") == ["path": ["route": [[1, 1, 1000]]]] && rows.value("completed", row: 1) == "f")
        // The old round: completed from its end; no route, no replay part.
        #expect(path(2)?["goal_reached_ms"] as? Int == 16000 && rows.value("replay", row: 2) == nil)
        #expect(rows.value("completed", row: 2) == "t")
        // The MindPad result has no detail; the table is gone.
        #expect(rows.value("detail", row: 3) == nil && rows.value("replay", row: 3) == nil)
        #expect(try connection.query("SELECT to_regclass('path_rounds') IS NULL AS gone").value("gone") == "t")
    }
}
