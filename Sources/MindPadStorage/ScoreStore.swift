import Foundation

/// The scores schema's statements, on one connection. Blocking: call it from
/// a database worker, never from the network thread.
public struct ScoreStore {
    public let connection: PostgresConnection

    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    // MARK: Players

    /// Creates a player; nil when the name (by key) is taken.
    public func createPlayer(name: String, nameKey: String, tokenHash: String) throws -> PlayerRecord? {
        let rows = try connection.query("""
            INSERT INTO players (name, name_key, token_hash) VALUES (\(name), \(nameKey), \(tokenHash))
            ON CONFLICT (name_key) DO NOTHING
            RETURNING id, name, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms
            """)
        return rows.count == 1 ? try Self.player(rows, 0) : nil
    }

    /// The player with this name key, and their token hash.
    public func findPlayer(nameKey: String) throws -> (player: PlayerRecord, tokenHash: String)? {
        let rows = try connection.query("""
            SELECT id, name, (extract(epoch FROM created_at) * 1000)::bigint AS created_ms, token_hash
            FROM players WHERE name_key = \(nameKey)
            """)
        guard rows.count == 1, let hash = rows.value("token_hash") else { return nil }
        return (try Self.player(rows, 0), hash)
    }

    /// The player called `nameKey` if `token` is theirs: the token given
    /// at registration (`players.token_hash`, compared in constant time) or
    /// one of a device signed in with a code (`player_tokens`, found by
    /// its hash: equality of SHA-256 hashes says nothing about the token).
    /// The one place a player's token is checked: the WebSocket `identify`
    /// (`PostgresPlayerDirectory`) and every player endpoint (`runAsPlayer`).
    public func authenticate(nameKey: String, token: String) throws -> PlayerAuthentication {
        let hash = PlayerToken.hash(token)
        let rows = try connection.query("""
            SELECT p.id, p.name, (extract(epoch FROM p.created_at) * 1000)::bigint AS created_ms, p.token_hash,
                   EXISTS (SELECT 1 FROM player_tokens t WHERE t.token_hash = \(hash) AND t.player_id = p.id) AS device
            FROM players p WHERE p.name_key = \(nameKey)
            """)
        guard rows.count == 1, let stored = rows.value("token_hash") else { return .unknownPlayer }
        let original = PlayerToken.constantTimeEquals(hash, stored)
        guard original || rows.value("device") == "t" else { return .wrongToken }
        return .player(try Self.player(rows, 0))
    }

    // MARK: Results

    /// The pass mark of a result with a level and none of its own (a journal
    /// line written before results carried their game's): the kids'
    /// ladder's 8 of 10, the only ladder there was. Every result the server
    /// makes now carries its game's `passMark`.
    public static let defaultPassMark = 8

    /// Stores a result and improves the player's bests (all-time, the UTC day
    /// and the ISO week of `finishedAt`) in one statement. Storing the same
    /// result id twice changes nothing the second time.
    public func record(_ r: GameResultRecord, passMark: Int = defaultPassMark) throws -> RecordOutcome {
        try record([r], passMark: passMark)[0]
    }

    /// Stores every result of `batch` and improves the bests they beat:
    /// `storeResults`, then `applyPendingBoards` until nothing is left, so
    /// the boards hold the batch when it returns. The batch writer calls the
    /// two apart, answering the players in between.
    public func record(_ batch: [GameResultRecord], passMark: Int = defaultPassMark) throws -> [RecordOutcome] {
        let outcomes = try storeResults(batch, passMark: passMark)
        try applyAllPendingBoards()
        return outcomes
    }

