-- Metadata, search, cursor pages and the event feed (docs/ledger-api.md,
-- "Metadata", "Searching transactions", "Pages" and "Event feed").

-- Metadata: string values callers attach to find their accounts and
-- transactions again. A transaction's is fixed with it (the immutability
-- triggers refuse any UPDATE); an account's is replaced by PATCH.
ALTER TABLE ledger.accounts ADD COLUMN metadata JSONB NOT NULL DEFAULT '{}'
    CONSTRAINT accounts_metadata_object CHECK (jsonb_typeof(metadata) = 'object');
ALTER TABLE ledger.transactions ADD COLUMN metadata JSONB NOT NULL DEFAULT '{}'
    CONSTRAINT transactions_metadata_object CHECK (jsonb_typeof(metadata) = 'object');

-- An exact metadata match (metadata @> '{"key": "value"}') is one GIN lookup.
CREATE INDEX accounts_metadata_idx ON ledger.accounts USING gin (metadata jsonb_path_ops);
CREATE INDEX transactions_metadata_idx ON ledger.transactions USING gin (metadata jsonb_path_ops);

-- Every list pages by a key its index is ordered by, so page 9,000 costs what page 1 does.
CREATE UNIQUE INDEX accounts_seq_key ON ledger.accounts (seq);
CREATE INDEX accounts_type_seq_idx ON ledger.accounts (type, seq);
CREATE INDEX accounts_currency_seq_idx ON ledger.accounts (currency, seq);
CREATE INDEX transactions_created_at_id_idx ON ledger.transactions (created_at DESC, id DESC);
CREATE INDEX transactions_effective_date_idx ON ledger.transactions (effective_date, created_at DESC, id DESC);
CREATE INDEX transactions_holds_created_at_id_idx ON ledger.transactions (created_at DESC, id DESC)
    WHERE hold_expires_at IS NOT NULL;
-- The transactions touching an account, newest first: its entries, and its holds' entries.
CREATE INDEX entries_account_id_created_at_idx ON ledger.entries (account_id, created_at DESC, transaction_id DESC);

-- A hold entry's time is its hold's (written by the same statement, so now()
-- is the same); existing ones take it from their hold, once, here.
ALTER TABLE ledger.hold_entries ADD COLUMN created_at TIMESTAMPTZ(3);
ALTER TABLE ledger.hold_entries DISABLE TRIGGER hold_entries_immutable;
UPDATE ledger.hold_entries h SET created_at = t.created_at FROM ledger.transactions t WHERE t.id = h.hold_id;
ALTER TABLE ledger.hold_entries ENABLE TRIGGER hold_entries_immutable;
ALTER TABLE ledger.hold_entries ALTER COLUMN created_at SET DEFAULT now(), ALTER COLUMN created_at SET NOT NULL;
CREATE INDEX hold_entries_account_id_created_at_idx ON ledger.hold_entries (account_id, created_at DESC, hold_id DESC);

-- The event feed: one row per change, written by the triggers below in the
-- transaction that makes the change, so raw SQL writes are in it too.
-- `xact` is that transaction's id. Concurrent writers commit out of id order,
-- so a reader only takes events whose xact is below the oldest transaction
-- still running (pg_snapshot_xmin): every transaction below it has ended, and
-- any that ends later has a higher xact than everything already read. Read in
-- (xact, seq) order, the feed never skips a late commit nor shows an
-- uncommitted one.
CREATE TABLE ledger.events (
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,
    xact        XID8 NOT NULL DEFAULT pg_current_xact_id(),
    type        TEXT NOT NULL,
    resource_id UUID NOT NULL,
    -- account.*: the account row as the change left it (a transaction is immutable: read when answered).
    account     JSONB,
    created_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT events_pkey PRIMARY KEY (seq),
    -- The order readers take events in.
    CONSTRAINT events_xact_seq_key UNIQUE (xact, seq),
    CONSTRAINT events_type_known CHECK (type IN ('account.created', 'account.updated', 'transaction.posted',
                                                 'hold.created', 'hold.voided'))
);
CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON ledger.events
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON ledger.events
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_change();

CREATE FUNCTION ledger.record_account_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.events (type, resource_id, account)
    SELECT CASE TG_OP WHEN 'INSERT' THEN 'account.created' ELSE 'account.updated' END, a.id, to_jsonb(a)
      FROM changed_accounts a ORDER BY a.seq;
    RETURN NULL;
END $$;
CREATE TRIGGER accounts_created_events AFTER INSERT ON ledger.accounts
    REFERENCING NEW TABLE AS changed_accounts
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.record_account_events();
CREATE TRIGGER accounts_updated_events AFTER UPDATE ON ledger.accounts
    REFERENCING NEW TABLE AS changed_accounts
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.record_account_events();

CREATE FUNCTION ledger.record_transaction_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.events (type, resource_id)
    SELECT CASE WHEN t.hold_expires_at IS NULL THEN 'transaction.posted' ELSE 'hold.created' END, t.id
      FROM new_transactions t ORDER BY t.idempotency_key;
    RETURN NULL;
END $$;
CREATE TRIGGER transactions_events AFTER INSERT ON ledger.transactions
    REFERENCING NEW TABLE AS new_transactions
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.record_transaction_events();

-- A hold's post is a transaction (transaction.posted); its void has no transaction of its own.
CREATE FUNCTION ledger.record_void_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger.events (type, resource_id)
    SELECT 'hold.voided', r.hold_id FROM new_resolutions r WHERE r.transaction_id IS NULL;
    RETURN NULL;
END $$;
CREATE TRIGGER hold_resolutions_events AFTER INSERT ON ledger.hold_resolutions
    REFERENCING NEW TABLE AS new_resolutions
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.record_void_events();

-- What happened before the feed existed, in creation order, as of this migration.
INSERT INTO ledger.events (type, resource_id, account, created_at)
SELECT type, resource_id, account, created_at FROM (
    SELECT 'account.created' AS type, a.id AS resource_id, to_jsonb(a) AS account, a.created_at, 0 AS kind, a.seq AS n, NULL::uuid AS id
      FROM ledger.accounts a
    UNION ALL
    SELECT CASE WHEN t.hold_expires_at IS NULL THEN 'transaction.posted' ELSE 'hold.created' END, t.id, NULL, t.created_at, 1, 0, t.id
      FROM ledger.transactions t
    UNION ALL
    SELECT 'hold.voided', r.hold_id, NULL, r.created_at, 2, 0, r.hold_id
      FROM ledger.hold_resolutions r WHERE r.transaction_id IS NULL) past
ORDER BY created_at, kind, n, id;
