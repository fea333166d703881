-- 0007: the Fish game (Add-One digits, issue 15).
-- * How answers were given: `keypad_answers` of a result's `answered` were
--   typed on the on-screen keypad, the rest written by hand (or tapped or
--   moved, in games answered that way). Rows before 0007 had no keypad: 0.
-- * The player's pet fish: a name and a kind, the best score played with it.
--   A result played with a fish names it in `fish_id`; there is no foreign
--   key, so a result replayed from the journal after its fish was deleted
--   still lands (the best-score update then changes nothing).
-- Never edit once landed: add 0008_… instead.

ALTER TABLE game_results
    ADD COLUMN keypad_answers integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT game_results_keypad_answers_check CHECK (keypad_answers BETWEEN 0 AND answered),
    ADD COLUMN fish_id uuid;

CREATE TABLE fish (
    id          uuid PRIMARY KEY,
    player_id   bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 20),
    kind        text NOT NULL CHECK (kind ~ '^[a-z][a-z_]{0,31}$'),
    best_score  integer NOT NULL DEFAULT 0 CHECK (best_score >= 0),
    created_at  timestamptz NOT NULL DEFAULT now()
);
-- A player's fish, oldest first (the Players page).
CREATE INDEX fish_player ON fish (player_id, created_at, id);
