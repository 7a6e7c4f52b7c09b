-- The "entries join only a new transaction" check runs AFTER INSERT, at the end
-- of the statement, so that one statement can insert a transaction and its
-- entries (a CTE): a BEFORE trigger cannot see rows its own statement wrote.
-- The function stays as it is; an AFTER row trigger ignores what it returns.
DROP TRIGGER entries_join_new_transaction ON ledger.entries;

CREATE TRIGGER entries_join_new_transaction AFTER INSERT ON ledger.entries
    FOR EACH ROW EXECUTE FUNCTION ledger.check_entry_joins_new_transaction();
