-- 0008: levels (the kids' exercises, issue 17). A game with levels plays
-- one level per race; the result names it. A player's progress through a
-- game's ladder is one row per level they have played for real: their best
-- count of correct answers there (out of the level's 10 questions) and when
-- they first passed it. A level counts only when it was open to the player
-- when the result was stored (level 1, or the level below passed); the
-- server writes that rule into the statement, so a crafted client that plays
-- a locked level practises but unlocks nothing.
-- The highscore resets leave this table alone unless asked (openapi.yaml).
-- Never edit once landed: add 0009_… instead.

ALTER TABLE game_results
    ADD COLUMN level smallint CONSTRAINT game_results_level_check CHECK (level BETWEEN 1 AND 20);

CREATE TABLE level_progress (
    player_id       bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game            text NOT NULL CHECK (game ~ '^[a-z][a-z0-9_]{0,31}$'),
    level           smallint NOT NULL CHECK (level BETWEEN 1 AND 20),
    best_correct    smallint NOT NULL CHECK (best_correct >= 0),
    best_duration_ms integer NOT NULL CHECK (best_duration_ms >= 0),
    passed_at       timestamptz,             -- first result at or above the pass mark
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (player_id, game, level)
);
