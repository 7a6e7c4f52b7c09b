-- Balance limits: an account may carry a lower and an upper bound on the
-- plain sum of its entries (a wallet that may not be overdrawn: a liability
-- with max_balance 0). The ledger refuses a post that would move a balance
-- past a bound it moves toward; this migration makes the database refuse it
-- too, as it refuses an unbalanced transaction: raw SQL included.

ALTER TABLE ledger.accounts
    ADD COLUMN min_balance BIGINT,
    ADD COLUMN max_balance BIGINT,
    ADD COLUMN updated_at TIMESTAMPTZ(3);
-- Accounts were never changed before: each was last changed when it was made.
UPDATE ledger.accounts SET updated_at = created_at;
ALTER TABLE ledger.accounts
    ALTER COLUMN updated_at SET NOT NULL,
    ALTER COLUMN updated_at SET DEFAULT now(),
    ADD CONSTRAINT accounts_min_balance_safe
        CHECK (min_balance BETWEEN -9007199254740991 AND 9007199254740991),
    ADD CONSTRAINT accounts_max_balance_safe
        CHECK (max_balance BETWEEN -9007199254740991 AND 9007199254740991),
    ADD CONSTRAINT accounts_bounds_ordered CHECK (min_balance <= max_balance);

-- At commit, each account a transaction moved toward one of its bounds must
-- not be beyond it: for max_balance when the transaction's entries on the
-- account sum above zero, for min_balance when below. The sum counts every
-- entry of the account, whatever its date.
--
-- Commits that touch one bounded account are serialized on its row (FOR NO
-- KEY UPDATE, which a PATCH of the account's bounds also takes): the sum is
-- read after the lock is held, in a statement of its own, so it sees every
-- transaction that committed before, and two writers cannot both take the
-- last room. Accounts are locked in id order; the ledger's own statements
-- lock the bounded accounts of all their posts in that order up front, so
-- they cannot deadlock on each other. Accounts without bounds take no lock.
CREATE FUNCTION ledger.check_transaction_bounds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    moved RECORD;
    bounds RECORD;
    total NUMERIC;
BEGIN
    FOR moved IN
        SELECT e.account_id, sum(e.amount) AS move
          FROM ledger.entries e JOIN ledger.accounts a ON a.id = e.account_id
         WHERE e.transaction_id = NEW.id AND (a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL)
         GROUP BY e.account_id
         ORDER BY e.account_id
    LOOP
        SELECT min_balance, max_balance INTO bounds FROM ledger.accounts WHERE id = moved.account_id FOR NO KEY UPDATE;
        SELECT coalesce(sum(amount), 0) INTO total FROM ledger.entries WHERE account_id = moved.account_id;
        IF moved.move > 0 AND bounds.max_balance IS NOT NULL AND total > bounds.max_balance THEN
            RAISE EXCEPTION 'transaction % takes account % to %, beyond its max_balance %',
                NEW.id, moved.account_id, total, bounds.max_balance
                USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_balance_limits';
        ELSIF moved.move < 0 AND bounds.min_balance IS NOT NULL AND total < bounds.min_balance THEN
            RAISE EXCEPTION 'transaction % takes account % to %, beyond its min_balance %',
                NEW.id, moved.account_id, total, bounds.min_balance
                USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_balance_limits';
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER transactions_within_bounds
    AFTER INSERT ON ledger.transactions
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger.check_transaction_bounds();
