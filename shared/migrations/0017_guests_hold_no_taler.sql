-- Guests hold no Taler (shared/accounts.py): a guest costs one request, and throw-away guests
-- that lose staked games on purpose would fill any account.  An account's start credit is
-- booked at its registration, once: this index makes a second one fail whatever the code does.
CREATE UNIQUE INDEX taler_ledger_one_start_credit ON taler_ledger (user_id) WHERE reason = 'start' AND ref = 'account';

-- Guests made before this got a start credit at creation (ref NULL), and may have won or lost
-- with it: whatever a guest holds goes back (the ledger is append-only, so as a row of its
-- own).  Registering later books the account's start credit like any new account's.
INSERT INTO taler_ledger (user_id, amount, reason, ref)
SELECT t.user_id, -SUM(t.amount), 'guest_reset', NULL
FROM taler_ledger t JOIN users u ON u.id = t.user_id
WHERE u.is_guest
GROUP BY t.user_id
HAVING SUM(t.amount) <> 0;
