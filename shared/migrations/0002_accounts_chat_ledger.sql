-- Accounts, the Wartesaal chat and the Taler ledger.

CREATE TABLE users (
    id            bigserial PRIMARY KEY,
    name          text NOT NULL,
    -- Python's str.casefold() of the name: the database's lower() only folds ASCII
    -- under the C locale, and "Ärger"/"ärger" must collide.
    name_key      text NOT NULL UNIQUE,
    password_hash text,  -- argon2id; NULL while the account is a guest
    is_guest      boolean NOT NULL DEFAULT true,
    created_at    timestamptz NOT NULL DEFAULT now(),
    registered_at timestamptz,
    CHECK (is_guest OR password_hash IS NOT NULL)
);

CREATE TABLE chat_messages (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users(id),
    name       text NOT NULL,  -- the name as it was when written
    body       text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 300),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Every change of a Taler balance is one row; the balance is their sum.
CREATE TABLE taler_ledger (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users(id),
    amount     bigint NOT NULL CHECK (amount <> 0),
    reason     text NOT NULL,
    ref        text,  -- e.g. a game id for stakes and payouts
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX taler_ledger_user ON taler_ledger (user_id);

-- The ledger is append-only: history must never be rewritten.
CREATE FUNCTION taler_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'taler_ledger is append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER taler_ledger_no_update_delete
    BEFORE UPDATE OR DELETE ON taler_ledger
    FOR EACH ROW EXECUTE FUNCTION taler_ledger_append_only();
