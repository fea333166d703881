-- 0015: the reader learns each player's hand (issue 43). One row per player
-- whose handwriting the reader has learned from: `hand` is PlayerHand's
-- bytes (per digit, how many of the player's drawings were learned and their
-- mean hidden vector in half precision; 1,306 bytes for the shipped network,
-- never over 4 KB), `learned` the drawings learned in all, `updated_at` the
-- last change (the retention cleanup deletes hands unchanged for
-- MINDPAD_ANSWER_RETENTION_DAYS). Deleted with the player, by a reset of
-- all of a player's bests (or of everyone's), and when the player switches
-- the learning off (`players.learns_hand`, default on) or asks it to forget.
-- Never edit once landed: add 0016_… instead.
CREATE TABLE player_hands (
    player_id   bigint PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    hand        bytea NOT NULL CHECK (octet_length(hand) BETWEEN 1 AND 4096),
    learned     integer NOT NULL CHECK (learned >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_hands_age ON player_hands (updated_at);

ALTER TABLE players ADD COLUMN learns_hand boolean NOT NULL DEFAULT true;
