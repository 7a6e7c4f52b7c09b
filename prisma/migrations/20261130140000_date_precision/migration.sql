-- How an entry's dates read on the resume: with their month (Sep 2018) or as
-- years alone (2018) (docs/resume-api.md, "Dates"). The dates stay whole days.
CREATE TYPE resume.date_precision AS ENUM ('month', 'year');
ALTER TABLE resume.experiences ADD COLUMN date_precision resume.date_precision NOT NULL DEFAULT 'month';
ALTER TABLE resume.educations ADD COLUMN date_precision resume.date_precision NOT NULL DEFAULT 'month';
ALTER TABLE resume.certifications ADD COLUMN date_precision resume.date_precision NOT NULL DEFAULT 'month';
ALTER TABLE resume.goals ADD COLUMN date_precision resume.date_precision NOT NULL DEFAULT 'month';

-- An entry imported from a JSON Resume item dated with years alone ("2011"),
-- its dates unchanged since, reads as years, as the same import does from now
-- on: before, "2011" read as "Jan 2011". Each key of `keys` is the item's for
-- the date at the same place in `dates`.
CREATE FUNCTION resume.dated_in_years(item json, dates date[], keys text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT bool_or(given) AND bool_and(CASE WHEN given THEN btrim(value) ~ '^\d{4}$'
                                                       AND date = make_date(btrim(value)::int, 1, 1)
                                          ELSE date IS NULL END)
    FROM unnest(dates, keys) AS u(date, key),
         LATERAL (SELECT item->>key AS value) AS v,
         LATERAL (SELECT coalesce(btrim(v.value), '') <> '' AS given) AS g
$$;

UPDATE resume.experiences SET date_precision = 'year'
 WHERE json_resume IS NOT NULL
   AND resume.dated_in_years(json_resume->'item', ARRAY[start_date, end_date], ARRAY['startDate', 'endDate']);
UPDATE resume.educations SET date_precision = 'year'
 WHERE json_resume IS NOT NULL
   AND resume.dated_in_years(json_resume->'item', ARRAY[start_date, end_date], ARRAY['startDate', 'endDate']);
UPDATE resume.certifications SET date_precision = 'year'
 WHERE json_resume IS NOT NULL
   AND resume.dated_in_years(json_resume->'item', ARRAY[issue_date, expiration_date], ARRAY['date', 'x-expirationDate']);
UPDATE resume.goals SET date_precision = 'year'
 WHERE json_resume IS NOT NULL
   AND resume.dated_in_years(json_resume->'item', ARRAY[target_date], ARRAY['targetDate']);

DROP FUNCTION resume.dated_in_years(json, date[], text[]);
