-- A hold's expiry counts from its transaction's start (now() there), but the
-- sweep sees the hold only once that transaction commits. One that waited
-- longer than its hold's seconds (on a bounded account's row lock, behind a
-- frozen server) committed a hold that had expired before a sweep that could
-- not see it, and that sweep moved swept_to past it: it never got its
-- hold.expired. Now swept_to moves no further than the start of the oldest
-- of the ledger's own transactions under way, whose holds all expire after
-- it, so the next sweeps look again from there; a hold that has ended is
-- skipped. Only the ledger's transactions can add holds, and its timeouts
-- bound them; they are found by their connections' application_name (`ledger`,
-- set by the service; one in DATABASE_URL wins), so a dump or a psql session
-- left open holds nothing back. Sessions of other roles show no xact_start,
-- and with track_activities off none does: then the sweep moves to now().
CREATE OR REPLACE FUNCTION ledger.record_expired_holds() RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    since TIMESTAMPTZ;
    horizon TIMESTAMPTZ;
    written INTEGER;
BEGIN
    SELECT swept_to INTO since FROM ledger.hold_expiry_sweeps FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    -- Read before the insert's snapshot: a transaction under way then either shows here, or
    -- began after this one (after now()).
    SELECT least(now(), min(a.xact_start)) INTO horizon
      FROM pg_stat_activity a
     WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL
       AND a.application_name = current_setting('application_name');
    INSERT INTO ledger.events (type, resource_id, ends_hold, created_at)
    SELECT 'hold.expired', t.id, t.id, t.hold_expires_at
      FROM ledger.transactions t
     WHERE t.hold_expires_at > since AND t.hold_expires_at <= now()
       AND NOT EXISTS (SELECT 1 FROM ledger.hold_resolutions r WHERE r.hold_id = t.id)
       AND NOT EXISTS (SELECT 1 FROM ledger.events e WHERE e.ends_hold = t.id)
     ORDER BY t.hold_expires_at, t.id
    ON CONFLICT (ends_hold) WHERE ends_hold IS NOT NULL DO NOTHING;
    GET DIAGNOSTICS written = ROW_COUNT;
    UPDATE ledger.hold_expiry_sweeps SET swept_to = greatest(since, horizon);
    RETURN written;
END $$;
