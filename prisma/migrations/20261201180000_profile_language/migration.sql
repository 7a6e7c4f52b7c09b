-- The language a resume is written in, as a BCP 47 tag (`en`, `de`, `pt-BR`, `zh-Hant`): its
-- pages say it (`<html lang>`), and so do its PDF and Word file. Null: found from its text where
-- the script tells (packages/resume/src/resume-language.ts). The API writes it in its canonical
-- form; the check keeps the column to a tag's shape and length.
ALTER TABLE resume.profiles ADD COLUMN language text;
ALTER TABLE resume.profiles ADD CONSTRAINT profiles_language_is_a_tag
  CHECK (language ~ '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$' AND length(language) <= 35);
