-- The resume API's rate limit, shared by every web server instance: each
-- user's requests in their current one-minute window. UNLOGGED: counting a
-- request writes no WAL, and a crash that forgets the counts costs nothing.
CREATE UNLOGGED TABLE resume.rate_limits (
    user_id TEXT PRIMARY KEY,
    window_start TIMESTAMPTZ(3) NOT NULL,
    count INTEGER NOT NULL
);

-- Idempotency-Key of POST /me/{collection}: the first create's answer, kept
-- (at least 24 h) so that a retry with the same key gets it again instead of
-- a second entry. Written in the create's own transaction: a create that is
-- refused or rolled back leaves the key unused.
CREATE TABLE resume.idempotency_keys (
    user_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    collection TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    entry JSONB NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, idempotency_key)
);

CREATE INDEX idempotency_keys_created_at_idx ON resume.idempotency_keys (created_at);
