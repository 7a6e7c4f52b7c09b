-- Entries keep the order in which they were posted within their transaction,
-- so a transaction reads back (and replays) exactly as it was posted.
ALTER TABLE ledger.entries ADD COLUMN position SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE ledger.entries ALTER COLUMN position DROP DEFAULT;
ALTER TABLE ledger.entries ADD CONSTRAINT entries_transaction_id_position_key UNIQUE (transaction_id, position);
-- The unique index leads with transaction_id and serves its lookups.
DROP INDEX ledger.entries_transaction_id_idx;
