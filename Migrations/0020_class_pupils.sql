-- 0020: the pupils of a class (issue 46). A teacher pastes the class's
-- roster (names only: no e-mail, no password); a pupil, who is a player
-- with their device's token, joins with the class's code by picking their
-- name on the roster (first come; `approved` at once) or under a name of
-- their own, which waits for the teacher's approval. A roster name not yet
-- taken has no player. Deleting a class, or the player, takes their rows;
-- a pupil's row deleted removes them from the class only.
-- Never edit once landed: add 0021_… instead.

CREATE TABLE class_pupils (
    class_id   uuid NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 20),
    name_key   text NOT NULL,
    player_id  bigint REFERENCES players (id) ON DELETE CASCADE,
    approved   boolean NOT NULL,
    added_at   timestamptz NOT NULL DEFAULT now(),
    joined_at  timestamptz,
    PRIMARY KEY (class_id, name_key),
    CONSTRAINT class_pupils_joined_check CHECK ((player_id IS NULL) = (joined_at IS NULL)),
    -- A name of the pupil's own is theirs from the start, and waits.
    CONSTRAINT class_pupils_free_name_check CHECK (approved OR player_id IS NOT NULL)
);
-- One place per player in a class.
CREATE UNIQUE INDEX class_pupils_player ON class_pupils (class_id, player_id) WHERE player_id IS NOT NULL;
-- A player's classes.
CREATE INDEX class_pupils_of_player ON class_pupils (player_id) WHERE player_id IS NOT NULL;
