-- 0002: players, game results, highscores per period, and the admin audit.
-- Never edit this file once it has landed: add 0003_… instead.

-- Players. `name` is shown as typed; `name_key` is the case-insensitive
-- identity computed by the rules layer (lowercased in Swift, so it works for
-- every script whatever the database's locale). The token is a random secret
-- held by the player; only its SHA-256 is stored.
CREATE TABLE players (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 20),
    name_key    text NOT NULL UNIQUE,          -- the lookup by name uses this index
    token_hash  text NOT NULL CHECK (char_length(token_hash) = 64),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Every finished game, append-only. `result_id` is chosen by the server when
-- the game ends and makes writes idempotent: a result replayed from the
-- journal after an uncertain first attempt lands exactly once.
-- `mode` is a game mode key ('normal', 'survival', 'time_attack'; later game
-- kinds add their own keys without a schema change).
-- `duration_ms`: total time of the game; in time_attack, the moment the final
-- score was reached (ties go to whoever got there first).
CREATE TABLE game_results (
    result_id    uuid PRIMARY KEY,
    player_id    bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    mode         text NOT NULL CHECK (mode ~ '^[a-z][a-z0-9_]{0,31}$'),
    score        integer NOT NULL CHECK (score >= 0),
    correct      integer NOT NULL CHECK (correct >= 0),
    answered     integer NOT NULL CHECK (answered >= correct),
    duration_ms  integer NOT NULL CHECK (duration_ms >= 0),
    room_id      text,
    race_id      text,
    finished_at  timestamptz NOT NULL,
    stored_at    timestamptz NOT NULL DEFAULT now()
);
-- "Recent games" of one player (GET /api/players/{name}): newest first.
CREATE INDEX game_results_player_recent ON game_results (player_id, finished_at DESC);

-- Best result per player, per mode, per period. period 'all' has one row per
-- player and mode (period_start 1970-01-01); 'day' has one per UTC day and
-- 'week' one per ISO week (period_start = that Monday). A finished game
-- upserts its three rows in the same statement that stores it, so every
-- leaderboard is the same query on the same index.
-- Better = higher score, then shorter duration, then earlier.
CREATE TABLE highscores (
    player_id     bigint NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    mode          text NOT NULL,
    period        text NOT NULL CHECK (period IN ('all', 'day', 'week')),
    period_start  date NOT NULL,
    score         integer NOT NULL,
    -- All-ascending board order, so that "entries before mine" is one
    -- row comparison (neg_score, duration_ms, achieved_at, player_id) < (…)
    -- that PostgreSQL answers as a range of the index below.
    neg_score     integer GENERATED ALWAYS AS (-score) STORED,
    duration_ms   integer NOT NULL,
    achieved_at   timestamptz NOT NULL,
    result_id     uuid NOT NULL,
    PRIMARY KEY (player_id, mode, period, period_start)  -- the upsert's conflict target; a player's own bests
);
-- Leaderboards: the top N is the first N entries of one (mode, period,
-- period_start) range of this index; a player's neighbours are the entries
-- just before and after theirs (two short scans); their rank is 1 + the
-- number of entries with a strictly better (score, duration, time), an
-- index-only count over the range before them. player_id last makes the
-- order total, so equal entries always list in the same order.
CREATE INDEX highscores_board ON highscores
    (mode, period, period_start, neg_score, duration_ms, achieved_at, player_id);

-- Every admin reset: when, what, who asked, and how many rows went.
CREATE TABLE admin_resets (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at            timestamptz NOT NULL DEFAULT now(),
    scope         text NOT NULL CHECK (scope IN ('all', 'mode', 'player', 'player_mode')),
    mode          text,
    player_name   text,
    requester     text NOT NULL,
    rows_changed  integer NOT NULL
);