    /// Stores every result of `batch` in one statement (so one transaction
    /// and one commit) and tells each whether it is a personal best; the
    /// bests themselves (the all-time, day and week boards and their counts)
    /// follow with `applyPendingBoards`, from a `pending_boards` row written
    /// in the same statement (migration 0013: the boards were 13 of 21 ms of
    /// a 100-result statement, and their count triggers' lock made batches
    /// queue). "Previous best" is the better of the board's and any stored
    /// result the boards have not taken yet. A result played
    /// with a fish raises that fish's best score in the same statement, if
    /// with a fish raises that fish's best score in the same statement, if
    /// the fish is still there and is the player's (a deleted fish, or one
    /// named by another player, changes nothing; the result still lands). Returns one outcome
    /// per result, in the order given, exactly as if they had been recorded
    /// one by one in order of finishing: a player's second result in the
    /// batch is a personal best only if it beats the first too.
    ///
    /// A result with a level updates the player's `level_progress` row of
    /// that game and level in the same statement (best correct, the time of
    /// the best, `passed_at` the first time `correct ≥` the result's `passMark`, or
    /// `passMark` here for a result without one), but only
    /// if the level was open to the player: level 1, a level whose level
    /// below was passed before the statement, or one whose level below is
    /// passed by an earlier result of the same batch (in order of finishing)
    /// that counted itself. So results kept in the journal during an outage
    /// replay as they were played; a locked level played counts for nothing.
    ///
    /// The kind's detail (`detail`, `replayDetail`) is stored in the
    /// result's row. A run left where less is better is stored but improves
    /// no best (`entersBoards`), and is never a personal best. The result's
    /// answers (`answers`) go to `result_answers` in the same statement,
    /// once, with the result (a replay writes neither again).
    ///
    /// The results travel as one JSON parameter, so the statement's text is
    /// always the same and no value ever becomes SQL.
    public func storeResults(_ batch: [GameResultRecord], passMark: Int = defaultPassMark) throws -> [RecordOutcome] {
        guard !batch.isEmpty else { return [] }
        let rows = try JSONEncoder().encode(batch.enumerated().map { BatchRow(index: $0.offset, $0.element, passMark: passMark) })
        let answer = try connection.query("""
            WITH RECURSIVE input AS (
                SELECT * FROM jsonb_to_recordset(\(String(decoding: rows, as: UTF8.self))::jsonb) AS t (
                    i int, result_id uuid, player_id bigint, game text, rank_key int, mode text, score int, pass_mark int,
                    correct int, answered int, duration_ms int, room_id text, race_id text, finished_ms bigint,
                    keypad_answers int, fish_id uuid, level int, boards boolean, completed boolean,
                    detail text, replay_detail text, answers jsonb)
            ), ins AS (
                INSERT INTO game_results (result_id, player_id, game, mode, score, correct, answered,
                                          duration_ms, room_id, race_id, finished_at, keypad_answers, fish_id, level, completed,
                                          detail, replay_detail)
                SELECT result_id, player_id, game, mode, score, correct, answered, duration_ms, room_id, race_id,
                       to_timestamp(finished_ms / 1000.0), keypad_answers, fish_id, level, completed,
                       detail::jsonb, replay_detail::jsonb
                FROM input ORDER BY result_id
                ON CONFLICT (result_id) DO NOTHING
                RETURNING result_id, player_id, game, mode, score, duration_ms, finished_at, fish_id, level, correct
            ), answered AS (
                -- The new results' answers, once, with them (a replay
                -- writes none again). Prompts, answers and strokes travel
                -- as JSON text and land as jsonb.
                INSERT INTO result_answers (result_id, seq, question_id, prompt, answer, expected, correct, points, input,
                                            confidence, asked_ms, answered_ms, strokes, choice, finished_at)
                SELECT DISTINCT ON (ins.result_id, a.seq) ins.result_id, a.seq, a.question_id, a.prompt::jsonb,
                       a.answer::jsonb, a.expected::jsonb, a.correct, a.points, a.input, a.confidence, a.asked_ms,
                       a.answered_ms, a.strokes::jsonb, a.choice::jsonb, ins.finished_at
                FROM ins JOIN input ON input.result_id = ins.result_id,
                     LATERAL jsonb_to_recordset(input.answers) AS a (
                         seq int, question_id text, prompt text, answer text, expected text, correct boolean,
                         points int, input text, confidence real, asked_ms int, answered_ms int, strokes text,
                         choice text)
                ORDER BY ins.result_id, a.seq, input.i
            ), leveled AS (
                -- With each result its game's pass mark (the same id twice
                -- in one batch: the first, as the result itself).
                SELECT DISTINCT ON (ins.result_id) ins.result_id, ins.player_id, ins.game, ins.level, ins.correct,
                       ins.duration_ms, ins.finished_at, input.pass_mark
                FROM ins JOIN input ON input.result_id = ins.result_id
                WHERE ins.level IS NOT NULL
                ORDER BY ins.result_id, input.i
            ), opened AS (
                -- The new results of levels open to their player: level 1 or
                -- the level below passed before this statement, then (the
                -- recursion) a level whose level below an earlier counted
                -- result of the batch passed.
                SELECT r.* FROM leveled r
                WHERE r.level = 1 OR EXISTS (
                    SELECT 1 FROM level_progress p
                    WHERE p.player_id = r.player_id AND p.game = r.game AND p.level = r.level - 1 AND p.passed_at IS NOT NULL)
                UNION
                SELECT r.* FROM leveled r JOIN opened o
                  ON o.player_id = r.player_id AND o.game = r.game AND o.level = r.level - 1
                 AND o.correct >= o.pass_mark AND (o.finished_at, o.result_id) < (r.finished_at, r.result_id)
            ), level_best AS (
                -- One row per player, game and level: its best result (more
                -- correct, then faster), first pass and latest play.
                SELECT DISTINCT ON (player_id, game, level) player_id, game, level, correct, duration_ms,
                       min(finished_at) FILTER (WHERE correct >= pass_mark) OVER w AS passed_at,
                       max(finished_at) OVER w AS updated_at
                FROM opened WINDOW w AS (PARTITION BY player_id, game, level)
                ORDER BY player_id, game, level, correct DESC, duration_ms, finished_at
            ), progressed AS (
                -- In primary-key order, as the highscores below.
                INSERT INTO level_progress AS lp (player_id, game, level, best_correct, best_duration_ms, passed_at, updated_at)
                SELECT player_id, game, level, correct, duration_ms, passed_at, updated_at
                FROM level_best ORDER BY player_id, game, level
                ON CONFLICT (player_id, game, level) DO UPDATE
                   SET best_duration_ms = CASE WHEN EXCLUDED.best_correct > lp.best_correct
                                                 OR (EXCLUDED.best_correct = lp.best_correct
                                                     AND EXCLUDED.best_duration_ms < lp.best_duration_ms)
                                               THEN EXCLUDED.best_duration_ms ELSE lp.best_duration_ms END,
                       best_correct = GREATEST(lp.best_correct, EXCLUDED.best_correct),
                       passed_at = COALESCE(lp.passed_at, EXCLUDED.passed_at),
                       updated_at = GREATEST(lp.updated_at, EXCLUDED.updated_at)
            ), fish_best AS (
                -- The best new score played with each fish, per player: one
                -- update cannot touch a row twice, and only the owner's count.
                SELECT fish_id, player_id, max(score) AS score FROM ins
                WHERE fish_id IS NOT NULL GROUP BY fish_id, player_id
            ), fish_locked AS (
                -- Locked in id order, so two batches never wait on each
                -- other's fish in a cycle.
                SELECT id FROM fish WHERE id IN (SELECT fish_id FROM fish_best) ORDER BY id FOR UPDATE
            ), fished AS (
                UPDATE fish f SET best_score = GREATEST(f.best_score, b.score)
                FROM fish_best b JOIN fish_locked l ON l.id = b.fish_id
                WHERE f.id = b.fish_id AND f.player_id = b.player_id
            ), pended AS (
                -- The boards follow in their own statement
                -- (`applyPendingBoards`): the result that may improve them
                -- waits here, durable with it.
                INSERT INTO pending_boards (result_id, player_id, game, mode, score, rank_key, duration_ms, finished_at)
                SELECT DISTINCT ON (ins.result_id) ins.result_id, ins.player_id, ins.game, ins.mode, ins.score,
                       input.rank_key, ins.duration_ms, ins.finished_at
                FROM ins JOIN input ON input.result_id = ins.result_id AND input.boards
                ORDER BY ins.result_id, input.i
            ), previous AS (
                -- All-time bests as they were before this statement: the
                -- board's, or a stored result the boards have not taken
                -- yet, whichever is better.
                SELECT DISTINCT ON (player_id, game, mode) player_id, game, mode, score, duration_ms,
                       (extract(epoch FROM achieved_at) * 1000)::bigint AS achieved_ms
                FROM (
                    SELECT h.player_id, h.game, h.mode, h.score, h.rank_key, h.duration_ms, h.achieved_at
                    FROM highscores h
                    WHERE h.period = 'all' AND h.period_start = DATE '1970-01-01'
                      AND (h.player_id, h.game, h.mode) IN (SELECT player_id, game, mode FROM input)
                    UNION ALL
                    SELECT b.player_id, b.game, b.mode, b.score, b.rank_key, b.duration_ms, b.finished_at
                    FROM pending_boards b
                    WHERE (b.player_id, b.game, b.mode) IN (SELECT player_id, game, mode FROM input)
                ) known
                ORDER BY player_id, game, mode, rank_key, duration_ms, achieved_at
            )
            SELECT input.i, ins.result_id IS NOT NULL AS inserted,
                   previous.score AS prev_score, previous.duration_ms AS prev_ms, previous.achieved_ms AS prev_at
            FROM input
            LEFT JOIN ins ON ins.result_id = input.result_id
            LEFT JOIN previous ON previous.player_id = input.player_id AND previous.game = input.game
                              AND previous.mode = input.mode
            """, prepared: true)
        var inserted = [Bool](repeating: false, count: batch.count)
        // Each player's all-time best per mode, as it was before the batch,
        // then as the replay below moves it.
        var running: [BoardKey: Best] = [:]
        for row in 0..<answer.count {
            guard let i = answer.value("i", row: row).flatMap({ Int($0) }), batch.indices.contains(i) else {
                throw PostgresError(.unexpectedResult, message: "record: row without a valid index")
            }
            inserted[i] = answer.value("inserted", row: row) == "t"
            if let score = answer.value("prev_score", row: row).flatMap({ Int($0) }),
               let ms = answer.value("prev_ms", row: row).flatMap({ Int($0) }),
               let at = answer.value("prev_at", row: row).flatMap({ Int64($0) }) {
                running[BoardKey(batch[i])] = Best(rankKey: batch[i].lowerScoreWins ? score : -score, score: score,
                                                   durationMs: ms, achievedAtMs: at)
            }
        }
        // Replay the batch in order of finishing against the bests as they
        // were: each result is compared with everything before it.
        var seen = Set<String>()
        var outcomes = [RecordOutcome](repeating: RecordOutcome(stored: false, personalBest: false, previousBest: nil),
                                       count: batch.count)
        for i in batch.indices.sorted(by: { (batch[$0].finishedAtMs, $0) < (batch[$1].finishedAtMs, $1) }) {
            let r = batch[i]
            let key = BoardKey(r)
            let before = running[key]
            // The same id twice in one batch is stored once, by the first.
            let isNew = inserted[i] && seen.insert(r.resultID.lowercased()).inserted
            let mine = Best(rankKey: r.rankKey, score: r.score, durationMs: r.durationMs, achievedAtMs: r.finishedAtMs)
            let improves = isNew && r.entersBoards && (before.map { mine.beats($0) } ?? true)
            if improves { running[key] = mine }
            // A first game that scored nothing is not a "best" worth a fanfare
            // (where more is better). A result stored before (a replay) has no
            // "previous" best of its own.
            outcomes[i] = RecordOutcome(stored: isNew, personalBest: improves && (before != nil || r.lowerScoreWins || r.score > 0),
                                        previousBest: isNew ? before?.score : nil)
        }
        return outcomes
    }

