-- A hold's expiry counts from its transaction's start, but the sweep sees the
-- hold only once that transaction commits: one that waited longer than its
-- hold's seconds (on a bounded account's row lock, behind a frozen server)
-- commits a hold that expired before sweeps that could not see it. The
-- sweep used to hold swept_to back to the start of the oldest transaction
-- under way of connections named as its own (application_name): instances
-- named apart, or logged in as roles that cannot see each other's sessions,
-- missed such holds, and they never got their hold.expired.
--
-- Now each sweep keeps its snapshot: a transaction it could not see was under
-- way in it (pg_snapshot_xip) or began after it (at or past pg_snapshot_xmax).
-- The next sweep also looks at the holds made by those transactions that
-- expired by swept_to, so a hold committed late is told by the first sweep
-- after its commit, whatever its connection is called. swept_to moves to each
-- sweep's start, and another program's open transaction holds nothing back
-- but the few holds of the transactions under way with it.
ALTER TABLE ledger.hold_expiry_sweeps ADD COLUMN swept_snapshot pg_snapshot;
UPDATE ledger.hold_expiry_sweeps SET swept_snapshot = pg_current_snapshot();

-- The holds made by a transaction, by its id: the sweep's look at late commits. The
-- feed's index (xact, seq) would serve it too, but the planner, not knowing how few
-- events lie past a snapshot, scans the whole table instead (45 ms a sweep at 330,000
-- events, and growing); this one holds only holds.
CREATE INDEX events_hold_created_xact_idx ON ledger.events (xact) WHERE type = 'hold.created';

-- The holds the sweep missed before: expired, never resolved, never told.
INSERT INTO ledger.events (type, resource_id, ends_hold, created_at)
SELECT 'hold.expired', t.id, t.id, t.hold_expires_at
  FROM ledger.transactions t
 WHERE t.hold_expires_at <= now()
   AND NOT EXISTS (SELECT 1 FROM ledger.hold_resolutions r WHERE r.hold_id = t.id)
   AND NOT EXISTS (SELECT 1 FROM ledger.events e WHERE e.ends_hold = t.id)
 ORDER BY t.hold_expires_at, t.id
ON CONFLICT (ends_hold) WHERE ends_hold IS NOT NULL DO NOTHING;

CREATE OR REPLACE FUNCTION ledger.record_expired_holds() RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    since TIMESTAMPTZ;
    seen pg_snapshot;
    taken pg_snapshot;
    written INTEGER;
BEGIN
    SELECT swept_to, swept_snapshot INTO since, seen FROM ledger.hold_expiry_sweeps FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    -- Taken before the insert's own snapshot: what that one cannot see, this one counts as under way.
    taken := pg_current_snapshot();
    INSERT INTO ledger.events (type, resource_id, ends_hold, created_at)
    SELECT 'hold.expired', t.id, t.id, t.hold_expires_at
      FROM ledger.transactions t
     WHERE t.id IN (
             -- Expired since the last sweep.
             SELECT x.id FROM ledger.transactions x WHERE x.hold_expires_at > since AND x.hold_expires_at <= now()
             -- Made by a transaction the last sweep could not see: begun after it, or under way in it.
             UNION ALL
             SELECT e.resource_id FROM ledger.events e
              WHERE e.type = 'hold.created' AND e.xact >= pg_snapshot_xmax(seen)
             UNION ALL
             SELECT e.resource_id FROM ledger.events e
              WHERE e.type = 'hold.created' AND e.xact = ANY (ARRAY(SELECT pg_snapshot_xip(seen))))
       AND t.hold_expires_at <= now()
       AND NOT EXISTS (SELECT 1 FROM ledger.hold_resolutions r WHERE r.hold_id = t.id)
       AND NOT EXISTS (SELECT 1 FROM ledger.events e WHERE e.ends_hold = t.id)
     ORDER BY t.hold_expires_at, t.id
    ON CONFLICT (ends_hold) WHERE ends_hold IS NOT NULL DO NOTHING;
    GET DIAGNOSTICS written = ROW_COUNT;
    UPDATE ledger.hold_expiry_sweeps SET swept_to = greatest(since, now()), swept_snapshot = taken;
    RETURN written;
END $$;
