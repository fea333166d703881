-- 0010: every answer of a run, kept for review and replay, and sign-in on
-- more than one device (issue 19). Never edit once landed: add 0011_… instead.

-- One row per graded answer of a stored run (a wrong guess of the path
-- finder's grid included; its moves are not answers), written in the same
-- batch statement as its game_results row and through the same journal
-- when the database is away. `seq` is the answer's place in the run (0…).
-- `prompt`, `answer` and `expected` are the game's own JSON as sent on the
-- wire (`question`'s prompt, `graded`'s answer and expected). `expected` is
-- NULL where the answer stays unsaid (a retry). `asked_ms` and
-- `answered_ms` are milliseconds after the race start: the question sent,
-- the answer received. `strokes` are the drawing as received,
-- [[[x, y, t], …], …] with the client's times in ms; NULL for typed and
-- tapped answers, and for drawings past the per-run bound (the answer
-- itself is still kept). `finished_at` copies the result's, so the
-- retention cleanup is one range of one index.
CREATE TABLE result_answers (
    result_id    uuid NOT NULL REFERENCES game_results (result_id) ON DELETE CASCADE,
    seq          smallint NOT NULL CHECK (seq >= 0),
    question_id  text NOT NULL CHECK (char_length(question_id) BETWEEN 1 AND 32),
    prompt       jsonb NOT NULL,
    answer       jsonb NOT NULL,
    expected     jsonb,
    correct      boolean NOT NULL,
    points       integer NOT NULL,
    input        text NOT NULL CHECK (input IN ('drawn', 'keypad', 'tap')),
    confidence   real CHECK (confidence BETWEEN 0 AND 1),
    asked_ms     integer NOT NULL CHECK (asked_ms >= 0),
    answered_ms  integer NOT NULL CHECK (answered_ms >= asked_ms),
    strokes      jsonb,
    finished_at  timestamptz NOT NULL,
    PRIMARY KEY (result_id, seq)
);
CREATE INDEX result_answers_age ON result_answers (finished_at);

-- A race's results, for its replay (GET /api/races/{race}). Race ids are
-- unique per race from this migration on; older rows hold `<room>-<round>`.
CREATE INDEX game_results_race ON game_results (race_id) WHERE race_id IS NOT NULL;

-- More tokens of one player: a device signed in with a one-time code gets
-- its own token (only its SHA-256 is stored, as players.token_hash). A
-- token of either table identifies the player.
CREATE TABLE player_tokens (
    token_hash  text PRIMARY KEY CHECK (char_length(token_hash) = 64),
    player_id   bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_tokens_player ON player_tokens (player_id);

-- One-time sign-in codes: short, valid for minutes, usable once. Only the
-- SHA-256 of the code is stored; a used or expired code stays until the
-- cleanup so that it is refused with the right reason.
CREATE TABLE sign_in_codes (
    code_hash   text PRIMARY KEY CHECK (char_length(code_hash) = 64),
    player_id   bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    CONSTRAINT sign_in_codes_expiry_check CHECK (expires_at > created_at)
);
CREATE INDEX sign_in_codes_expiry ON sign_in_codes (expires_at);
