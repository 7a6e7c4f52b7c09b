-- What JSON Resume users have and the data model lacked: a phone number, the
-- parts of a place (JSON Resume's basics.location), and a skill's keywords.
ALTER TABLE resume.profiles
    ADD COLUMN city TEXT,
    ADD COLUMN region TEXT,
    ADD COLUMN postal_code TEXT,
    ADD COLUMN country_code TEXT,
    ADD COLUMN phone TEXT;

ALTER TABLE resume.skills ADD COLUMN keywords TEXT[] NOT NULL DEFAULT '{}';
