-- 0003: how many players hold each score on each board, so that a player's
-- rank is a sum over the scores above theirs (a few hundred rows at most)
-- plus a count inside their own score, instead of a count of every better
-- entry (at 1,000,000 players a mid-table rank counted ~600,000 index
-- entries: around-me p99 207 ms). Never edit once landed: add 0004_… instead.
CREATE TABLE highscore_counts (
    mode          text NOT NULL,
    period        text NOT NULL,
    period_start  date NOT NULL,
    score         integer NOT NULL,
    players       integer NOT NULL CHECK (players >= 0),
    PRIMARY KEY (mode, period, period_start, score)   -- the rank's range sum reads this index
);

INSERT INTO highscore_counts (mode, period, period_start, score, players)
SELECT mode, period, period_start, score, count(*) FROM highscores GROUP BY 1, 2, 3, 4;

-- Follows every change of highscores. When a row moves from one score to
-- another, the two count rows are touched in ascending score order, so two
-- writers moving in opposite directions cannot deadlock.
CREATE FUNCTION highscore_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.mode, OLD.period, OLD.period_start, OLD.score)
                          = (NEW.mode, NEW.period, NEW.period_start, NEW.score) THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.score < OLD.score THEN
        PERFORM highscore_counts_add(NEW.mode, NEW.period, NEW.period_start, NEW.score, 1);
        PERFORM highscore_counts_add(OLD.mode, OLD.period, OLD.period_start, OLD.score, -1);
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM highscore_counts_add(OLD.mode, OLD.period, OLD.period_start, OLD.score, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM highscore_counts_add(NEW.mode, NEW.period, NEW.period_start, NEW.score, 1);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION highscore_counts_add(m text, p text, s date, sc integer, delta integer) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO highscore_counts AS c (mode, period, period_start, score, players)
    VALUES (m, p, s, sc, greatest(delta, 0))
    ON CONFLICT (mode, period, period_start, score) DO UPDATE SET players = c.players + delta
$$;

CREATE TRIGGER highscores_count AFTER INSERT OR UPDATE OR DELETE ON highscores
    FOR EACH ROW EXECUTE FUNCTION highscore_counts_follow();

CREATE FUNCTION highscore_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE highscore_counts;
    RETURN NULL;
END $$;

CREATE TRIGGER highscores_count_truncate AFTER TRUNCATE ON highscores
    FOR EACH STATEMENT EXECUTE FUNCTION highscore_counts_clear();
