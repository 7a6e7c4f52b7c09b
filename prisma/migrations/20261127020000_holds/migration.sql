-- Holds (two-phase posting). A hold is a transaction that reserves amounts
-- until it expires: its entries are hold entries, in no balance and no entries
-- list, counted toward the accounts' bounds while it is open. It is resolved
-- once, by a post (a new transaction naming it in hold_id) or a void; either
-- is a row of its own in hold_resolutions. Nothing is updated: a hold's status
-- (pending, posted, voided, expired) is read from its resolution and its
-- expiry by the clock.

ALTER TABLE ledger.transactions
    -- Set: this transaction is a hold, open until then.
    ADD COLUMN hold_expires_at TIMESTAMPTZ(3),
    -- Set: this transaction posts that hold.
    ADD COLUMN hold_id UUID,
    ADD CONSTRAINT transactions_hold_is_not_a_completion CHECK (hold_expires_at IS NULL OR hold_id IS NULL),
    ADD CONSTRAINT transactions_hold_is_not_a_reversal
        CHECK (hold_expires_at IS NULL OR reverses_transaction_id IS NULL);
CREATE UNIQUE INDEX transactions_hold_id_key ON ledger.transactions (hold_id) WHERE hold_id IS NOT NULL;

CREATE TABLE ledger.hold_entries (
    id         UUID PRIMARY KEY,
    hold_id    UUID NOT NULL,
    account_id UUID NOT NULL,
    currency   CHAR(3) NOT NULL,
    amount     BIGINT NOT NULL,
    -- The hold's, copied so that an account's open holds are one index range.
    expires_at TIMESTAMPTZ(3) NOT NULL,
    position   SMALLINT NOT NULL,
    CONSTRAINT hold_entries_amount_not_zero CHECK (amount <> 0),
    CONSTRAINT hold_entries_amount_safe CHECK (amount BETWEEN -9007199254740991 AND 9007199254740991),
    CONSTRAINT hold_entries_hold_id_position_key UNIQUE (hold_id, position)
);
CREATE INDEX hold_entries_account_id_expires_at_idx ON ledger.hold_entries (account_id, expires_at)
    INCLUDE (hold_id, amount);

-- How each resolved hold was resolved: posted by transaction_id, or voided
-- (transaction_id null) under the principal's idempotency key.
CREATE TABLE ledger.hold_resolutions (
    hold_id         UUID PRIMARY KEY,
    transaction_id  UUID,
    principal       TEXT NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    request_hash    CHAR(64) NOT NULL,
    created_at      TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX hold_resolutions_void_key ON ledger.hold_resolutions (principal, idempotency_key)
    WHERE transaction_id IS NULL;

CREATE TRIGGER hold_entries_immutable BEFORE UPDATE OR DELETE ON ledger.hold_entries
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER hold_entries_no_truncate BEFORE TRUNCATE ON ledger.hold_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER hold_resolutions_immutable BEFORE UPDATE OR DELETE ON ledger.hold_resolutions
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER hold_resolutions_no_truncate BEFORE TRUNCATE ON ledger.hold_resolutions
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_change();

-- What an account's open holds reserve: the positive (debits) and the negative
-- (credits) of each hold's net amount on it, holds being resolved by the
-- caller (`resolving`) left out. Open: unresolved, and expires_at not reached
-- by the transaction's clock.
CREATE FUNCTION ledger.pending_of(account UUID, resolving UUID[], OUT debits NUMERIC, OUT credits NUMERIC)
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(greatest(net, 0)), 0), coalesce(sum(least(net, 0)), 0)
      FROM (SELECT h.hold_id, sum(h.amount) AS net
              FROM ledger.hold_entries h
             WHERE h.account_id = account AND h.expires_at > now() AND h.hold_id <> ALL (resolving)
               AND NOT EXISTS (SELECT 1 FROM ledger.hold_resolutions r WHERE r.hold_id = h.hold_id)
             GROUP BY h.hold_id) per_hold
$$;

