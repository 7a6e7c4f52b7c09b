-- The ledger's invariants, checked with less work per entry (issue 15). What
-- is guaranteed is unchanged: a transaction has at least two entries and sums
-- to zero in each currency at commit; an entry belongs to a transaction written
-- by its own database transaction, carries that transaction's date, and names
-- an account in the account's currency; nothing posted changes.
--
-- Measured with pgbench on the project's 2-core machine, one statement writing
-- N two-entry transactions (as the ledger's group commit does), 16 clients
-- (4 for N = 100), two rounds each: before 5,233-5,362 / 10,905-11,095 /
-- 12,946-13,375 tx/s for N = 1 / 10 / 100; after 7,391-7,537 / 21,566-21,729 /
-- 27,268-27,804.

-- 1. The balance check ran for the transaction and once more for each entry.
-- The transaction's run, at commit, sees all of its entries, and entries can
-- only join a transaction of their own database transaction (3. below): the
-- entries' runs found nothing the transaction's would not. One query now
-- counts and sums.
DROP TRIGGER entries_balanced ON ledger.entries;

CREATE OR REPLACE FUNCTION ledger.check_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    entry_count INTEGER;
    unbalanced_currency TEXT;
BEGIN
    SELECT coalesce(sum(n), 0), min(currency) FILTER (WHERE total <> 0)
      INTO entry_count, unbalanced_currency
      FROM (SELECT currency, count(*) AS n, sum(amount) AS total
              FROM ledger.entries WHERE transaction_id = NEW.id GROUP BY currency) per_currency;
    IF entry_count < 2 THEN
        RAISE EXCEPTION 'transaction % has % entries; at least 2 are required', NEW.id, entry_count
            USING ERRCODE = 'check_violation';
    END IF;
    IF unbalanced_currency IS NOT NULL THEN
        RAISE EXCEPTION 'transaction % does not sum to zero in %', NEW.id, unbalanced_currency
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;

-- 2. Accounts are never removed and never change currency: entries name them.
-- (This is what the entries' foreign key to accounts also guaranteed.)
CREATE FUNCTION ledger.reject_account_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'an account cannot be deleted, nor its id or currency changed: entries name it (%)', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER accounts_keep_id_and_currency BEFORE UPDATE OF id, currency OR DELETE ON ledger.accounts
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_account_change();
CREATE TRIGGER accounts_no_truncate BEFORE TRUNCATE ON ledger.accounts
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_change();

-- 3. The entries' two foreign keys and the per-entry "joins a new transaction"
-- trigger become one check per statement over the rows it inserted. A foreign
-- key locks the row it points at (FOR KEY SHARE): every post locked its
-- accounts, and concurrent posts to one account shared the lock through a
-- MultiXact, a write each. Neither is needed: transactions cannot change or go
-- (transactions_immutable, transactions_no_truncate), accounts cannot change
-- their id or currency or go (2.).
--
-- The check looks each entry's transaction and account up by primary key.
-- PL/pgSQL keeps the plan it made on first use, maybe over a nearly empty
-- table where a sequential scan is cheapest; with sequential scans off for
-- this function the plan stays a lookup per entry however the tables grow.
ALTER TABLE ledger.entries DROP CONSTRAINT entries_transaction_fkey;
ALTER TABLE ledger.entries DROP CONSTRAINT entries_account_fkey;
ALTER TABLE ledger.transactions DROP CONSTRAINT transactions_id_effective_date_key;
DROP TRIGGER entries_join_new_transaction ON ledger.entries;
DROP FUNCTION ledger.check_entry_joins_new_transaction();

CREATE FUNCTION ledger.check_new_entries() RETURNS trigger
LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
    bad RECORD;
BEGIN
    SELECT n.id, n.transaction_id, n.account_id, n.currency, n.effective_date INTO bad
      FROM new_entries n
     WHERE (SELECT t.effective_date FROM ledger.transactions t
             WHERE t.id = n.transaction_id AND t.xmin = pg_current_xact_id()::xid)
               IS DISTINCT FROM n.effective_date
        OR (SELECT a.currency FROM ledger.accounts a WHERE a.id = n.account_id) IS DISTINCT FROM n.currency
     LIMIT 1;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    -- Which rule the entry breaks, for the message (top level only: a row
    -- written inside a savepoint carries another xid).
    IF NOT EXISTS (SELECT 1 FROM ledger.transactions
                    WHERE id = bad.transaction_id AND xmin = pg_current_xact_id()::xid) THEN
        RAISE EXCEPTION 'entries cannot be added to transaction %, posted earlier or not at all', bad.transaction_id
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

CREATE TRIGGER entries_checked AFTER INSERT ON ledger.entries REFERENCING NEW TABLE AS new_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.check_new_entries();

-- 4. A transaction is reversed at most once: the unique index needs only the
-- reversals, not a NULL for every other transaction.
ALTER TABLE ledger.transactions DROP CONSTRAINT transactions_reverses_transaction_id_key;
CREATE UNIQUE INDEX transactions_reverses_transaction_id_key ON ledger.transactions (reverses_transaction_id)
    WHERE reverses_transaction_id IS NOT NULL;
