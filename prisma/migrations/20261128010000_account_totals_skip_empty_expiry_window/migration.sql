-- An account's totals carried forward to `at` look for the holds that expired
-- since its latest row only when one of its hold entries expires in that
-- window at all: the common case, no hold expiring between two posts, is then
-- one probe of hold_entries_account_id_expires_at_idx instead of a call of
-- ledger.held_between, whose cost under many concurrent posts of one bounded
-- account grew with the account (docs/benchmarks.md, "Balance limits and
-- holds"). The answer is the same: with no hold entry in the window, held_between
-- sums nothing.
CREATE OR REPLACE FUNCTION ledger.account_totals_at(account UUID, at TIMESTAMPTZ,
    OUT version BIGINT, OUT total NUMERIC, OUT debits NUMERIC, OUT credits NUMERIC, OUT since TIMESTAMPTZ)
LANGUAGE plpgsql AS $$
DECLARE
    expired RECORD;
BEGIN
    SELECT t.version, t.total, t.held_debits, t.held_credits, t.as_of INTO version, total, debits, credits, since
      FROM ledger.account_totals t WHERE t.account_id = account ORDER BY t.version DESC LIMIT 1;
    IF NOT FOUND THEN
        version := 0;
        total := ledger.committed_total_of(account);
        SELECT h.debits, h.credits INTO debits, credits FROM ledger.held_between(account, at, 'infinity', true) h;
        since := at;
    ELSIF at > since AND EXISTS (SELECT 1 FROM ledger.hold_entries h
                                  WHERE h.account_id = account AND h.expires_at > since AND h.expires_at <= at) THEN
        SELECT * INTO expired FROM ledger.held_between(account, since, at, false);
        debits := debits - expired.debits;
        credits := credits - expired.credits;
    END IF;
END;
$$;
