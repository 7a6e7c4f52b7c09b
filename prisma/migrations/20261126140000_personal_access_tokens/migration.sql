-- Personal access tokens: a person's long-lived keys for REST clients on
-- /me/*. Only the SHA-256 of a token is kept; the token itself is shown once,
-- when it is made. Revoking deletes the row, so a revoked token is unknown at
-- once. last_used_at moves at most once a minute.
CREATE TABLE resume.access_tokens (
    id UUID PRIMARY KEY,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    token_hash BYTEA NOT NULL UNIQUE,
    scopes TEXT[] NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ(3) NOT NULL,
    last_used_at TIMESTAMPTZ(3)
);

CREATE INDEX access_tokens_user_id_created_at_idx ON resume.access_tokens (user_id, created_at);
