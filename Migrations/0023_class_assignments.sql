-- 0023: work a teacher sets for a class (issue 46, item 3): a game, mode
-- and level (and a due date, optional) its pupils play solo when they
-- like. A run played for an assignment is a race of the class
-- (class_races, with the assignment), so it is in the class's reports as
-- its lessons are. Deleting the assignment keeps the races in the class
-- (their assignment forgotten); deleting the class takes both.
-- Never edit once landed: add 0024_… instead.

CREATE TABLE class_assignments (
    id         uuid PRIMARY KEY,
    class_id   uuid NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    game       text NOT NULL CHECK (char_length(game) BETWEEN 1 AND 32),
    mode       text NOT NULL CHECK (mode IN ('normal', 'survival', 'time_attack')),
    level      integer CHECK (level BETWEEN 1 AND 100),
    due_at     timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX class_assignments_class ON class_assignments (class_id, created_at);

ALTER TABLE class_races ADD COLUMN assignment_id uuid REFERENCES class_assignments (id) ON DELETE SET NULL;
