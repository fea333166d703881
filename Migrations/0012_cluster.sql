-- 0012: several instances behind HAProxy share one PostgreSQL (issue 21).
-- `instances`: every `mindpad serve` started with MINDPAD_INSTANCE, its
-- heartbeat (`seen_at`, refreshed every few seconds) and whether it is
-- draining. An instance not seen for the liveness window is dead.
-- `room_directory`: which instance owns each open room. The primary key
-- makes room codes unique across the cluster; a row whose instance is dead
-- may be taken over by a new room with the same code. Rooms of a
-- single-instance server (no MINDPAD_INSTANCE) are not listed here.
-- Never edit once landed: add 0013_… instead.
CREATE TABLE instances (
    id         text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,31}$'),
    started_at timestamptz NOT NULL DEFAULT now(),
    seen_at    timestamptz NOT NULL DEFAULT now(),
    draining   boolean NOT NULL DEFAULT false
);

CREATE TABLE room_directory (
    code      text PRIMARY KEY,
    instance  text NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    game      text NOT NULL,
    opened_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX room_directory_instance ON room_directory (instance);
