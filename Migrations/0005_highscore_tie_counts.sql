-- 0005: counts inside a score, by whole second of time, so that a rank on
-- the all-time boards never counts a whole tie group entry by entry. With
-- 0003 a rank is the players holding a higher score (a sum over
-- highscore_counts) plus the players with the same score and a better time,
-- counted on the board index. Low scores are shared by many: at 1,000,000
-- players one score held 55,051 entries of a board, and counting them took
-- 16 ms. Now that second part is a sum over the whole seconds before the
-- player's (a few hundred rows at most) plus a count inside their own second.
--
-- Only the all-time boards are counted this way: they hold every player who
-- ever played and grow without end, while a day's or a week's board holds
-- that period's players only. Keeping seconds for those too would cost every
-- result two more count rows for little gain (measured: the counts for all
-- three periods cut batched writes by ~20 %).
-- Never edit once landed: add 0006_… instead.
-- Writers wait while the counts are filled: a board change committed between
-- the fill's snapshot and this migration's commit would be missing from them.
LOCK TABLE highscores IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE highscore_tie_counts (
    mode          text NOT NULL,
    period        text NOT NULL CHECK (period = 'all'),
    period_start  date NOT NULL,
    score         integer NOT NULL,
    duration_s    integer NOT NULL,   -- duration_ms / 1000
    players       integer NOT NULL CHECK (players >= 0),
    PRIMARY KEY (mode, period, period_start, score, duration_s)   -- the rank's second sum reads this index
);

INSERT INTO highscore_tie_counts (mode, period, period_start, score, duration_s, players)
SELECT mode, period, period_start, score, duration_ms / 1000, count(*) FROM highscores
WHERE period = 'all' GROUP BY 1, 2, 3, 4, 5;

-- The net change of one (board, score, second): how many entries arrived
-- there minus how many left.
CREATE TYPE highscore_move AS (mode text, period text, period_start date, score integer, duration_s integer, delta integer);

-- Replaces 0004's function: the same statement triggers now keep both count
-- tables, still one transaction at a time (the advisory lock, see 0004).
-- The statement's rows are added up per (board, score, second) first, so
-- what is held in memory is bounded by the distinct keys, not by the rows
-- (an admin reset may delete millions).
CREATE OR REPLACE FUNCTION highscore_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    moves highscore_move[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('mindpad.highscore_counts'));
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(ROW(mode, period, period_start, score, s, n)::highscore_move) INTO moves FROM (
            SELECT mode, period, period_start, score, duration_ms / 1000 AS s, count(*)::integer AS n
            FROM new_rows GROUP BY 1, 2, 3, 4, 5
        ) arrived;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(ROW(mode, period, period_start, score, s, -n)::highscore_move) INTO moves FROM (
            SELECT mode, period, period_start, score, duration_ms / 1000 AS s, count(*)::integer AS n
            FROM old_rows GROUP BY 1, 2, 3, 4, 5
        ) left_;
    ELSE
        SELECT array_agg(ROW(mode, period, period_start, score, s, n)::highscore_move) INTO moves FROM (
            SELECT mode, period, period_start, score, s, sum(d)::integer AS n FROM (
                SELECT mode, period, period_start, score, duration_ms / 1000 AS s, -1 AS d FROM old_rows
                UNION ALL
                SELECT mode, period, period_start, score, duration_ms / 1000, 1 FROM new_rows
            ) both_sides
            GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0
        ) moved;
    END IF;
    IF moves IS NULL THEN
        RETURN NULL;
    END IF;

    -- Net change per score, and per score and second on the all-time
    -- boards, in one statement:
    -- gains are upserts (a score or second nobody held before gets its
    -- row), losses are updates (a loss is always from a row that exists).
    WITH per_score AS (
        SELECT mode, period, period_start, score, sum(delta)::integer AS delta
        FROM unnest(moves) GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
    ), per_second AS (
        SELECT mode, period, period_start, score, duration_s, delta
        FROM unnest(moves) WHERE period = 'all'
    ), score_gains AS (
        INSERT INTO highscore_counts AS c (mode, period, period_start, score, players)
        SELECT mode, period, period_start, score, delta FROM per_score WHERE delta > 0
        ON CONFLICT (mode, period, period_start, score) DO UPDATE SET players = c.players + EXCLUDED.players
    ), score_losses AS (
        UPDATE highscore_counts c SET players = c.players + d.delta FROM per_score d
        WHERE d.delta < 0 AND (c.mode, c.period, c.period_start, c.score) = (d.mode, d.period, d.period_start, d.score)
    ), second_gains AS (
        INSERT INTO highscore_tie_counts AS c (mode, period, period_start, score, duration_s, players)
        SELECT mode, period, period_start, score, duration_s, delta FROM per_second WHERE delta > 0
        ON CONFLICT (mode, period, period_start, score, duration_s) DO UPDATE SET players = c.players + EXCLUDED.players
    )
    UPDATE highscore_tie_counts c SET players = c.players + d.delta FROM per_second d
    WHERE d.delta < 0 AND (c.mode, c.period, c.period_start, c.score, c.duration_s)
                        = (d.mode, d.period, d.period_start, d.score, d.duration_s);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION highscore_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE highscore_counts, highscore_tie_counts;
    RETURN NULL;
END $$;