    /// Moves up to `limit` stored results from `pending_boards` onto the
    /// boards (all-time, the UTC day and the ISO week of their finish; the
    /// count triggers follow) in one statement: the rows are deleted in the
    /// transaction that applies them, so each is applied once, and two
    /// callers take different rows (`SKIP LOCKED`). Within one call the best
    /// result per board wins, and it replaces only a worse entry. A row whose result is gone (its player
    /// deleted) is dropped. Returns how many rows it took (0: none waiting
    /// that another caller is not applying already).
    ///
    /// With `waiting`, rows another caller is applying are waited for
    /// rather than skipped: a board read calls it first (`boardsUpToDate`).
    @discardableResult
    public func applyPendingBoards(limit: Int = 500, waiting: Bool = false) throws -> Int {
        let query: SQLQuery = """
            WITH taken AS (
                DELETE FROM pending_boards WHERE result_id IN (
                    SELECT result_id FROM pending_boards ORDER BY result_id LIMIT \(limit)::int
                    \(literal: waiting ? "FOR UPDATE" : "FOR UPDATE SKIP LOCKED"))
                RETURNING *
            ), periods AS (
                -- The best result of each player on each board: one upsert
                -- cannot touch the same row twice.
                SELECT DISTINCT ON (t.player_id, t.game, t.mode, p.period, p.period_start)
                       t.*, p.period, p.period_start
                FROM taken t, LATERAL (VALUES
                    ('all', DATE '1970-01-01'),
                    ('day', (t.finished_at AT TIME ZONE 'UTC')::date),
                    ('week', date_trunc('week', t.finished_at AT TIME ZONE 'UTC')::date)
                ) AS p (period, period_start)
                WHERE EXISTS (SELECT 1 FROM game_results g WHERE g.result_id = t.result_id)
                ORDER BY t.player_id, t.game, t.mode, p.period, p.period_start,
                         t.rank_key, t.duration_ms, t.finished_at, t.result_id
            ), improved AS (
                -- In primary-key order, so that two callers (and a reset)
                -- lock shared rows in the same order.
                INSERT INTO highscores AS h (player_id, game, mode, period, period_start, score, rank_key, duration_ms,
                                             achieved_at, result_id)
                SELECT player_id, game, mode, period, period_start, score, rank_key, duration_ms, finished_at, result_id
                FROM periods ORDER BY player_id, game, mode, period, period_start
                ON CONFLICT (player_id, game, mode, period, period_start) DO UPDATE
                   SET score = EXCLUDED.score, rank_key = EXCLUDED.rank_key, duration_ms = EXCLUDED.duration_ms,
                       achieved_at = EXCLUDED.achieved_at, result_id = EXCLUDED.result_id
                 WHERE EXCLUDED.rank_key < h.rank_key
                    OR (EXCLUDED.rank_key = h.rank_key AND (EXCLUDED.duration_ms < h.duration_ms
                        OR (EXCLUDED.duration_ms = h.duration_ms AND EXCLUDED.achieved_at < h.achieved_at)))
            )
            SELECT count(*) AS taken FROM taken
            """
        let rows = try connection.query(query, prepared: true)
        return rows.value("taken").flatMap { Int($0) } ?? 0
    }

