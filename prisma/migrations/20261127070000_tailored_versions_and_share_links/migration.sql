-- Tailored versions: views of a person's one resume (which entries of each
-- collection, a headline and summary of their own, a theme, the email hidden
-- or not). `include` holds, per collection, "all" or a list of entry ids; an
-- id whose entry was deleted matches nothing, so a deleted entry leaves every
-- version without anything to clean up. The name stays clear of
-- resume.versions, the cache counter below.
CREATE TABLE resume.tailored_versions (
    id UUID PRIMARY KEY,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    headline TEXT,
    summary TEXT,
    theme TEXT,
    hide_email BOOLEAN NOT NULL DEFAULT false,
    include JSONB NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE INDEX tailored_versions_user_id_created_at_idx ON resume.tailored_versions (user_id, created_at);

-- A version's answers are kept in memory under the person's resume version
-- (the counter of the migration resume_versions), so a change to a version
-- moves that counter like a change to an entry does.
CREATE TRIGGER tailored_versions_version AFTER INSERT OR UPDATE OR DELETE ON resume.tailored_versions
    FOR EACH ROW EXECUTE FUNCTION resume.bump_version();
CREATE TRIGGER tailored_versions_truncate_version AFTER TRUNCATE ON resume.tailored_versions
    FOR EACH STATEMENT EXECUTE FUNCTION resume.bump_every_version();

-- Share links: a public page of one version at /r/<slug>. The slug is kept
-- (its owner copies the link again from the list) and looked up by its
-- SHA-256, so the time of a lookup says nothing about how near a guess came.
-- Revoking deletes the row. No version trigger: views move here every second.
CREATE TABLE resume.share_links (
    id UUID PRIMARY KEY,
    version_id UUID NOT NULL REFERENCES resume.tailored_versions (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    slug TEXT NOT NULL,
    slug_hash BYTEA NOT NULL UNIQUE,
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ(3),
    views BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX share_links_version_id_created_at_idx ON resume.share_links (version_id, created_at);

-- Requests to the public pages per client address in the current one-minute
-- window, shared by every web server: resume.rate_limits' scheme for people
-- who are not signed in.
CREATE UNLOGGED TABLE resume.public_rate_limits (
    client_address TEXT PRIMARY KEY,
    window_start TIMESTAMPTZ(3) NOT NULL,
    count INTEGER NOT NULL
);
