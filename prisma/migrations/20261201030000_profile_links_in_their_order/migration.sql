-- A profile's links keep the order the person gave them. `jsonb` sorts an object's keys (shorter
-- first), so links typed as linkedin, github, website came back as github, website, linkedin in
-- every answer and document; `json` keeps the text it is given. Links stored before keep the
-- order `jsonb` gave them: the order typed is not known.
ALTER TABLE resume.profiles DROP CONSTRAINT profiles_links_is_object;
ALTER TABLE resume.profiles
  ALTER COLUMN links DROP DEFAULT,
  ALTER COLUMN links TYPE json USING links::json,
  ALTER COLUMN links SET DEFAULT '{}';
ALTER TABLE resume.profiles ADD CONSTRAINT profiles_links_is_object CHECK (json_typeof(links) = 'object');
