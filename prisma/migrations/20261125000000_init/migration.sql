-- Both services' tables. Hand-written (see README, "Database"); every model and
-- field of prisma/schema.prisma must exist here with a matching type, which
-- packages/db/test/schema-drift.test.ts checks.

CREATE SCHEMA IF NOT EXISTS resume;
CREATE SCHEMA IF NOT EXISTS ledger;

-- ------------------------------------------------------------------ resume

CREATE TYPE resume.employment_type AS ENUM ('full-time', 'part-time', 'contract', 'internship', 'self-employed');
CREATE TYPE resume.skill_category AS ENUM ('language', 'framework', 'tool', 'soft-skill');
CREATE TYPE resume.proficiency AS ENUM ('beginner', 'intermediate', 'advanced', 'expert');
CREATE TYPE resume.certification_type AS ENUM ('professional', 'personal');
CREATE TYPE resume.goal_category AS ENUM ('career', 'personal', 'learning');
CREATE TYPE resume.goal_status AS ENUM ('active', 'achieved', 'abandoned');

CREATE TABLE resume.profiles (
    user_id       TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    headline      TEXT,
    summary       TEXT,
    location      TEXT,
    email         TEXT,
    links         JSONB NOT NULL DEFAULT '{}',
    goals_summary TEXT,
    created_at    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT profiles_links_is_object CHECK (jsonb_typeof(links) = 'object')
);

CREATE TABLE resume.experiences (
    id               UUID PRIMARY KEY,
    seq              BIGSERIAL NOT NULL,
    user_id          TEXT NOT NULL,
    organization     TEXT NOT NULL,
    title            TEXT NOT NULL,
    location         TEXT,
    employment_type  resume.employment_type NOT NULL DEFAULT 'full-time',
    start_date       DATE NOT NULL,
    end_date         DATE,
    responsibilities TEXT[] NOT NULL DEFAULT '{}',
    accomplishments  TEXT[] NOT NULL DEFAULT '{}',
    created_at       TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT experiences_dates_in_order CHECK (end_date IS NULL OR end_date >= start_date)
);
CREATE INDEX experiences_user_id_start_date_idx ON resume.experiences (user_id, start_date DESC);

CREATE TABLE resume.educations (
    id             UUID PRIMARY KEY,
    seq            BIGSERIAL NOT NULL,
    user_id        TEXT NOT NULL,
    institution    TEXT NOT NULL,
    degree         TEXT NOT NULL,
    field_of_study TEXT,
    location       TEXT,
    start_date     DATE NOT NULL,
    end_date       DATE,
    gpa            TEXT,
    honors         TEXT,
    activities     TEXT,
    created_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT educations_dates_in_order CHECK (end_date IS NULL OR end_date >= start_date)
);
CREATE INDEX educations_user_id_start_date_idx ON resume.educations (user_id, start_date DESC);

CREATE TABLE resume.skills (
    id               UUID PRIMARY KEY,
    seq              BIGSERIAL NOT NULL,
    user_id          TEXT NOT NULL,
    name             TEXT NOT NULL,
    category         resume.skill_category NOT NULL,
    proficiency      resume.proficiency NOT NULL DEFAULT 'intermediate',
    years_experience DOUBLE PRECISION,
    created_at       TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT skills_years_experience_range CHECK (years_experience IS NULL OR years_experience BETWEEN 0 AND 100)
);
CREATE INDEX skills_user_id_seq_idx ON resume.skills (user_id, seq);

CREATE TABLE resume.certifications (
    id                   UUID PRIMARY KEY,
    seq                  BIGSERIAL NOT NULL,
    user_id              TEXT NOT NULL,
    name                 TEXT NOT NULL,
    issuing_organization TEXT NOT NULL,
    issue_date           DATE NOT NULL,
    expiration_date      DATE,
    credential_id        TEXT,
    credential_url       TEXT,
    type                 resume.certification_type NOT NULL DEFAULT 'professional',
    created_at           TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at           TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT certifications_dates_in_order CHECK (expiration_date IS NULL OR expiration_date >= issue_date)
);
CREATE INDEX certifications_user_id_seq_idx ON resume.certifications (user_id, seq);