    /// `applyPendingBoards` a statement at a time until nothing is left
    /// that another caller is not applying (with `waiting`, nothing at all);
    /// `each` is told every statement's rows and time. The one loop of the
    /// batch writer, a board read, a reset and `record`. Returns the rows taken.
    @discardableResult
    public func applyAllPendingBoards(limit: Int = 500, waiting: Bool = false,
                                      each: (_ rows: Int, _ duration: Duration) -> Void = { _, _ in }) throws -> Int {
        var total = 0
        while true {
            let started = ContinuousClock.now
            let taken = try applyPendingBoards(limit: limit, waiting: waiting)
            if taken > 0 { each(taken, ContinuousClock.now - started) }
            total += taken
            // Skipping locked rows, a short share means the rest is another
            // caller's; waiting, rows that caller deleted meanwhile shorten a
            // share too, so only an empty one says none is left.
            if waiting ? taken == 0 : taken < limit { return total }
        }
    }

    /// The barrier of every board read (leaderboards, ranks, a profile's
    /// bests): results stored before it (a player told `result_saved`)
    /// and still waiting in `pending_boards` are applied first, waiting for
    /// a writer that is applying them, so a read never misses a stored
    /// result. With nothing waiting it is one statement that finds nothing.
    func boardsUpToDate() throws {
        try applyAllPendingBoards(waiting: true)
    }

