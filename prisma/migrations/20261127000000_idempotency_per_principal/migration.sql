-- An idempotency key belongs to the principal that used it (the `principal`
-- of the credentials file, shared by a principal's rotated key pairs): the
-- same key from two principals makes two transactions, and a replay answers
-- only the principal's own transaction. Before this, keys were global, so one
-- service could read another's transaction through its key, or claim a key
-- first and turn the other's real post into a replay.
--
-- Transactions written before this migration belong to no principal (''):
-- their keys are not replayed. Adding the column with a default rewrites no
-- row (and the ledger's triggers refuse any UPDATE of a transaction); the
-- default is then dropped so that every new row names its principal.
ALTER TABLE ledger.transactions ADD COLUMN principal TEXT NOT NULL DEFAULT '';
ALTER TABLE ledger.transactions ALTER COLUMN principal DROP DEFAULT;
ALTER TABLE ledger.transactions DROP CONSTRAINT transactions_idempotency_key_key;
ALTER TABLE ledger.transactions
    ADD CONSTRAINT transactions_principal_idempotency_key_key UNIQUE (principal, idempotency_key);

-- Idempotency-Key of POST /accounts: the first create's answer, as it was
-- sent, so that a retry with the same key gets it again instead of a second
-- account. Written by the create's own statement: a create that fails writes
-- no key. Kept as long as the ledger (accounts are few).
CREATE TABLE ledger.account_idempotency_keys (
    principal       TEXT NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    request_hash    CHAR(64) NOT NULL,
    account_id      UUID NOT NULL REFERENCES ledger.accounts (id),
    answer          JSON NOT NULL,
    created_at      TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (principal, idempotency_key)
);
