-- 0019: teachers and their classes (issue 46). A teacher signs in with a
-- name and a password; only a salted, stretched hash of the password is
-- kept (`pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`, libcrypto's
-- PKCS5_PBKDF2_HMAC) and only SHA-256 hashes of the teacher's tokens, as
-- for players. A teacher's names live apart from players' (a teacher may
-- also play under the same name). A class belongs to one teacher and has a
-- short join code for the board: six characters from an alphabet without
-- look-alikes (no 0/O, 1/I/L). Deleting a teacher deletes their classes.
-- Never edit once landed: add 0020_… instead.

CREATE TABLE teachers (
    id             bigserial PRIMARY KEY,
    name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 20),
    name_key       text NOT NULL UNIQUE,
    password_hash  text NOT NULL CHECK (password_hash ~ '^pbkdf2-sha256\$[0-9]+\$[0-9a-f]{32}\$[0-9a-f]{64}$'),
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE teacher_tokens (
    token_hash  text PRIMARY KEY CHECK (char_length(token_hash) = 64),
    teacher_id  bigint NOT NULL REFERENCES teachers (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX teacher_tokens_teacher ON teacher_tokens (teacher_id);

CREATE TABLE classes (
    id          uuid PRIMARY KEY,
    teacher_id  bigint NOT NULL REFERENCES teachers (id) ON DELETE CASCADE,
    name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40),
    join_code   text NOT NULL UNIQUE CHECK (join_code ~ '^[A-HJKMNP-Z2-9]{6}$'),
    created_at  timestamptz NOT NULL DEFAULT now()
);
-- A teacher's classes, oldest first.
CREATE INDEX classes_teacher ON classes (teacher_id, created_at, id);
