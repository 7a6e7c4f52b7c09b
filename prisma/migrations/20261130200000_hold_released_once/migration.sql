-- A post or void of a hold that began before the hold's expires_at and
-- committed after it took the hold's amounts away twice from the account's
-- partial sums: once carried forward over the holds that expired since the
-- account's latest row (this transaction's resolution of it is not applied to
-- the account's rows yet, so it counted as unresolved), and once as released.
-- A wallet's room then read more than it holds, and a spend past its bound
-- passed. The release now counts only for a hold still open at the row's time
-- (`released_until > at`): one that has expired by then is the carry-forward's.
CREATE OR REPLACE FUNCTION ledger.append_account_total(account UUID, made_by UUID, move NUMERIC,
    held NUMERIC, held_until TIMESTAMPTZ, resolves UUID, released NUMERIC, released_until TIMESTAMPTZ,
    OUT total NUMERIC, OUT debits NUMERIC, OUT credits NUMERIC)
LANGUAGE plpgsql AS $$
DECLARE
    at TIMESTAMPTZ := clock_timestamp();
    kept RECORD;
BEGIN
    SELECT * INTO kept FROM ledger.account_totals_at(account, at);
    total := kept.total + move;
    debits := kept.debits;
    credits := kept.credits;
    IF held <> 0 AND held_until > at THEN
        debits := debits + greatest(held, 0);
        credits := credits + least(held, 0);
    END IF;
    IF released <> 0 AND released_until > at THEN
        debits := debits - greatest(released, 0);
        credits := credits - least(released, 0);
    END IF;
    INSERT INTO ledger.account_totals (account_id, version, total, held_debits, held_credits, as_of,
                                       transaction_id, resolves)
    VALUES (account, kept.version + 1, total, debits, credits, at, made_by, resolves);
END;
$$;

-- Sums written with a hold released twice are too low from that row on. The
-- table may be emptied at any time (the account_totals migration): each
-- account's next write starts its sums afresh from its entries and open holds.
TRUNCATE ledger.account_totals;
