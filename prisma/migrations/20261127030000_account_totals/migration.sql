-- Partial sums of bounded accounts, so that checking a bound costs the same
-- for an account with a thousand entries, or thousands of holds, as for one
-- with a few. Balances stay derived: every answer of the API still sums
-- entries; only the bounds check reads the partial sums.
--
-- Each row is a bounded account's total (the sum of all its entries) and what
-- its open holds reserve (held_debits, held_credits) as of its time (as_of,
-- the clock when it was written), once a transaction or void touching it
-- committed. The bounds trigger writes it under the account's lock, so the
-- rows of an account follow its commits in order: a post adds its move, a
-- hold its amounts, a post or void of a hold takes the hold's amounts away,
-- and each row takes away the unresolved holds that expired since the row
-- before it. Read at a later time, a row is carried forward the same way,
-- over the few holds expiring in between.
--
-- A row is never changed (UPDATE and DELETE are refused, as is an INSERT by
-- hand). TRUNCATE empties the table and changes no answer: an account without
-- a row is summed from its entries and hold entries, and the next post starts
-- its rows again. `npm run ledger:verify` compares each bounded account's
-- sums, carried to now, with its entries and open holds.
CREATE TABLE ledger.account_totals (
    account_id     UUID NOT NULL,
    version        BIGINT NOT NULL,
    total          NUMERIC NOT NULL,
    held_debits    NUMERIC NOT NULL DEFAULT 0,
    held_credits   NUMERIC NOT NULL DEFAULT 0,
    as_of          TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    -- The transaction that made this row; null: summed afresh when the
    -- account was given bounds, or a void.
    transaction_id UUID,
    -- The hold whose post or void this row applies; null for others.
    resolves       UUID,
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

-- The sum of the account's entries written by other database transactions
-- than this one (which may have none: a read); this one's are added one
-- transaction at a time by the bounds trigger (an entry is always written by
-- its transaction's own top-level transaction).
CREATE FUNCTION ledger.committed_total_of(account UUID) RETURNS NUMERIC
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(amount), 0) FROM ledger.entries
     WHERE account_id = account AND xmin IS DISTINCT FROM pg_current_xact_id_if_assigned()::xid
$$;

-- What the account's unresolved holds expiring in (since, until] reserve:
-- each hold's net amount on the account, its positive part among debits, its
-- negative among credits. Holds and resolutions of other database
-- transactions count; this one's only once its triggers have applied them to
-- the account's rows (`others_only`: never, for a sum started afresh to which
-- they will be applied).
CREATE FUNCTION ledger.held_between(account UUID, since TIMESTAMPTZ, until TIMESTAMPTZ, others_only BOOLEAN,
    OUT debits NUMERIC, OUT credits NUMERIC)
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(greatest(net, 0)), 0), coalesce(sum(least(net, 0)), 0)
      FROM (SELECT h.hold_id, sum(h.amount) AS net
              FROM ledger.hold_entries h
             WHERE h.account_id = account AND h.expires_at > since AND h.expires_at <= until
               AND CASE WHEN h.xmin IS DISTINCT FROM pg_current_xact_id_if_assigned()::xid THEN true
                        WHEN others_only THEN false
                        ELSE EXISTS (SELECT 1 FROM ledger.account_totals t
                                      WHERE t.account_id = account AND t.transaction_id = h.hold_id) END
               AND NOT EXISTS (
                   SELECT 1 FROM ledger.hold_resolutions r
                    WHERE r.hold_id = h.hold_id
                      AND CASE WHEN r.xmin IS DISTINCT FROM pg_current_xact_id_if_assigned()::xid THEN true
                               WHEN others_only THEN false
                               ELSE EXISTS (SELECT 1 FROM ledger.account_totals t
                                             WHERE t.account_id = account AND t.resolves = r.hold_id) END)
             GROUP BY h.hold_id) per_hold
$$;