-- Entries belong to ordinary transactions, hold entries to holds (the same
-- checks as entries_checked: written with their transaction, in the account's
-- currency, with the hold's expiry).
CREATE OR REPLACE FUNCTION ledger.check_new_entries() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
    bad RECORD;
BEGIN
    SELECT n.id, n.transaction_id, n.account_id, n.currency, n.effective_date INTO bad
      FROM new_entries n
     WHERE (SELECT t.effective_date FROM ledger.transactions t
             WHERE t.id = n.transaction_id AND t.xmin = pg_current_xact_id()::xid AND t.hold_expires_at IS NULL)
               IS DISTINCT FROM n.effective_date
        OR (SELECT a.currency FROM ledger.accounts a WHERE a.id = n.account_id) IS DISTINCT FROM n.currency
     LIMIT 1;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM ledger.transactions
                    WHERE id = bad.transaction_id AND xmin = pg_current_xact_id()::xid) THEN
        RAISE EXCEPTION 'entries cannot be added to transaction %, posted earlier or not at all', bad.transaction_id
            USING ERRCODE = 'restrict_violation';
    ELSIF EXISTS (SELECT 1 FROM ledger.transactions WHERE id = bad.transaction_id AND hold_expires_at IS NOT NULL) THEN
        RAISE EXCEPTION 'transaction % is a hold: its entries are hold entries', bad.transaction_id
            USING ERRCODE = 'restrict_violation';
    ELSIF NOT EXISTS (SELECT 1 FROM ledger.accounts WHERE id = bad.account_id AND currency = bad.currency) THEN
        RAISE EXCEPTION 'entry % names account % in %: there is no such account in that currency',
            bad.id, bad.account_id, bad.currency
            USING ERRCODE = 'foreign_key_violation';
    ELSE
        RAISE EXCEPTION 'entry % is dated %, not as its transaction %', bad.id, bad.effective_date, bad.transaction_id
            USING ERRCODE = 'check_violation';
    END IF;
END;
$$;

CREATE FUNCTION ledger.check_new_hold_entries() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
    bad RECORD;
BEGIN
    SELECT n.id, n.hold_id, n.account_id, n.currency INTO bad
      FROM new_hold_entries n
     WHERE (SELECT t.hold_expires_at FROM ledger.transactions t
             WHERE t.id = n.hold_id AND t.xmin = pg_current_xact_id()::xid)
               IS DISTINCT FROM n.expires_at
        OR (SELECT a.currency FROM ledger.accounts a WHERE a.id = n.account_id) IS DISTINCT FROM n.currency
     LIMIT 1;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM ledger.accounts WHERE id = bad.account_id AND currency = bad.currency) THEN
        RAISE EXCEPTION 'hold entry % names account % in %: there is no such account in that currency',
            bad.id, bad.account_id, bad.currency
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RAISE EXCEPTION 'hold entries join a hold written with them, with its expiry: % does not (hold %)',
        bad.id, bad.hold_id
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER hold_entries_checked AFTER INSERT ON ledger.hold_entries REFERENCING NEW TABLE AS new_hold_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.check_new_hold_entries();

-- A resolution names a hold that is still open by the clock; a post's names
-- the transaction (written with it) that posts the hold.
CREATE FUNCTION ledger.check_hold_resolution() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    expires TIMESTAMPTZ;
BEGIN
    SELECT hold_expires_at INTO expires FROM ledger.transactions WHERE id = NEW.hold_id;
    IF expires IS NULL THEN
        RAISE EXCEPTION 'transaction % is not a hold', NEW.hold_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'hold_resolutions_of_a_hold';
    END IF;
    IF expires <= now() THEN
        RAISE EXCEPTION 'hold % expired at %', NEW.hold_id, expires
            USING ERRCODE = 'check_violation', CONSTRAINT = 'hold_resolutions_before_expiry';
    END IF;
    IF NEW.transaction_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM ledger.transactions
         WHERE id = NEW.transaction_id AND hold_id = NEW.hold_id AND xmin = pg_current_xact_id()::xid) THEN
        RAISE EXCEPTION 'hold % is posted by a transaction written with its resolution, naming it', NEW.hold_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'hold_resolutions_of_a_hold';
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER hold_resolutions_checked AFTER INSERT ON ledger.hold_resolutions
    FOR EACH ROW EXECUTE FUNCTION ledger.check_hold_resolution();