    /// One result as the batch statement reads it.
    private struct BatchRow: Encodable {
        let i: Int
        let result_id: String
        let player_id: Int64
        let game: String
        let rank_key: Int
        let mode: String
        let score, correct, answered, duration_ms: Int
        let room_id, race_id: String?
        let finished_ms: Int64
        let keypad_answers: Int
        let fish_id: String?
        let level: Int?
        /// The result's own pass mark, else the caller's (a journal line
        /// from before results carried one); nil without a level.
        let pass_mark: Int?
        /// Whether the result may improve bests (`entersBoards`).
        let boards: Bool
        let completed: Bool?
        /// The kind's detail, JSON text (`GameResultRecord.detail`).
        let detail, replay_detail: String?
        let answers: [AnswerRow]

        init(index: Int, _ r: GameResultRecord, passMark: Int) {
            (i, result_id, player_id, game, rank_key, mode) = (index, r.resultID, r.playerID, r.game, r.rankKey, r.mode)
            (score, correct, answered, duration_ms) = (r.score, r.correct, r.answered, r.durationMs)
            (room_id, race_id, finished_ms) = (r.roomID, r.raceID, r.finishedAtMs)
            (keypad_answers, fish_id, level, boards) = (r.keypadAnswers, r.fishID?.uuidString.lowercased(), r.level, r.entersBoards)
            completed = r.completed
            pass_mark = r.level == nil ? nil : (r.passMark ?? passMark)
            (detail, replay_detail) = (r.detail, r.replayDetail)
            answers = r.answers.map(AnswerRow.init)
        }
    }

    /// One answer as the batch statement reads it.
    private struct AnswerRow: Encodable {
        let seq: Int
        let question_id, prompt, answer: String
        let expected: String?
        let correct: Bool
        let points: Int
        let input: String
        let confidence: Double?
        let asked_ms, answered_ms: Int
        /// JSON text (`AnswerRecord.strokesText`): fast to write.
        let strokes: String?
        /// JSON text (`AnswerRecord.choice`).
        let choice: String?

        init(_ a: AnswerRecord) {
            (seq, question_id, prompt, answer, expected) = (a.seq, a.questionID, a.prompt, a.answer, a.expected)
            (correct, points, input, confidence) = (a.correct, a.points, a.input, a.confidence)
            (asked_ms, answered_ms, strokes) = (a.askedMs, a.answeredMs, a.strokes.map(AnswerRecord.strokesText))
            choice = a.choice
        }
    }

    private struct BoardKey: Hashable {
        let playerID: Int64
        let game: String
        let mode: String
        init(_ r: GameResultRecord) { (playerID, game, mode) = (r.playerID, r.game, r.mode) }
    }

    /// A best as the boards order it: the better score in the game's order
    /// (the smaller rank key), then shorter time, then earlier.
    private struct Best {
        let rankKey: Int
        let score: Int
        let durationMs: Int
        let achievedAtMs: Int64

        func beats(_ other: Best) -> Bool {
            (rankKey, durationMs, achievedAtMs) < (other.rankKey, other.durationMs, other.achievedAtMs)
        }
    }

    // MARK: Reading

