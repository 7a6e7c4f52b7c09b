-- When a link's page was last answered (GET /r/{slug}, 200): with its name and views, its owner
-- sees whether, and when, the person it went to opened it. Written with the views, in their batch
-- (a second or so late). Null: never opened.
ALTER TABLE resume.share_links ADD COLUMN last_viewed_at timestamptz(3);
