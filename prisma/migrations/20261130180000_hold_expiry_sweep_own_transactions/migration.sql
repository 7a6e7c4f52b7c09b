-- The sweep held swept_to back to the start of the oldest transaction under
-- way in the whole database: a pg_dump, a psql session left open or a long
-- report then made each sweep look again at every hold that expired since,
-- and a sweep that grew past the statement timeout would never commit again.
-- Only the ledger's own transactions can add holds, and the ledger bounds
-- them (statement, lock and idle-in-transaction timeouts): the sweep now
-- waits for those alone, its own connections' application_name (`ledger`,
-- set by the service; one in DATABASE_URL wins). Sessions of other roles show
-- no xact_start to it, and with track_activities off none does: then the
-- sweep moves to now(), as before the hold_expiry_sweep_horizon migration.
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