    /// The top `limit` of one board, and with `aroundPlayer` that player's
    /// entry and up to `neighbours` entries on each side. Ranks are
    /// competition ranks ("1, 2, 2, 4"): equal (score, time, moment) share one.
    public func leaderboard(game: String = GameResultRecord.legacyGame, mode: String, period: LeaderboardPeriod, limit: Int, at now: Date,
                            aroundPlayer: Int64? = nil, neighbours: Int = 5) throws -> Leaderboard {
        try boardsUpToDate()
        let start = period.start(containing: now)
        let top = try connection.query("""
            SELECT h.player_id, p.name, h.score, h.duration_ms, (extract(epoch FROM h.achieved_at) * 1000)::bigint AS achieved_ms
            FROM highscores h JOIN players p ON p.id = h.player_id
            WHERE h.game = \(game) AND h.mode = \(mode) AND h.period = \(period.rawValue) AND h.period_start = \(start)::date
            ORDER BY h.rank_key, h.duration_ms, h.achieved_at, h.player_id
            LIMIT \(limit)::int
            """)
        var board = Leaderboard(game: game, mode: mode, period: period, periodStart: start,
                                nextResetMs: period.nextReset(after: now).map { Int64($0.timeIntervalSince1970 * 1000) },
                                entries: Self.ranked(try Self.entries(top), firstPosition: 1, firstRank: 1),
                                me: nil, around: [])
        guard let playerID = aroundPlayer else { return board }
        // The player's entry, its rank (1 + strictly better entries) and its
        // position in the total order (ties broken by player id).
        let mine = try placing(of: playerID, game: game, mode: mode, period: period, start: start)
        guard mine.count == 1, let better = mine.value("better").flatMap({ Int($0) }),
              let tiedBefore = mine.value("tied_before").flatMap({ Int($0) }),
              let rankKey = mine.value("rank_key"), let duration = mine.value("duration_ms"),
              let exact = mine.value("achieved_exact") else { return board }
        let myPosition = better + tiedBefore + 1
        // One extra entry before the window tells whether the window's first
        // entry shares its rank with entries outside it.
        let before = try connection.query("""
            SELECT h.player_id, p.name, h.score, h.duration_ms, (extract(epoch FROM h.achieved_at) * 1000)::bigint AS achieved_ms
            FROM highscores h JOIN players p ON p.id = h.player_id
            WHERE h.game = \(game) AND h.mode = \(mode) AND h.period = \(period.rawValue) AND h.period_start = \(start)::date
              AND (h.rank_key, h.duration_ms, h.achieved_at, h.player_id)
                  < (\(rankKey)::int, \(duration)::int, \(exact)::timestamptz, \(playerID)::bigint)
            ORDER BY h.rank_key DESC, h.duration_ms DESC, h.achieved_at DESC, h.player_id DESC
            LIMIT \(neighbours + 1)::int
            """)
        let after = try connection.query("""
            SELECT h.player_id, p.name, h.score, h.duration_ms, (extract(epoch FROM h.achieved_at) * 1000)::bigint AS achieved_ms
            FROM highscores h JOIN players p ON p.id = h.player_id
            WHERE h.game = \(game) AND h.mode = \(mode) AND h.period = \(period.rawValue) AND h.period_start = \(start)::date
              AND (h.rank_key, h.duration_ms, h.achieved_at, h.player_id)
                  > (\(rankKey)::int, \(duration)::int, \(exact)::timestamptz, \(playerID)::bigint)
            ORDER BY h.rank_key, h.duration_ms, h.achieved_at, h.player_id
            LIMIT \(neighbours)::int
            """)
        let earlier = Array(try Self.entries(before).reversed())
        var window = earlier + (try Self.entries(mine)) + (try Self.entries(after))
        let firstPosition = myPosition - earlier.count
        var firstRank = firstPosition
        if earlier.count == neighbours + 1, window.count > 1, Self.sameResult(window[0], window[1]) {
            // The extra entry ties with the window's first: the tie group may
            // start further up, so count its rank exactly.
            let outside = try placing(of: window[0].playerID, game: game, mode: mode, period: period, start: start)
            firstRank = (outside.value("better").flatMap { Int($0) } ?? 0) + 1
        }
        window = Self.ranked(window, firstPosition: firstPosition, firstRank: firstRank)
        if earlier.count == neighbours + 1 { window.removeFirst() }
        board.me = window.first { $0.playerID == playerID }
        board.around = window
        return board
    }

    /// A player's entry on one board with `better` (entries with a strictly
    /// better score, time and moment: the rank is `better + 1`) and
    /// `tied_before` (equal entries listed before it, by player id). The one
    /// definition of a rank: higher scores are summed from
    /// `highscore_counts`; on the all-time boards, the same score with a
    /// time in an earlier whole second is summed from `highscore_tie_counts`
    /// and only the player's own second is counted on the index (a day's or
    /// a week's board counts its whole score there).
    private func placing(of playerID: Int64, game: String, mode: String, period: LeaderboardPeriod, start: String) throws -> PostgresRows {
        try connection.query(Self.placingQuery(of: playerID, game: game, mode: mode, period: period, start: start))
    }

    /// PostgreSQL's plan of a player's rank on one board, run for real
    /// (`EXPLAIN ANALYZE`), one line per row: for the benchmark's notes.
    public func explainRank(of playerID: Int64, game: String = GameResultRecord.legacyGame, mode: String, period: LeaderboardPeriod,
                            at now: Date) throws -> String {
        let query = Self.placingQuery(of: playerID, game: game, mode: mode, period: period, start: period.start(containing: now))
        let plan = try connection.query(SQLQuery(unsafeSQL: "EXPLAIN (ANALYZE, BUFFERS) " + query.sql, binds: query.binds))
        return (0..<plan.count).compactMap { plan.value("QUERY PLAN", row: $0) }.joined(separator: "\n")
    }

    private static func placingQuery(of playerID: Int64, game: String, mode: String, period: LeaderboardPeriod,
                                     start: String) -> SQLQuery {
        """
            SELECT h.player_id, p.name, h.score, h.duration_ms, (extract(epoch FROM h.achieved_at) * 1000)::bigint AS achieved_ms,
                   h.rank_key, h.achieved_at::text AS achieved_exact,
                   (SELECT coalesce(sum(c.players), 0) FROM highscore_counts c
                     WHERE c.game = h.game AND c.mode = h.mode AND c.period = h.period AND c.period_start = h.period_start
                       AND c.rank_key < h.rank_key)
                   + (SELECT coalesce(sum(t.players), 0) FROM highscore_tie_counts t
                     WHERE t.game = h.game AND t.mode = h.mode AND t.period = h.period AND t.period_start = h.period_start
                       AND t.rank_key = h.rank_key AND t.duration_s < h.duration_ms / 1000)
                   + (SELECT count(*) FROM highscores b
                     WHERE b.game = h.game AND b.mode = h.mode AND b.period = h.period AND b.period_start = h.period_start
                       AND b.rank_key = h.rank_key
                       AND b.duration_ms >= CASE WHEN h.period = 'all' THEN h.duration_ms / 1000 * 1000 ELSE 0 END
                       AND (b.duration_ms, b.achieved_at) < (h.duration_ms, h.achieved_at)
                   ) AS better,
                   (SELECT count(*) FROM highscores b
                     WHERE b.game = h.game AND b.mode = h.mode AND b.period = h.period AND b.period_start = h.period_start
                       AND (b.rank_key, b.duration_ms, b.achieved_at) = (h.rank_key, h.duration_ms, h.achieved_at)
                       AND b.player_id < h.player_id
                   ) AS tied_before
            FROM highscores h JOIN players p ON p.id = h.player_id
            WHERE h.player_id = \(playerID)::bigint AND h.game = \(game) AND h.mode = \(mode) AND h.period = \(period.rawValue)
              AND h.period_start = \(start)::date
            """
    }

