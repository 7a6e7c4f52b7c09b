-- What a JSON Resume import held that the data model has no field for, kept
-- verbatim so that exporting JSON Resume again gives the document back
-- (docs/resume-api.md, "JSON Resume export and import"):
-- * each imported entry keeps its item as the document had it, and its place
--   in the document's list: json_resume = {"position": n, "item": {...}};
-- * the rest of the document (basics, sections without a collection,
--   meta, keys of its own) is one row per person.
-- An entry made or imported otherwise has none, and the person's row goes
-- with an import of the service's own JSON.
ALTER TABLE resume.experiences ADD COLUMN json_resume JSONB;
ALTER TABLE resume.educations ADD COLUMN json_resume JSONB;
ALTER TABLE resume.skills ADD COLUMN json_resume JSONB;
ALTER TABLE resume.certifications ADD COLUMN json_resume JSONB;
ALTER TABLE resume.hobbies ADD COLUMN json_resume JSONB;
ALTER TABLE resume.goals ADD COLUMN json_resume JSONB;

CREATE TABLE resume.json_resume_documents (
    user_id TEXT PRIMARY KEY,
    document JSONB NOT NULL
);

-- Part of the resume: its changes move the person's version as every resume table's do.
CREATE TRIGGER json_resume_documents_version AFTER INSERT OR UPDATE OR DELETE ON resume.json_resume_documents
    FOR EACH ROW EXECUTE FUNCTION resume.bump_version();
CREATE TRIGGER json_resume_documents_truncate_version AFTER TRUNCATE ON resume.json_resume_documents
    FOR EACH STATEMENT EXECUTE FUNCTION resume.bump_every_version();