-- At commit: at least two entries summing to zero per currency, counted among
-- hold entries for a hold and entries otherwise; a transaction that posts a
-- hold is that hold's resolution.
CREATE OR REPLACE FUNCTION ledger.check_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    entry_count INTEGER;
    unbalanced_currency TEXT;
BEGIN
    IF NEW.hold_expires_at IS NULL THEN
        SELECT coalesce(sum(n), 0), min(currency) FILTER (WHERE total <> 0)
          INTO entry_count, unbalanced_currency
          FROM (SELECT currency, count(*) AS n, sum(amount) AS total
                  FROM ledger.entries WHERE transaction_id = NEW.id GROUP BY currency) per_currency;
    ELSE
        SELECT coalesce(sum(n), 0), min(currency) FILTER (WHERE total <> 0)
          INTO entry_count, unbalanced_currency
          FROM (SELECT currency, count(*) AS n, sum(amount) AS total
                  FROM ledger.hold_entries WHERE hold_id = NEW.id GROUP BY currency) per_currency;
    END IF;
    IF entry_count < 2 THEN
        RAISE EXCEPTION 'transaction % has % entries; at least 2 are required', NEW.id, entry_count
            USING ERRCODE = 'check_violation';
    END IF;
    IF unbalanced_currency IS NOT NULL THEN
        RAISE EXCEPTION 'transaction % does not sum to zero in %', NEW.id, unbalanced_currency
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.hold_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM ledger.hold_resolutions WHERE hold_id = NEW.hold_id AND transaction_id = NEW.id) THEN
        RAISE EXCEPTION 'transaction % posts hold % without resolving it', NEW.id, NEW.hold_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'hold_resolutions_of_a_hold';
    END IF;
    RETURN NULL;
END;
$$;

-- The bounds at commit, open holds counted: for max_balance, the account's
-- posted total plus what its open holds may still add (their debits); for
-- min_balance, plus what they may still take (their credits). A hold's own
-- amounts are among the open holds' (its move is a reservation); a post of a
-- hold has resolved it, so that hold counts no more.
CREATE OR REPLACE FUNCTION ledger.check_transaction_bounds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    moved RECORD;
    bounds RECORD;
    total NUMERIC;
    pending RECORD;
BEGIN
    FOR moved IN
        SELECT m.account_id, sum(m.amount) AS move
          FROM (SELECT account_id, amount FROM ledger.entries
                 WHERE transaction_id = NEW.id AND NEW.hold_expires_at IS NULL
                UNION ALL
                SELECT account_id, amount FROM ledger.hold_entries
                 WHERE hold_id = NEW.id AND NEW.hold_expires_at IS NOT NULL) m
          JOIN ledger.accounts a ON a.id = m.account_id
         WHERE a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL
         GROUP BY m.account_id
         ORDER BY m.account_id
    LOOP
        SELECT min_balance, max_balance INTO bounds FROM ledger.accounts WHERE id = moved.account_id FOR NO KEY UPDATE;
        SELECT coalesce(sum(amount), 0) INTO total FROM ledger.entries WHERE account_id = moved.account_id;
        SELECT * INTO pending FROM ledger.pending_of(moved.account_id, '{}');
        IF moved.move > 0 AND bounds.max_balance IS NOT NULL AND total + pending.debits > bounds.max_balance THEN
            RAISE EXCEPTION 'transaction % takes account % to %, beyond its max_balance %',
                NEW.id, moved.account_id, total + pending.debits, bounds.max_balance
                USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_balance_limits';
        ELSIF moved.move < 0 AND bounds.min_balance IS NOT NULL AND total + pending.credits < bounds.min_balance THEN
            RAISE EXCEPTION 'transaction % takes account % to %, beyond its min_balance %',
                NEW.id, moved.account_id, total + pending.credits, bounds.min_balance
                USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_balance_limits';
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;
