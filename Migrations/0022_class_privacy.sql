-- 0022: a class's privacy settings (issue 46, item 5). Its pupils' lesson
-- results stay off the public boards unless the teacher allows them
-- (`public_boards`), and the strokes of their lesson answers are kept
-- `stroke_days` days (NULL: as long as the server keeps every answer's,
-- MINDPAD_ANSWER_RETENTION_DAYS), a cleanup blanking them after that.
-- Never edit once landed: add 0023_… instead.

ALTER TABLE classes
    ADD COLUMN public_boards boolean NOT NULL DEFAULT false,
    ADD COLUMN stroke_days integer CHECK (stroke_days BETWEEN 1 AND 3650);