CREATE TABLE resume.hobbies (
    id          UUID PRIMARY KEY,
    seq         BIGSERIAL NOT NULL,
    user_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    description TEXT,
    created_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX hobbies_user_id_seq_idx ON resume.hobbies (user_id, seq);

CREATE TABLE resume.goals (
    id          UUID PRIMARY KEY,
    seq         BIGSERIAL NOT NULL,
    user_id     TEXT NOT NULL,
    description TEXT NOT NULL,
    category    resume.goal_category NOT NULL,
    target_date DATE,
    status      resume.goal_status NOT NULL DEFAULT 'active',
    created_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX goals_user_id_seq_idx ON resume.goals (user_id, seq);

-- ------------------------------------------------------------------ ledger

CREATE TYPE ledger.account_type AS ENUM ('asset', 'liability', 'income', 'expense');

CREATE TABLE ledger.accounts (
    id         UUID PRIMARY KEY,
    seq        BIGSERIAL NOT NULL,
    name       TEXT NOT NULL,
    type       ledger.account_type NOT NULL,
    currency   CHAR(3) NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT accounts_currency_format CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT accounts_id_currency_key UNIQUE (id, currency)
);

CREATE TABLE ledger.transactions (
    id                      UUID PRIMARY KEY,
    idempotency_key         VARCHAR(255) NOT NULL,
    request_hash            CHAR(64) NOT NULL,
    description             TEXT,
    effective_date          DATE NOT NULL,
    reverses_transaction_id UUID REFERENCES ledger.transactions (id),
    created_at              TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT transactions_idempotency_key_key UNIQUE (idempotency_key),
    CONSTRAINT transactions_idempotency_key_not_empty CHECK (length(idempotency_key) >= 1),
    -- A transaction is reversed at most once.
    CONSTRAINT transactions_reverses_transaction_id_key UNIQUE (reverses_transaction_id),
    CONSTRAINT transactions_id_effective_date_key UNIQUE (id, effective_date)
);

CREATE TABLE ledger.entries (
    id             UUID PRIMARY KEY,
    transaction_id UUID NOT NULL,
    account_id     UUID NOT NULL,
    currency       CHAR(3) NOT NULL,
    amount         BIGINT NOT NULL,
    effective_date DATE NOT NULL,
    created_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT entries_amount_not_zero CHECK (amount <> 0),
    CONSTRAINT entries_amount_safe CHECK (amount BETWEEN -9007199254740991 AND 9007199254740991),
    -- The entry's currency and date are those of its account and transaction.
    CONSTRAINT entries_account_fkey FOREIGN KEY (account_id, currency)
        REFERENCES ledger.accounts (id, currency),
    CONSTRAINT entries_transaction_fkey FOREIGN KEY (transaction_id, effective_date)
        REFERENCES ledger.transactions (id, effective_date)
);
CREATE INDEX entries_transaction_id_idx ON ledger.entries (transaction_id);
-- Serves the entries page (its exact order) and, by INCLUDE, balances as an
-- index-only scan.
CREATE INDEX entries_account_id_effective_date_created_at_id_idx
    ON ledger.entries (account_id, effective_date DESC, created_at DESC, id DESC) INCLUDE (amount);

-- A transaction must have at least two entries and sum to zero in each currency.
-- Checked at commit (deferred), so entries can be inserted one by one.
CREATE FUNCTION ledger.check_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    tx_id UUID;
    entry_count INTEGER;
    unbalanced_currency TEXT;
BEGIN
    IF TG_TABLE_NAME = 'entries' THEN
        tx_id := NEW.transaction_id;
    ELSE
        tx_id := NEW.id;
    END IF;
    SELECT count(*) INTO entry_count FROM ledger.entries WHERE transaction_id = tx_id;
    IF entry_count < 2 THEN
        RAISE EXCEPTION 'transaction % has % entries; at least 2 are required', tx_id, entry_count
            USING ERRCODE = 'check_violation';
    END IF;
    SELECT currency INTO unbalanced_currency
      FROM ledger.entries WHERE transaction_id = tx_id
     GROUP BY currency HAVING sum(amount) <> 0
     LIMIT 1;
    IF unbalanced_currency IS NOT NULL THEN
        RAISE EXCEPTION 'transaction % does not sum to zero in %', tx_id, unbalanced_currency
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER transactions_balanced
    AFTER INSERT ON ledger.transactions
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger.check_transaction_balanced();

CREATE CONSTRAINT TRIGGER entries_balanced
    AFTER INSERT ON ledger.entries
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger.check_transaction_balanced();

-- Entries join only a transaction written by the same database transaction (at
-- its top level, not inside a savepoint, whose rows carry another xid):
-- entries added later would change a posted transaction.
CREATE FUNCTION ledger.check_entry_joins_new_transaction() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM ledger.transactions
         WHERE id = NEW.transaction_id AND xmin = pg_current_xact_id()::xid
    ) THEN
        RAISE EXCEPTION 'entries cannot be added to transaction %, posted earlier', NEW.transaction_id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER entries_join_new_transaction BEFORE INSERT ON ledger.entries
    FOR EACH ROW EXECUTE FUNCTION ledger.check_entry_joins_new_transaction();

-- Entries and transactions are immutable and append-only.
CREATE FUNCTION ledger.reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% of ledger.% is not allowed: the ledger is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER transactions_immutable BEFORE UPDATE OR DELETE ON ledger.transactions
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER transactions_no_truncate BEFORE TRUNCATE ON ledger.transactions
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER entries_immutable BEFORE UPDATE OR DELETE ON ledger.entries
    FOR EACH ROW EXECUTE FUNCTION ledger.reject_change();
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON ledger.entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_change();
