-- 0017: one session per player across a cluster (issue 45). Each identify
-- on an instance of a cluster claims the player's session: the row's
-- `generation` goes up by one (an upsert, so concurrent claims of one
-- player queue on the row and count up in commit order) and the same
-- statement announces `<player> <instance> <generation>` on the
-- `mindpad_session` channel. An instance keeps a session only while no
-- claim of a higher generation is known: whatever order the announcements,
-- the identify answers and the listeners' reconnects come in, the newest
-- claim wins everywhere. A single instance (no MINDPAD_INSTANCE) writes
-- nothing here. Deleted with the player.
-- Never edit once landed: add 0018_… instead.
CREATE TABLE player_sessions (
    player_id   bigint PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    generation  bigint NOT NULL CHECK (generation > 0),
    instance    text NOT NULL,
    claimed_at  timestamptz NOT NULL DEFAULT now()
);
