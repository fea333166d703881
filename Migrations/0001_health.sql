-- 0001: what /healthz and the operators need before the game schema lands.
-- Never edit this file once it has landed: add 0002_… instead.

-- One row that says which deployment created this database, so an operator
-- can tell a MindPad database from another one at a glance.
CREATE TABLE service_info (
    id          boolean PRIMARY KEY DEFAULT true CHECK (id),
    created_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO service_info DEFAULT VALUES;
