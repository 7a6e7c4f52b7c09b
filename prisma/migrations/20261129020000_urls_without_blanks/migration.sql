-- A link or credential URL holding whitespace is now refused (a browser opens
-- one, but it is no URI, and a JSON Resume export holding it was not valid;
-- docs/resume-api.md, "Bodies"). Those stored before are rewritten as the URL
-- a browser opens for them, each whitespace character (JavaScript's \s, what
-- the API refuses) percent-encoded as UTF-8, so that a person's GET, edit, PUT
-- and a backup's restore go on working.
CREATE FUNCTION resume.blanks_percent_encoded(url TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(
           CASE WHEN c ~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
                THEN (SELECT string_agg('%' || upper(encode(substring(convert_to(c, 'UTF8') FROM i FOR 1), 'hex')), ''
                                        ORDER BY i)
                        FROM generate_series(1, octet_length(convert_to(c, 'UTF8'))) AS i)
                ELSE c END,
           '' ORDER BY n)
    FROM regexp_split_to_table(url, '') WITH ORDINALITY AS t(c, n)
$$;

UPDATE resume.profiles p
   SET links = (SELECT jsonb_object_agg(key, resume.blanks_percent_encoded(value)) FROM jsonb_each_text(p.links))
 WHERE EXISTS (SELECT 1 FROM jsonb_each_text(p.links)
                WHERE value ~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]');

UPDATE resume.certifications
   SET credential_url = resume.blanks_percent_encoded(credential_url)
 WHERE credential_url ~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]';

DROP FUNCTION resume.blanks_percent_encoded(TEXT);
