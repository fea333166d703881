-- 0004: highscore_counts follows highscores once per statement instead of
-- once per row. Results are now written in batches (one statement for every
-- result that finished meanwhile), and the row trigger of 0003 cost ~40 µs per
-- changed board row, about half of a 200-result batch. A statement trigger
-- sees the statement's old and new rows as transition tables, adds up the
-- changes per (board, score) and applies them in one or two statements.
-- Never edit once landed: add 0005_… instead.
--
-- Deadlocks: every change to highscore_counts first takes one transaction-
-- level advisory lock, so writers of the counts queue instead of locking count
-- rows in different orders. The lock is taken after the statement's own rows
-- are written and held until commit; a writer waiting for it holds only its
-- own highscores rows, which the holder no longer needs.
DROP TRIGGER highscores_count ON highscores;
DROP FUNCTION highscore_counts_follow();
DROP FUNCTION highscore_counts_add(text, text, date, integer, integer);

CREATE FUNCTION highscore_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('mindpad.highscore_counts'));
    IF TG_OP = 'INSERT' THEN
        INSERT INTO highscore_counts AS c (mode, period, period_start, score, players)
        SELECT mode, period, period_start, score, count(*) FROM new_rows GROUP BY 1, 2, 3, 4
        ON CONFLICT (mode, period, period_start, score) DO UPDATE SET players = c.players + EXCLUDED.players;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE highscore_counts c SET players = c.players - d.n
        FROM (SELECT mode, period, period_start, score, count(*) AS n FROM old_rows GROUP BY 1, 2, 3, 4) d
        WHERE (c.mode, c.period, c.period_start, c.score) = (d.mode, d.period, d.period_start, d.score);
    ELSE
        -- An update moves entries between scores: -1 where a row left, +1
        -- where it arrived; a row whose score stayed nets to nothing.
        WITH d AS (
            SELECT mode, period, period_start, score, sum(delta)::integer AS delta FROM (
                SELECT mode, period, period_start, score, -1 AS delta FROM old_rows
                UNION ALL
                SELECT mode, period, period_start, score, 1 FROM new_rows
            ) moves
            GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
        ), moved AS (
            UPDATE highscore_counts c SET players = c.players + d.delta FROM d
            WHERE (c.mode, c.period, c.period_start, c.score) = (d.mode, d.period, d.period_start, d.score)
            RETURNING c.mode, c.period, c.period_start, c.score
        )
        -- A score nobody held before on that board gets its first count row.
        -- (Only gains can be new: a loss is always from a row that exists.)
        INSERT INTO highscore_counts (mode, period, period_start, score, players)
        SELECT mode, period, period_start, score, delta FROM d
        WHERE delta > 0 AND NOT EXISTS (
            SELECT 1 FROM moved m
            WHERE (m.mode, m.period, m.period_start, m.score) = (d.mode, d.period, d.period_start, d.score));
    END IF;
    RETURN NULL;
END $$;

-- Transition tables need one trigger per event. An INSERT … ON CONFLICT DO
-- UPDATE fires the first with its inserted rows and the second with its
-- updated ones.
CREATE TRIGGER highscores_count_insert AFTER INSERT ON highscores
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION highscore_counts_apply();
CREATE TRIGGER highscores_count_update AFTER UPDATE ON highscores
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION highscore_counts_apply();
CREATE TRIGGER highscores_count_delete AFTER DELETE ON highscores
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION highscore_counts_apply();
