/// What makes a racer's answers look suspicious (the operator's
/// `GET /api/admin/suspicious_races`). The server fills it from its
/// configuration; this layer only runs the numbers.
public struct SuspicionThresholds: Sendable, Equatable {
    /// A correct drawn answer whose drawing took less than this, from its
    /// first point's `t` to its last, is too fast for a hand.
    public var drawingMs: Int
    /// A correct answer received less than this after its question was
    /// sent is too fast to have been read, worked out and written.
    public var answerMs: Int
    /// Drawings with fewer points are never compared for repeats: a dot or
    /// a short bar can honestly come out the same twice.
    public var minRepeatPoints: Int
    /// How many of the newest results with stored answers one request
    /// looks at (by `result_answers_age`), so that it stays bounded
    /// whatever the retention keeps.
    public var resultsExamined: Int

    public init(drawingMs: Int = 80, answerMs: Int = 300, minRepeatPoints: Int = 4, resultsExamined: Int = 2_000) {
        (self.drawingMs, self.answerMs, self.minRepeatPoints, self.resultsExamined) = (drawingMs, answerMs, minRepeatPoints, resultsExamined)
    }
}

/// One racer's run that trips a check, with what the check found.
public struct SuspiciousRun: Sendable, Equatable {
    public enum Finding: Sendable, Equatable {
        /// `count` correct answers under a threshold; the quickest drawing
        /// and the quickest answer among them (nil: none timed so).
        case fastCorrect(count: Int, quickestDrawingMs: Int?, quickestAnswerMs: Int?)
        /// Answers (their `seq`) whose strokes are the same once each
        /// drawing is moved so that its first point is at (0, 0).
        case repeatedStrokes(seqs: [Int])
    }

    public var raceID: String
    public var game: String
    public var mode: String
    /// The race's last result, ms since 1970: the list's order.
    public var raceFinishedAtMs: Int64
    public var name: String
    public var finding: Finding
}

