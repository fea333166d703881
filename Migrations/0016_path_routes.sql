-- 0016: the path finder's route, for the replay (issue 45): every cell the
-- robot stood on, `[row, column, ms]` with ms from the race start, the start
-- cell (1,1) first at the moment the grid was shown, then one entry per move
-- (at most 1,000). NULL for rounds stored before, and once the answers'
-- retention (MINDPAD_ANSWER_RETENTION_DAYS) deleted the round's answers:
-- like the strokes, it is a replay's detail, not a result.
-- Never edit once landed: add 0017_… instead.

ALTER TABLE path_rounds ADD COLUMN route jsonb
    CONSTRAINT path_rounds_route_check CHECK (route IS NULL OR (jsonb_typeof(route) = 'array' AND jsonb_array_length(route) <= 1001));
