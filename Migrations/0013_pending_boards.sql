-- 0013: the boards follow a stored result moments later, in their own
-- statement, instead of inside the statement the player waits for (issue 20).
-- Measured on 100 results of 1,000,000 players (EXPLAIN ANALYZE, storage
-- bench): the three board upserts, their count triggers and their foreign-key
-- checks were 13 of 21 ms, and the count triggers' advisory lock, held until
-- commit, made two batches queue. What `result_saved` needs is the result
-- stored and the player's previous all-time best; the boards can trail.
--
-- A result that may improve bests (`entersBoards`) gets a row here in the
-- statement that stores it, so it is durable with the result. The boards
-- statement (`ScoreStore.applyPendingBoards`) deletes the rows it takes and
-- upserts the bests in the same transaction, so each is applied exactly once;
-- a row left by a crash or an unreachable database is applied by the next
-- one. No foreign key (a check per result on the path): a row whose result
-- is gone (its player deleted) is dropped when taken.
-- Never edit once landed: add 0014_… instead.
CREATE TABLE pending_boards (
    result_id    uuid PRIMARY KEY,
    player_id    bigint NOT NULL,
    game         text NOT NULL,
    mode         text NOT NULL,
    score        integer NOT NULL,
    -- The same check as the boards', so a bad result is refused when it is
    -- stored, never later when nobody is waiting.
    rank_key     integer NOT NULL CHECK (rank_key = score OR rank_key = -score),
    duration_ms  integer NOT NULL,
    finished_at  timestamptz NOT NULL
);
