-- 0024: the lesson a class is having now (issue 46): its room's code and
-- the instance it lives on, set when the teacher's projector opens it and
-- cleared when it ends, so the class's pupils find it without typing a
-- code, and find it again when a drained instance's lesson opens anew on
-- another (the projector opens it there). A pointer left behind by a
-- server that died is ignored after 12 hours, and a stale code is just a
-- room not found.
-- Never edit once landed: add 0025_… instead.

ALTER TABLE classes
    ADD COLUMN lesson_room text CHECK (char_length(lesson_room) BETWEEN 4 AND 8),
    ADD COLUMN lesson_instance text,
    ADD COLUMN lesson_since timestamptz;
