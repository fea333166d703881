-- 0009: the grid path finder's rounds (issue 16). One row per racer per
-- race of `path_finder`, written in the same batch as its game_results row.
-- A round starts when the racer's grid is shown (their right guess of rows
-- and columns; the race start if they never guessed it) and ends when the
-- robot stands on the goal. `ended_at` is NULL for a round never finished
-- (the racer left): the seed's ranking then counts the end as the epoch, so
-- such a round ranks last among the player's five most recent; it never
-- enters a leaderboard. `tries` counts wrong guesses of the grid.
-- Never edit once landed: add 0010_… instead.

CREATE TABLE path_rounds (
    result_id    uuid PRIMARY KEY REFERENCES game_results (result_id) ON DELETE CASCADE,
    player_id    bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    grid_rows    smallint NOT NULL CHECK (grid_rows BETWEEN 4 AND 6),
    grid_columns smallint NOT NULL CHECK (grid_columns BETWEEN 4 AND 6),
    grid_size    smallint GENERATED ALWAYS AS (grid_rows * grid_columns) STORED,
    goal_row     smallint NOT NULL,
    goal_column  smallint NOT NULL,
    steps        integer NOT NULL CHECK (steps >= 0),
    best_steps   smallint NOT NULL CHECK (best_steps >= 1),
    tries        integer NOT NULL CHECK (tries >= 0),
    started_at   timestamptz NOT NULL,
    ended_at     timestamptz,
    CONSTRAINT path_rounds_goal_check CHECK (goal_row BETWEEN 1 AND grid_rows AND goal_column BETWEEN 1 AND grid_columns
                                             AND (goal_row, goal_column) <> (1, 1)),
    CONSTRAINT path_rounds_end_check CHECK (ended_at IS NULL OR ended_at >= started_at)
);
-- A player's most recent rounds (GET /api/players/{name}/path_rounds).
CREATE INDEX path_rounds_recent ON path_rounds (player_id, started_at DESC);
