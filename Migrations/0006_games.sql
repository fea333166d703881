-- 0006: every result and every best belongs to a game. MindPad was the only
-- game so far, so every existing row becomes 'mindpad'. A game may rank
-- lower scores first (the path finder's steps × time / size), so a board is
-- ordered by `rank_key`, ascending: -score for games where more is better,
-- score for games where less is better. The server writes it with each best
-- (`ScoreStore.record`), from the game's declared order.
-- Never edit once landed: add 0007_… instead.

-- Writers wait until the boards and their counts are rebuilt.
LOCK TABLE highscores IN ACCESS EXCLUSIVE MODE;

ALTER TABLE game_results
    ADD COLUMN game text NOT NULL DEFAULT 'mindpad'
        CONSTRAINT game_results_game_check CHECK (game ~ '^[a-z][a-z0-9_]{0,31}$');
ALTER TABLE game_results ALTER COLUMN game DROP DEFAULT;

-- The count triggers of 0004/0005 read columns that change below; they come
-- back at the end, rewritten for (game, rank_key).
DROP TRIGGER highscores_count_insert ON highscores;
DROP TRIGGER highscores_count_update ON highscores;
DROP TRIGGER highscores_count_delete ON highscores;

ALTER TABLE highscores
    ADD COLUMN game text NOT NULL DEFAULT 'mindpad',
    ADD COLUMN rank_key integer;
UPDATE highscores SET rank_key = -score;
ALTER TABLE highscores
    ALTER COLUMN game DROP DEFAULT,
    ALTER COLUMN rank_key SET NOT NULL,
    ADD CONSTRAINT highscores_rank_key_check CHECK (rank_key = score OR rank_key = -score),
    DROP CONSTRAINT highscores_pkey,
    ADD PRIMARY KEY (player_id, game, mode, period, period_start);
-- neg_score (and the board index on it) gives way to rank_key.
ALTER TABLE highscores DROP COLUMN neg_score;
CREATE INDEX highscores_board ON highscores
    (game, mode, period, period_start, rank_key, duration_ms, achieved_at, player_id);

ALTER TABLE admin_resets ADD COLUMN game text;

-- The counts behind the ranks (0003, 0005), now per game and by rank_key:
-- a rank sums the players with a smaller rank_key.
DROP TABLE highscore_counts, highscore_tie_counts;
CREATE TABLE highscore_counts (
    game          text NOT NULL,
    mode          text NOT NULL,
    period        text NOT NULL,
    period_start  date NOT NULL,
    rank_key      integer NOT NULL,
    players       integer NOT NULL CHECK (players >= 0),
    PRIMARY KEY (game, mode, period, period_start, rank_key)
);
CREATE TABLE highscore_tie_counts (
    game          text NOT NULL,
    mode          text NOT NULL,
    period        text NOT NULL CHECK (period = 'all'),
    period_start  date NOT NULL,
    rank_key      integer NOT NULL,
    duration_s    integer NOT NULL,   -- duration_ms / 1000
    players       integer NOT NULL CHECK (players >= 0),
    PRIMARY KEY (game, mode, period, period_start, rank_key, duration_s)
);
INSERT INTO highscore_counts (game, mode, period, period_start, rank_key, players)
SELECT game, mode, period, period_start, rank_key, count(*) FROM highscores GROUP BY 1, 2, 3, 4, 5;
INSERT INTO highscore_tie_counts (game, mode, period, period_start, rank_key, duration_s, players)
SELECT game, mode, period, period_start, rank_key, duration_ms / 1000, count(*) FROM highscores
WHERE period = 'all' GROUP BY 1, 2, 3, 4, 5, 6;

DROP FUNCTION highscore_counts_apply();
DROP TYPE highscore_move;
CREATE TYPE highscore_move AS (game text, mode text, period text, period_start date, rank_key integer,
                               duration_s integer, delta integer);

-- As 0005's, per (game, board, rank_key, second): one transaction at a time
-- (the advisory lock), the statement's rows added up per key first.
CREATE FUNCTION highscore_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    moves highscore_move[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('mindpad.highscore_counts'));
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(ROW(game, mode, period, period_start, rank_key, s, n)::highscore_move) INTO moves FROM (
            SELECT game, mode, period, period_start, rank_key, duration_ms / 1000 AS s, count(*)::integer AS n
            FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6
        ) arrived;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(ROW(game, mode, period, period_start, rank_key, s, -n)::highscore_move) INTO moves FROM (
            SELECT game, mode, period, period_start, rank_key, duration_ms / 1000 AS s, count(*)::integer AS n
            FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6
        ) left_;
    ELSE
        SELECT array_agg(ROW(game, mode, period, period_start, rank_key, s, n)::highscore_move) INTO moves FROM (
            SELECT game, mode, period, period_start, rank_key, s, sum(d)::integer AS n FROM (
                SELECT game, mode, period, period_start, rank_key, duration_ms / 1000 AS s, -1 AS d FROM old_rows
                UNION ALL
                SELECT game, mode, period, period_start, rank_key, duration_ms / 1000, 1 FROM new_rows
            ) both_sides
            GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d) <> 0
        ) moved;
    END IF;
    IF moves IS NULL THEN
        RETURN NULL;
    END IF;

    WITH per_key AS (
        SELECT game, mode, period, period_start, rank_key, sum(delta)::integer AS delta
        FROM unnest(moves) GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0
    ), per_second AS (
        SELECT game, mode, period, period_start, rank_key, duration_s, delta
        FROM unnest(moves) WHERE period = 'all'
    ), key_gains AS (
        INSERT INTO highscore_counts AS c (game, mode, period, period_start, rank_key, players)
        SELECT game, mode, period, period_start, rank_key, delta FROM per_key WHERE delta > 0
        ON CONFLICT (game, mode, period, period_start, rank_key) DO UPDATE SET players = c.players + EXCLUDED.players
    ), key_losses AS (
        UPDATE highscore_counts c SET players = c.players + d.delta FROM per_key d
        WHERE d.delta < 0 AND (c.game, c.mode, c.period, c.period_start, c.rank_key)
                            = (d.game, d.mode, d.period, d.period_start, d.rank_key)
    ), second_gains AS (
        INSERT INTO highscore_tie_counts AS c (game, mode, period, period_start, rank_key, duration_s, players)
        SELECT game, mode, period, period_start, rank_key, duration_s, delta FROM per_second WHERE delta > 0
        ON CONFLICT (game, mode, period, period_start, rank_key, duration_s) DO UPDATE SET players = c.players + EXCLUDED.players
    )
    UPDATE highscore_tie_counts c SET players = c.players + d.delta FROM per_second d
    WHERE d.delta < 0 AND (c.game, c.mode, c.period, c.period_start, c.rank_key, c.duration_s)
                        = (d.game, d.mode, d.period, d.period_start, d.rank_key, d.duration_s);
    RETURN NULL;
END $$;

CREATE TRIGGER highscores_count_insert AFTER INSERT ON highscores
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION highscore_counts_apply();
CREATE TRIGGER highscores_count_update AFTER UPDATE ON highscores
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION highscore_counts_apply();
CREATE TRIGGER highscores_count_delete AFTER DELETE ON highscores
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION highscore_counts_apply();
