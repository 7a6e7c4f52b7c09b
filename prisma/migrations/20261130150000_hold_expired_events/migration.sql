-- A hold that reaches its expiry unresolved gets a `hold.expired` event, so
-- that a feed reader learns of it as of a post or a void (docs/ledger-api.md,
-- "Event feed"). Each ledger instance sweeps for them about once a second
-- (ledger.record_expired_holds, below).
--
-- A hold ends once: posted (its capture's transaction.posted), voided
-- (hold.voided) or expired (hold.expired). The event that ends a hold names
-- it in ends_hold, which is unique. A post or void checks the expiry against
-- the time its transaction began, so one that began just before the expiry
-- may commit after it: if the sweep wrote hold.expired first, its event
-- breaks the unique index and it fails (a 409 HOLD_EXPIRED); if it wrote its
-- event first, the sweep waits for it and writes nothing once it commits.
ALTER TABLE ledger.events DROP CONSTRAINT events_type_known;
ALTER TABLE ledger.events ADD CONSTRAINT events_type_known
    CHECK (type IN ('account.created', 'account.updated', 'transaction.posted',
                    'hold.created', 'hold.voided', 'hold.expired'));
ALTER TABLE ledger.events ADD COLUMN ends_hold UUID;
CREATE UNIQUE INDEX events_ends_hold_key ON ledger.events (ends_hold) WHERE ends_hold IS NOT NULL;

CREATE OR REPLACE FUNCTION ledger.record_transaction_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.events (type, resource_id, ends_hold)
    SELECT CASE WHEN t.hold_expires_at IS NULL THEN 'transaction.posted' ELSE 'hold.created' END, t.id, t.hold_id
      FROM new_transactions t ORDER BY t.idempotency_key;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ledger.record_void_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.events (type, resource_id, ends_hold)
    SELECT 'hold.voided', r.hold_id, r.hold_id FROM new_resolutions r WHERE r.transaction_id IS NULL;
    RETURN NULL;
END $$;

-- The holds by expiry, for the sweep's range.
CREATE INDEX transactions_hold_expires_at_idx ON ledger.transactions (hold_expires_at)
    WHERE hold_expires_at IS NOT NULL;

-- How far the sweeps have written: every hold that expired by swept_to has ended.
CREATE TABLE ledger.hold_expiry_sweeps (
    only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row),
    swept_to TIMESTAMPTZ NOT NULL
);

-- Writes hold.expired, in order of expiry, for each hold that expired since
-- the last sweep unresolved, and answers how many. The sweep of one instance
-- at a time: another one under way, this one writes nothing. Once it has
-- run, every hold that expired by its start has ended one way or the other.
CREATE FUNCTION ledger.record_expired_holds() RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    since TIMESTAMPTZ;
    written INTEGER;
BEGIN
    SELECT swept_to INTO since FROM ledger.hold_expiry_sweeps FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    INSERT INTO ledger.events (type, resource_id, ends_hold, created_at)
    SELECT 'hold.expired', t.id, t.id, t.hold_expires_at
      FROM ledger.transactions t
     WHERE t.hold_expires_at > since AND t.hold_expires_at <= now()
       AND NOT EXISTS (SELECT 1 FROM ledger.hold_resolutions r WHERE r.hold_id = t.id)
     ORDER BY t.hold_expires_at, t.id
    ON CONFLICT (ends_hold) WHERE ends_hold IS NOT NULL DO NOTHING;
    GET DIAGNOSTICS written = ROW_COUNT;
    UPDATE ledger.hold_expiry_sweeps SET swept_to = now();
    RETURN written;
END $$;

-- The holds that expired before the feed told of expiries, as of this migration.
INSERT INTO ledger.hold_expiry_sweeps (swept_to) VALUES ('-infinity');
SELECT ledger.record_expired_holds();
