-- A person's resume version: a new value from one sequence whenever any row of
-- their resume is inserted, updated or deleted, by any client. The web app
-- serves GET /me/resume again from memory while the version it read is still
-- the current one, and never for someone without a row here. Values come from
-- a sequence, never a per-person counter, so a version is never reused.
CREATE SEQUENCE resume.version_seq;

CREATE TABLE resume.versions (
    user_id TEXT PRIMARY KEY,
    version BIGINT NOT NULL
);

-- Everyone who already has a resume gets a version.
INSERT INTO resume.versions (user_id, version)
SELECT user_id, nextval('resume.version_seq')
  FROM (SELECT user_id FROM resume.profiles
        UNION SELECT user_id FROM resume.experiences
        UNION SELECT user_id FROM resume.educations
        UNION SELECT user_id FROM resume.skills
        UNION SELECT user_id FROM resume.certifications
        UNION SELECT user_id FROM resume.hobbies
        UNION SELECT user_id FROM resume.goals) AS people;

CREATE FUNCTION resume.bump_version() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    person TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END;
BEGIN
    INSERT INTO resume.versions (user_id, version) VALUES (person, nextval('resume.version_seq'))
    ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version;
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
        INSERT INTO resume.versions (user_id, version) VALUES (OLD.user_id, nextval('resume.version_seq'))
        ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version;
    END IF;
    RETURN NULL;
END $$;

-- TRUNCATE names no rows: every person's version moves.
CREATE FUNCTION resume.bump_every_version() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    UPDATE resume.versions SET version = nextval('resume.version_seq');
    RETURN NULL;
END $$;

DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['profiles', 'experiences', 'educations', 'skills', 'certifications', 'hobbies', 'goals'] LOOP
        EXECUTE format(
            'CREATE TRIGGER %1$s_version AFTER INSERT OR UPDATE OR DELETE ON resume.%1$I
                 FOR EACH ROW EXECUTE FUNCTION resume.bump_version()', t);
        EXECUTE format(
            'CREATE TRIGGER %1$s_truncate_version AFTER TRUNCATE ON resume.%1$I
                 FOR EACH STATEMENT EXECUTE FUNCTION resume.bump_every_version()', t);
    END LOOP;
END $$;
