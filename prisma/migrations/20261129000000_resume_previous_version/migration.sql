-- Each person's version row also keeps the version its last move replaced,
-- written under the same row lock as the move itself. A web server that kept
-- a person's answer at version V, and then wrote one change for them, reads
-- (version, previous_version) after its write commits: previous_version = V
-- means its own move is the only one since V, so the kept answer with its
-- change applied is the resume at `version`, with no statement to read it
-- again (docs/resume-api.md, "The whole resume from memory"). Null until the
-- row first moves.
ALTER TABLE resume.versions ADD COLUMN previous_version BIGINT;

CREATE OR REPLACE FUNCTION resume.bump_version() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    person TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END;
BEGIN
    INSERT INTO resume.versions (user_id, version) VALUES (person, nextval('resume.version_seq'))
    ON CONFLICT (user_id) DO UPDATE SET previous_version = resume.versions.version, version = EXCLUDED.version;
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
        INSERT INTO resume.versions (user_id, version) VALUES (OLD.user_id, nextval('resume.version_seq'))
        ON CONFLICT (user_id) DO UPDATE SET previous_version = resume.versions.version, version = EXCLUDED.version;
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION resume.bump_every_version() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    UPDATE resume.versions SET previous_version = version, version = nextval('resume.version_seq');
    RETURN NULL;
END $$;
