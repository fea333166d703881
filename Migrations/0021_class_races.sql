-- 0021: the races a class ran in its lessons (issue 46). A teacher's
-- lesson is a room the teacher conducts; each round's race id is kept here
-- with the class, so the class's reports find its pupils' results and
-- answers of lessons (game_results.race_id) and nothing of their play at
-- home. Deleting the class forgets which races were its lessons (the
-- results stay the players' own, kept as long as every result).
-- Never edit once landed: add 0022_… instead.

CREATE TABLE class_races (
    class_id   uuid NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    race_id    text NOT NULL CHECK (char_length(race_id) BETWEEN 1 AND 64),
    room_id    text NOT NULL,
    game       text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (class_id, race_id)
);
