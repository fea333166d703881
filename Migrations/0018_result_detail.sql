-- 0018: a game kind's result detail (issue 44): what a kind adds to a
-- racer's result is one JSON object stored with it, `detail`, which the
-- server shows with the result and which storage never looks into; the
-- part only a replay shows is `replay_detail`, deleted with the run's
-- answers by their retention (MINDPAD_ANSWER_RETENTION_DAYS), like the
-- strokes. Both are objects, written once with the result.
--
-- The path finder's rounds (0009, 0016) move into them, nothing lost:
-- `detail` = {"path": {rows, columns, goal {row, column}, steps,
-- best_steps, tries, grid_shown_ms, goal_reached_ms, rank_value, route:
-- null}} with times in ms from the race start (finished_at − duration_ms),
-- as the `finished` message shows it; `replay_detail` = {"path": {"route":
-- [[row, column, ms], …]}} where a route was kept. A round's rows that
-- predate 0011 get `completed` from whether the robot reached the goal.
-- Never edit once landed: add 0019_… instead.

ALTER TABLE game_results
    ADD COLUMN detail jsonb CONSTRAINT game_results_detail_check CHECK (detail IS NULL OR jsonb_typeof(detail) = 'object'),
    ADD COLUMN replay_detail jsonb
        CONSTRAINT game_results_replay_detail_check CHECK (replay_detail IS NULL OR jsonb_typeof(replay_detail) = 'object');

UPDATE game_results g SET
    detail = jsonb_build_object('path', jsonb_build_object(
        'rows', r.grid_rows, 'columns', r.grid_columns,
        'goal', jsonb_build_object('row', r.goal_row, 'column', r.goal_column),
        'steps', r.steps, 'best_steps', r.best_steps, 'tries', r.tries,
        'grid_shown_ms', GREATEST(0, round(extract(epoch FROM r.started_at - g.finished_at) * 1000) + g.duration_ms)::bigint,
        'goal_reached_ms', CASE WHEN r.ended_at IS NULL THEN NULL
                                ELSE GREATEST(0, round(extract(epoch FROM r.ended_at - g.finished_at) * 1000) + g.duration_ms)::bigint END,
        'rank_value', CASE WHEN r.ended_at IS NULL THEN NULL ELSE g.score / 1000.0 END,
        'route', NULL)),
    replay_detail = CASE WHEN r.route IS NULL THEN NULL ELSE jsonb_build_object('path', jsonb_build_object('route', r.route)) END,
    completed = COALESCE(g.completed, r.ended_at IS NOT NULL)
FROM path_rounds r WHERE r.result_id = g.result_id;

DROP TABLE path_rounds;

-- The retention's sweep of replay details, oldest first.
CREATE INDEX game_results_replay_detail_age ON game_results (finished_at) WHERE replay_detail IS NOT NULL;
