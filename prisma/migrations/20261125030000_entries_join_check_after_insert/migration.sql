-- The "entries join only a new transaction" check runs AFTER INSERT, at the end
-- of the statement, so that one statement can insert a transaction and its
-- entries (a CTE): a BEFORE trigger cannot see rows its own statement wrote.
DROP TRIGGER entries_join_new_transaction ON ledger.entries;

CREATE OR REPLACE FUNCTION ledger.check_entry_joins_new_transaction() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM ledger.transactions
         WHERE id = NEW.transaction_id AND xmin = pg_current_xact_id()::xid
    ) THEN
        RAISE EXCEPTION 'entries cannot be added to transaction %, posted earlier', NEW.transaction_id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER entries_join_new_transaction AFTER INSERT ON ledger.entries
    FOR EACH ROW EXECUTE FUNCTION ledger.check_entry_joins_new_transaction();
