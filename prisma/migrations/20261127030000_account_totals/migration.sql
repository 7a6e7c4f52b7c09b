-- Partial sums of bounded accounts, so that checking a bound costs the same
-- for an account with a thousand entries as for one with a million. Balances
-- stay derived: every answer of the API still sums entries, except the
-- bounds check, which reads an account's latest total here. Each row is the
-- sum of every entry of the account once a transaction committed, written by
-- the bounds trigger under the account's lock, so the rows of an account
-- follow its commits in order; a row is never changed (UPDATE and DELETE are
-- refused). TRUNCATE empties the table, and nothing answers otherwise: an
-- account without a row is summed from its entries, and the next post starts
-- its rows again. `npm run ledger:verify` compares each bounded account's
-- latest total with the sum of its entries.
CREATE TABLE ledger.account_totals (
    account_id     UUID NOT NULL,
    version        BIGINT NOT NULL,
    total          NUMERIC NOT NULL,
    -- The transaction that made this total; null: summed from the entries when
    -- the account was given bounds.
    transaction_id UUID,
    created_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT account_totals_pkey PRIMARY KEY (account_id, version)
);

CREATE TRIGGER account_totals_immutable BEFORE UPDATE OR DELETE ON ledger.account_totals
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();

-- Only the ledger's triggers write totals (a total written by hand could let
-- a post past a bound): an INSERT from anywhere else is refused.
CREATE FUNCTION ledger.reject_total_by_hand() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'account totals are written by the ledger''s triggers only'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER account_totals_by_triggers_only BEFORE INSERT ON ledger.account_totals
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_total_by_hand();

-- The sum of the account's entries that other database transactions wrote
-- (this one's are added one transaction at a time by the bounds trigger; an
-- entry is always written by its transaction's own top-level transaction).
CREATE FUNCTION ledger.committed_total_of(account UUID) RETURNS NUMERIC
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(amount), 0) FROM ledger.entries
     WHERE account_id = account AND xmin <> pg_current_xact_id()::xid
$$;

-- Totals are kept only while an account has bounds: when one is given bounds
-- again, the entries written meanwhile are in no total. Its total is summed
-- afresh once every database transaction that may have written entries
-- without its lock (it had no bounds then) has ended: the SHARE lock on
-- entries waits for them, and holds new writers back until this commits.
CREATE FUNCTION ledger.start_account_total() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    LOCK TABLE ledger.entries IN SHARE MODE;
    INSERT INTO ledger.account_totals (account_id, version, total)
    SELECT NEW.id, coalesce(max(version), 0) + 1, ledger.committed_total_of(NEW.id)
      FROM ledger.account_totals WHERE account_id = NEW.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER accounts_start_total AFTER UPDATE OF min_balance, max_balance ON ledger.accounts
    FOR EACH ROW
    WHEN (OLD.min_balance IS NULL AND OLD.max_balance IS NULL
          AND (NEW.min_balance IS NOT NULL OR NEW.max_balance IS NOT NULL))
    EXECUTE FUNCTION ledger.start_account_total();

-- The bounds at commit, as before, with the account's total read from its
-- latest row (or, without one, from the entries others committed) plus this
-- transaction's move, and written as the account's next row.
CREATE OR REPLACE FUNCTION ledger.check_transaction_bounds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    moved RECORD;
    bounds RECORD;
    latest_version BIGINT;
    total NUMERIC;
    pending RECORD;
BEGIN
    FOR moved IN
        SELECT m.account_id, sum(m.amount) AS move, bool_or(m.posted) AS posted
          FROM (SELECT account_id, amount, true AS posted FROM ledger.entries
                 WHERE transaction_id = NEW.id AND NEW.hold_expires_at IS NULL
                UNION ALL
                SELECT account_id, amount, false FROM ledger.hold_entries
                 WHERE hold_id = NEW.id AND NEW.hold_expires_at IS NOT NULL) m
          JOIN ledger.accounts a ON a.id = m.account_id
         WHERE a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL
         GROUP BY m.account_id
         ORDER BY m.account_id
    LOOP
        SELECT min_balance, max_balance INTO bounds FROM ledger.accounts WHERE id = moved.account_id FOR NO KEY UPDATE;
        SELECT t.version, t.total INTO latest_version, total FROM ledger.account_totals t
         WHERE t.account_id = moved.account_id ORDER BY t.version DESC LIMIT 1;
        IF NOT FOUND THEN
            latest_version := 0;
            total := ledger.committed_total_of(moved.account_id);
        END IF;
        IF moved.posted THEN
            total := total + moved.move;
            INSERT INTO ledger.account_totals (account_id, version, total, transaction_id)
            VALUES (moved.account_id, latest_version + 1, total, NEW.id);
        END IF;
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
