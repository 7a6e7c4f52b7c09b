-- Who or what a share link is for ("Acme, Jane Doe"), so that its owner tells their links apart in
-- the list (and knows which to revoke); shown only to them, never on the public page. Null: not
-- named. The API trims it and keeps it to 100 characters; the check holds the column to the same.
ALTER TABLE resume.share_links ADD COLUMN name text;
ALTER TABLE resume.share_links ADD CONSTRAINT share_links_name_length
  CHECK (char_length(name) BETWEEN 1 AND 100);