extension RaceStore {
    /// The runs among the newest `thresholds.resultsExamined` results with
    /// answers that trip a check, newest race first. Both checks are SQL:
    /// the timings are columns and the two ends of a drawing, and the
    /// repeat check subtracts in `numeric`, the exact decimals jsonb keeps,
    /// so a drawing copied and moved by any offset compares equal after
    /// the translation (doubles would round the differences).
    public func suspiciousRuns(_ thresholds: SuspicionThresholds) throws -> [SuspiciousRun] {
        let rows = try connection.query("""
            WITH recent AS (
                SELECT result_id FROM result_answers WHERE seq = 0
                ORDER BY finished_at DESC LIMIT \(thresholds.resultsExamined)::int
            ), answers AS (
                -- The ends of each drawing are read by position (jsonb
                -- arrays index in constant time), once (OFFSET 0 keeps
                -- the stored value from being unpacked for every use):
                -- the drawing's time is its last point's t minus its
                -- first's, and its first point is what the repeat check
                -- moves to (0, 0). No strokes (typed, tapped, past the
                -- bound): no drawing time, no repeat; the answer's own
                -- time still counts.
                SELECT a.result_id, a.seq, a.correct, a.input, a.answered_ms - a.asked_ms AS answer_ms, e.stroke_count,
                       (e.first ->> 0)::numeric AS x0, (e.first ->> 1)::numeric AS y0,
                       (e.last ->> 0)::numeric AS x1, (e.last ->> 1)::numeric AS y1,
                       ((e.last ->> 2)::numeric - (e.first ->> 2)::numeric)::int AS drawing_ms
                FROM result_answers a JOIN recent USING (result_id),
                     LATERAL (SELECT a.strokes -> 0 -> 0 AS first, a.strokes -> -1 -> -1 AS last,
                                     CASE WHEN jsonb_typeof(a.strokes) = 'array' THEN jsonb_array_length(a.strokes) END AS stroke_count
                              OFFSET 0) e
            ), fast AS (
                SELECT result_id, count(*) AS n,
                       min(drawing_ms) FILTER (WHERE input = 'drawn' AND drawing_ms < \(thresholds.drawingMs)::int) AS quickest_drawing,
                       min(answer_ms) FILTER (WHERE answer_ms < \(thresholds.answerMs)::int) AS quickest_answer
                FROM answers
                WHERE correct AND ((input = 'drawn' AND drawing_ms < \(thresholds.drawingMs)::int) OR answer_ms < \(thresholds.answerMs)::int)
                GROUP BY result_id
            ), alike AS (
                -- Drawings of one run that may be the same: as many strokes,
                -- and the last point as far from the first. Only these are
                -- compared point by point.
                SELECT result_id, seq, x0, y0,
                       count(*) OVER (PARTITION BY result_id, stroke_count, trim_scale(x1 - x0), trim_scale(y1 - y0)) AS twins
                FROM answers WHERE input = 'drawn' AND x0 IS NOT NULL AND y0 IS NOT NULL AND x1 IS NOT NULL AND y1 IS NOT NULL
            ), shapes AS (
                -- Each point moved by the first point's opposite, written
                -- without trailing zeros: equal drawings, equal text.
                SELECT d.result_id, d.seq,
                       md5(string_agg(r.i || ':' || trim_scale((q.p ->> 0)::numeric - d.x0) || ',' || trim_scale((q.p ->> 1)::numeric - d.y0),
                                      ' ' ORDER BY r.i, q.j)) AS shape,
                       count(*) AS point_count
                FROM alike d JOIN result_answers a ON a.result_id = d.result_id AND a.seq = d.seq,
                     jsonb_array_elements(a.strokes) WITH ORDINALITY r (s, i), jsonb_array_elements(r.s) WITH ORDINALITY q (p, j)
                WHERE d.twins >= 2
                GROUP BY d.result_id, d.seq
            ), repeated AS (
                SELECT result_id, string_agg(seq::text, ',' ORDER BY seq) AS seqs
                FROM shapes WHERE point_count >= \(thresholds.minRepeatPoints)::int
                GROUP BY result_id, shape HAVING count(*) >= 2
            ), found AS (
                SELECT result_id, 'fast' AS kind, n, quickest_drawing, quickest_answer, NULL AS seqs FROM fast
                UNION ALL
                SELECT result_id, 'repeated', NULL, NULL, NULL, seqs FROM repeated
            )
            SELECT g.race_id, g.game, g.mode, p.name, f.kind, f.n, f.quickest_drawing, f.quickest_answer, f.seqs,
                   (SELECT (extract(epoch FROM max(o.finished_at)) * 1000)::bigint FROM game_results o
                    WHERE o.race_id = g.race_id) AS race_ms
            FROM found f JOIN game_results g ON g.result_id = f.result_id JOIN players p ON p.id = g.player_id
            WHERE g.race_id IS NOT NULL
            ORDER BY race_ms DESC, g.race_id, p.name, f.kind, f.seqs
            """)
        return try rows.rows.indices.map { i in
            let finding: SuspiciousRun.Finding
            if rows.value("kind", row: i) == "fast" {
                finding = .fastCorrect(count: try ScoreStore.int(rows, "n", i),
                                       quickestDrawingMs: rows.value("quickest_drawing", row: i).flatMap { Int($0) },
                                       quickestAnswerMs: rows.value("quickest_answer", row: i).flatMap { Int($0) })
            } else {
                finding = .repeatedStrokes(seqs: try ScoreStore.text(rows, "seqs", i).split(separator: ",").compactMap { Int($0) })
            }
            return SuspiciousRun(raceID: try ScoreStore.text(rows, "race_id", i), game: try ScoreStore.text(rows, "game", i),
                                 mode: try ScoreStore.text(rows, "mode", i),
                                 raceFinishedAtMs: Int64(try ScoreStore.int(rows, "race_ms", i)),
                                 name: try ScoreStore.text(rows, "name", i), finding: finding)
        }
    }
}