    /// A player's all-time bests per game and mode and their most recent
    /// games, of one game or (nil) of every game.
    public func profile(of player: PlayerRecord, game: String? = nil, recentLimit: Int = 20) throws -> PlayerProfile {
        try boardsUpToDate()
        let bests = try connection.query("""
            SELECT game, mode, score, duration_ms, (extract(epoch FROM achieved_at) * 1000)::bigint AS achieved_ms
            FROM highscores WHERE player_id = \(player.id)::bigint AND period = 'all'
              AND (\(game)::text IS NULL OR game = \(game)::text)
            ORDER BY game, mode
            """)
        let recent = try connection.query("""
            SELECT result_id::text AS result_id, game, mode, score, correct, answered, duration_ms, room_id, race_id,
                   (extract(epoch FROM finished_at) * 1000)::bigint AS finished_ms, keypad_answers, fish_id::text AS fish_id, level
            FROM game_results WHERE player_id = \(player.id)::bigint
              AND (\(game)::text IS NULL OR game = \(game)::text)
            ORDER BY finished_at DESC LIMIT \(recentLimit)::int
            """)
        return PlayerProfile(
            player: player,
            highscores: try bests.rows.indices.map { i in
                PlayerProfile.Best(game: try Self.text(bests, "game", i), mode: try Self.text(bests, "mode", i), score: try Self.int(bests, "score", i),
                                   durationMs: try Self.int(bests, "duration_ms", i),
                                   achievedAtMs: Int64(try Self.int(bests, "achieved_ms", i)))
            },
            recent: try recent.rows.indices.map { i in
                GameResultRecord(resultID: try Self.text(recent, "result_id", i), playerID: player.id,
                                 game: try Self.text(recent, "game", i), mode: try Self.text(recent, "mode", i),
                                 level: recent.value("level", row: i).flatMap { Int($0) }, score: try Self.int(recent, "score", i),
                                 correct: try Self.int(recent, "correct", i), answered: try Self.int(recent, "answered", i),
                                 durationMs: try Self.int(recent, "duration_ms", i),
                                 roomID: recent.value("room_id", row: i), raceID: recent.value("race_id", row: i),
                                 finishedAtMs: Int64(try Self.int(recent, "finished_ms", i)),
                                 keypadAnswers: try Self.int(recent, "keypad_answers", i),
                                 fishID: recent.value("fish_id", row: i).flatMap(UUID.init(uuidString:)))
            })
    }

    // MARK: Resets

    /// A player resets their own bests (every mode and period, of one game
    /// or of every game) to nothing. Returns how many all-time bests went.
    public func resetOwnHighscores(playerID: Int64, game: String? = nil) throws -> Int {
        try resetOwn(playerID: playerID, game: game).bests
    }

    /// A player resets their own bests, as `resetOwnHighscores`, and with
    /// `levels` their level progress of the same game(s) in the same
    /// statement: both go or neither does.
    public func resetOwn(playerID: Int64, game: String? = nil, levels: Bool = false) throws -> ResetOutcome {
        try deleteBests(game: game, mode: nil, playerID: playerID, levels: levels, audit: nil)
    }

    /// An operator's reset of one game's boards or (nil) every game's,
    /// recorded in `admin_resets` in the same statement. With `levels`, the
    /// level progress of the same player (or every player) and game (or
    /// every game) goes too, whatever the mode: levels are not per mode.
    public func adminReset(_ scope: ResetScope, game: String? = nil, levels: Bool = false,
                           requester: String) throws -> ResetOutcome {
        let (mode, player): (String?, (id: Int64, name: String)?) = switch scope {
        case .all: (nil, nil)
        case .mode(let m): (m, nil)
        case .player(let id, let name): (nil, (id, name))
        case .playerMode(let id, let name, let m): (m, (id, name))
        }
        return try deleteBests(game: game, mode: mode, playerID: player?.id, levels: levels,
                               audit: (scope.label, player?.name, requester))
    }

