-- What a JSON Resume import kept, as json rather than jsonb: jsonb stores an
-- object's keys shortest first, so an export gave the document back with its
-- keys reordered; json keeps the text the import wrote, key order included
-- (docs/resume-api.md, "JSON Resume export and import"). Nothing compares or
-- indexes these values, which json could not. What was kept before this
-- migration keeps the order jsonb gave it.
ALTER TABLE resume.json_resume_documents ALTER COLUMN document TYPE json USING document::json;
ALTER TABLE resume.experiences ALTER COLUMN json_resume TYPE json USING json_resume::json;
ALTER TABLE resume.educations ALTER COLUMN json_resume TYPE json USING json_resume::json;
ALTER TABLE resume.skills ALTER COLUMN json_resume TYPE json USING json_resume::json;
ALTER TABLE resume.certifications ALTER COLUMN json_resume TYPE json USING json_resume::json;
ALTER TABLE resume.hobbies ALTER COLUMN json_resume TYPE json USING json_resume::json;
ALTER TABLE resume.goals ALTER COLUMN json_resume TYPE json USING json_resume::json;