-- The account's total and held sums at `at`: its latest row carried forward
-- over the unresolved holds that expired since, or, without a row, summed
-- from what other database transactions wrote. `since` is the latest row's
-- time (`at` without one): a hold expiring after it is among the held sums.
CREATE FUNCTION ledger.account_totals_at(account UUID, at TIMESTAMPTZ,
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
    ELSIF at > since THEN
        SELECT * INTO expired FROM ledger.held_between(account, since, at, false);
        debits := debits - expired.debits;
        credits := credits - expired.credits;
    END IF;
END;
$$;

-- What the account's open holds reserve now, holds being resolved by the
-- caller (`resolving`) left out, and, for a bounded account, its total: from
-- its partial sums (or, without a row, from its entries and hold entries).
-- An account without bounds keeps no partial sums: its open holds are summed
-- from its hold entries, and its total is not read (null).
DROP FUNCTION ledger.pending_of(UUID, UUID[]);
CREATE FUNCTION ledger.pending_of(account UUID, resolving UUID[],
    OUT debits NUMERIC, OUT credits NUMERIC, OUT total NUMERIC)
LANGUAGE plpgsql AS $$
DECLARE
    kept RECORD;
    leaving RECORD;
BEGIN
    IF EXISTS (SELECT 1 FROM ledger.accounts a WHERE a.id = account
                  AND (a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL)) THEN
        SELECT * INTO kept FROM ledger.account_totals_at(account, now());
        SELECT coalesce(sum(greatest(net, 0)), 0) AS debits, coalesce(sum(least(net, 0)), 0) AS credits INTO leaving
          FROM (SELECT sum(h.amount) AS net FROM ledger.hold_entries h
                 WHERE h.account_id = account AND h.hold_id = ANY (resolving) AND h.expires_at > greatest(kept.since, now())
                 GROUP BY h.hold_id) per_hold;
        debits := kept.debits - leaving.debits;
        credits := kept.credits - leaving.credits;
        total := kept.total;
    ELSE
        SELECT coalesce(sum(greatest(net, 0)), 0), coalesce(sum(least(net, 0)), 0) INTO debits, credits
          FROM (SELECT h.hold_id, sum(h.amount) AS net
                  FROM ledger.hold_entries h
                 WHERE h.account_id = account AND h.expires_at > now() AND h.hold_id <> ALL (resolving)
                   AND NOT EXISTS (SELECT 1 FROM ledger.hold_resolutions r WHERE r.hold_id = h.hold_id)
                 GROUP BY h.hold_id) per_hold;
    END IF;
END;
$$;

-- Appends the account's next row (its lock held by the caller): `move` on its
-- total, `held` (a new hold's net amount there, expiring at `held_until`)
-- added, `released` (the net amount of a hold resolved now, which expires at
-- `released_until`) taken away unless it expired before the latest row (that
-- row took it away already). Answers the row.
CREATE FUNCTION ledger.append_account_total(account UUID, made_by UUID, move NUMERIC,
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
    IF released <> 0 AND released_until > kept.since THEN
        debits := debits - greatest(released, 0);
        credits := credits - least(released, 0);
    END IF;
    INSERT INTO ledger.account_totals (account_id, version, total, held_debits, held_credits, as_of,
                                       transaction_id, resolves)
    VALUES (account, kept.version + 1, total, debits, credits, at, made_by, resolves);
END;
$$;

-- The bounds of one account a transaction moves, at commit: the account
-- locked, its next row appended (`move` posted, `held` reserved by a new hold
-- until `held_until`, `released` by the post of hold `resolves`, which ran
-- until `released_until`), and the bound it moves toward checked against the
-- total and what open holds may still move it that way.
CREATE FUNCTION ledger.check_account_bounds(account UUID, made_by UUID, move NUMERIC, held NUMERIC,
    held_until TIMESTAMPTZ, resolves UUID, released NUMERIC, released_until TIMESTAMPTZ) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    bounds RECORD;
    kept RECORD;
BEGIN
    SELECT min_balance, max_balance INTO bounds FROM ledger.accounts WHERE id = account FOR NO KEY UPDATE;
    SELECT * INTO kept FROM ledger.append_account_total(account, made_by, move, held, held_until, resolves,
        released, released_until);
    IF move + held > 0 AND bounds.max_balance IS NOT NULL AND kept.total + kept.debits > bounds.max_balance THEN
        RAISE EXCEPTION 'transaction % takes account % to %, beyond its max_balance %',
            made_by, account, kept.total + kept.debits, bounds.max_balance
            USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_balance_limits';
    ELSIF move + held < 0 AND bounds.min_balance IS NOT NULL AND kept.total + kept.credits < bounds.min_balance THEN
        RAISE EXCEPTION 'transaction % takes account % to %, beyond its min_balance %',
            made_by, account, kept.total + kept.credits, bounds.min_balance
            USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_balance_limits';
    END IF;
END;
$$;

-- Each bounded account the transaction moves (its entries; a hold's hold
-- entries; the hold a post resolves), in id order. An ordinary post, the
-- common case, reads only its entries, as before holds.
CREATE OR REPLACE FUNCTION ledger.check_transaction_bounds() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    moved RECORD;
    released_until TIMESTAMPTZ;
BEGIN
    IF NEW.hold_expires_at IS NULL AND NEW.hold_id IS NULL THEN
        FOR moved IN
            SELECT e.account_id, sum(e.amount) AS move
              FROM ledger.entries e JOIN ledger.accounts a ON a.id = e.account_id
             WHERE e.transaction_id = NEW.id AND (a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL)
             GROUP BY e.account_id
             ORDER BY e.account_id
        LOOP
            PERFORM ledger.check_account_bounds(moved.account_id, NEW.id, moved.move, 0, NULL, NULL, 0, NULL);
        END LOOP;
        RETURN NULL;
    END IF;
    IF NEW.hold_id IS NOT NULL THEN
        SELECT hold_expires_at INTO released_until FROM ledger.transactions WHERE id = NEW.hold_id;
    END IF;
    FOR moved IN
        SELECT m.account_id, sum(m.posted) AS move, sum(m.held) AS held, sum(m.released) AS released
          FROM (SELECT account_id, amount AS posted, 0 AS held, 0 AS released FROM ledger.entries
                 WHERE transaction_id = NEW.id
                UNION ALL
                SELECT account_id, 0, amount, 0 FROM ledger.hold_entries WHERE hold_id = NEW.id
                UNION ALL
                SELECT account_id, 0, 0, amount FROM ledger.hold_entries WHERE hold_id = NEW.hold_id) m
          JOIN ledger.accounts a ON a.id = m.account_id
         WHERE a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL
         GROUP BY m.account_id
         ORDER BY m.account_id
    LOOP
        PERFORM ledger.check_account_bounds(moved.account_id, NEW.id, moved.move, moved.held, NEW.hold_expires_at,
            NEW.hold_id, moved.released, released_until);
    END LOOP;
    RETURN NULL;
END;
$$;

-- A void releases its hold on each bounded account of the hold, at commit.
CREATE FUNCTION ledger.release_voided_hold() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    moved RECORD;
    released_until TIMESTAMPTZ;
BEGIN
    SELECT hold_expires_at INTO released_until FROM ledger.transactions WHERE id = NEW.hold_id;
    FOR moved IN
        SELECT h.account_id, sum(h.amount) AS released
          FROM ledger.hold_entries h JOIN ledger.accounts a ON a.id = h.account_id
         WHERE h.hold_id = NEW.hold_id AND (a.min_balance IS NOT NULL OR a.max_balance IS NOT NULL)
         GROUP BY h.account_id
         ORDER BY h.account_id
    LOOP
        PERFORM 1 FROM ledger.accounts WHERE id = moved.account_id FOR NO KEY UPDATE;
        PERFORM ledger.append_account_total(moved.account_id, NULL, 0, 0, NULL, NEW.hold_id, moved.released,
            released_until);
    END LOOP;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER hold_resolutions_release AFTER INSERT ON ledger.hold_resolutions
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.transaction_id IS NULL)
    EXECUTE FUNCTION ledger.release_voided_hold();

-- An account given bounds again starts its rows from what is committed, once
-- every write in flight (entries, holds, their resolutions) has ended.
CREATE FUNCTION ledger.start_account_total() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    at TIMESTAMPTZ := clock_timestamp();
BEGIN
    LOCK TABLE ledger.entries, ledger.hold_entries, ledger.hold_resolutions IN SHARE MODE;
    INSERT INTO ledger.account_totals (account_id, version, total, held_debits, held_credits, as_of)
    SELECT NEW.id, coalesce((SELECT max(version) FROM ledger.account_totals WHERE account_id = NEW.id), 0) + 1,
           ledger.committed_total_of(NEW.id), h.debits, h.credits, at
      FROM ledger.held_between(NEW.id, at, 'infinity', true) h;
    RETURN NULL;
END;
$$;

CREATE TRIGGER accounts_start_total AFTER UPDATE OF min_balance, max_balance ON ledger.accounts
    FOR EACH ROW
    WHEN (OLD.min_balance IS NULL AND OLD.max_balance IS NULL
          AND (NEW.min_balance IS NOT NULL OR NEW.max_balance IS NOT NULL))
    EXECUTE FUNCTION ledger.start_account_total();
