-- The checks every post runs at its commit find its rows by id (its entries,
-- its hold, its accounts): one plan serves every post. PostgreSQL chooses for
-- each connection between that generic plan, kept, and a plan made for each
-- call, by comparing their estimates, and chooses again after an ANALYZE. As
-- the ledger's tables grew it sometimes chose to plan every call: that
-- connection then spent about twice the database's CPU on each post, and
-- posting through it ran at half its rate (docs/benchmarks.md, "Posting").
-- The checks keep the generic plan whatever the connection would choose; the
-- setting costs a function call about 0.1 µs. A later CREATE OR REPLACE of
-- either function drops the setting unless it says it again (a SET clause):
-- packages/ledger/test/commit-check-plans.test.ts then fails.
ALTER FUNCTION ledger.check_transaction_balanced() SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION ledger.check_transaction_bounds() SET plan_cache_mode = force_generic_plan;