    /// Deletes the board rows of one mode and/or one player (nil: every one),
    /// in one statement with the audit row when there is one, what the
    /// reader learned of the hands of the players whose every best goes (no
    /// `game`, no `mode`: the player's or everyone's; issue 43), and with
    /// `levels` the player's (or everyone's) level progress of `game` (or
    /// of every game). Board rows are locked in primary-key order, the
    /// order result batches lock them in, so a reset and a batch cannot
    /// deadlock; progress is deleted after them (the main query reads it last).
    /// Results stored before the reset and waiting for the boards
    /// (`pending_boards`) are applied first, so the reset removes them too
    /// rather than see them land after it.
    private func deleteBests(game: String?, mode: String?, playerID: Int64?, levels: Bool,
                             audit: (scope: String, playerName: String?, requester: String)?) throws -> ResetOutcome {
        try applyAllPendingBoards(waiting: true)
        let rows = try connection.query("""
            WITH locked AS (
                SELECT player_id, game, mode, period, period_start FROM highscores
                WHERE (\(game)::text IS NULL OR game = \(game)::text)
                  AND (\(mode)::text IS NULL OR mode = \(mode)::text)
                  AND (\(playerID)::bigint IS NULL OR player_id = \(playerID)::bigint)
                ORDER BY player_id, game, mode, period, period_start FOR UPDATE
            ), gone AS (
                DELETE FROM highscores h USING locked l
                WHERE (h.player_id, h.game, h.mode, h.period, h.period_start)
                    = (l.player_id, l.game, l.mode, l.period, l.period_start)
                RETURNING h.period
            ), counted AS (
                SELECT count(*) FILTER (WHERE period = 'all') AS bests, count(*) AS total FROM gone
            ), audit AS (
                INSERT INTO admin_resets (scope, game, mode, player_name, requester, rows_changed)
                SELECT \(audit?.scope)::text, \(game)::text, \(mode)::text, \(audit?.playerName)::text, \(audit?.requester)::text, total
                FROM counted WHERE \(audit?.scope)::text IS NOT NULL
            ), levels_gone AS (
                DELETE FROM level_progress
                WHERE \(levels)::boolean
                  AND (\(game)::text IS NULL OR game = \(game)::text)
                  AND (\(playerID)::bigint IS NULL OR player_id = \(playerID)::bigint)
                RETURNING 1
            ), hands_gone AS (
                DELETE FROM player_hands
                WHERE \(game)::text IS NULL AND \(mode)::text IS NULL
                  AND (\(playerID)::bigint IS NULL OR player_id = \(playerID)::bigint)
                RETURNING 1
            )
            SELECT bests, total, (SELECT count(*) FROM levels_gone) AS levels,
                   (SELECT count(*) FROM hands_gone) AS hands FROM counted
            """)
        return ResetOutcome(bests: rows.value("bests").flatMap { Int($0) } ?? 0, rows: rows.value("total").flatMap { Int($0) } ?? 0,
                            levels: rows.value("levels").flatMap { Int($0) } ?? 0,
                            hands: rows.value("hands").flatMap { Int($0) } ?? 0)
    }

    // MARK: Decoding

    static func player(_ rows: PostgresRows, _ i: Int) throws -> PlayerRecord {
        PlayerRecord(id: Int64(try int(rows, "id", i)), name: try text(rows, "name", i),
                     createdAtMs: Int64(try int(rows, "created_ms", i)))
    }

    static func entries(_ rows: PostgresRows) throws -> [LeaderboardEntry] {
        try rows.rows.indices.map { i in
            LeaderboardEntry(rank: 0, playerID: Int64(try int(rows, "player_id", i)), name: try text(rows, "name", i),
                             score: try int(rows, "score", i), durationMs: try int(rows, "duration_ms", i),
                             achievedAtMs: Int64(try int(rows, "achieved_ms", i)))
        }
    }

    static func sameResult(_ a: LeaderboardEntry, _ b: LeaderboardEntry) -> Bool {
        a.score == b.score && a.durationMs == b.durationMs && a.achievedAtMs == b.achievedAtMs
    }

    /// Competition ranks for consecutive entries of the board order, the
    /// first at `firstPosition` with rank `firstRank`: an entry equal to the
    /// one before it shares its rank, any other entry's rank is its position.
    static func ranked(_ list: [LeaderboardEntry], firstPosition: Int, firstRank: Int) -> [LeaderboardEntry] {
        var out: [LeaderboardEntry] = []
        out.reserveCapacity(list.count)
        for (offset, entry) in list.enumerated() {
            var e = entry
            if let previous = out.last {
                e.rank = sameResult(previous, e) ? previous.rank : firstPosition + offset
            } else {
                e.rank = firstRank
            }
            out.append(e)
        }
        return out
    }

    static func text(_ rows: PostgresRows, _ column: String, _ i: Int) throws -> String {
        guard let v = rows.value(column, row: i) else {
            throw PostgresError(.unexpectedResult, message: "missing \(column)")
        }
        return v
    }

    static func int(_ rows: PostgresRows, _ column: String, _ i: Int) throws -> Int {
        guard let v = rows.value(column, row: i), let n = Int(v) else {
            throw PostgresError(.unexpectedResult, message: "missing or non-integer \(column)")
        }
        return n
    }
}
