-- Wallet: a double-entry ledger, earnings, payouts, orders, PV and binary history.
--
-- Ledger convention: every entry is a signed NUMERIC(20,4), debit positive and credit negative;
-- the entries of one transaction sum to zero. An account's balance is DERIVED from its entries:
-- debit-normal accounts (assets, expenses) show SUM(amount), credit-normal accounts (member
-- wallets, payables, income) show -SUM(amount). No balance is stored anywhere.
-- Timestamps of list rows are timestamptz(3) (millisecond precision) so keyset cursors carry them
-- exactly.

CREATE TABLE ledger_accounts (
  id serial PRIMARY KEY,
  kind text NOT NULL,
  member_id int REFERENCES members(id),
  normal_side char(1) NOT NULL CHECK (normal_side IN ('D', 'C')),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'member_wallet') = (member_id IS NOT NULL))
);
CREATE UNIQUE INDEX ledger_accounts_system_key ON ledger_accounts (kind) WHERE member_id IS NULL;
CREATE UNIQUE INDEX ledger_accounts_wallet_key ON ledger_accounts (member_id) WHERE member_id IS NOT NULL;

CREATE TABLE ledger_transactions (
  id bigserial PRIMARY KEY,
  transaction_group text NOT NULL,
  transaction_type text NOT NULL,
  transaction_key text NOT NULL,
  -- The member the transaction is about (beneficiary of an earning, requester of a payout…).
  member_id int REFERENCES members(id),
  -- The member who generated it (the buyer behind a commission, the sender of a transfer).
  from_member_id int REFERENCES members(id),
  level int,
  rank_id int REFERENCES ranks(id),
  payout_id bigint,
  order_id bigint,
  memo text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX ledger_transactions_member_idx ON ledger_transactions (member_id, created_at);
CREATE INDEX ledger_transactions_payout_idx ON ledger_transactions (payout_id) WHERE payout_id IS NOT NULL;

CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  account_id int NOT NULL REFERENCES ledger_accounts(id),
  amount numeric(20,4) NOT NULL CHECK (amount <> 0),
  -- Copy of the transaction's created_at: a wallet statement is a keyset scan of one index.
  created_at timestamptz(3) NOT NULL,
  UNIQUE (transaction_id, account_id)
);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, created_at, transaction_id);

-- One row per bonus paid to a member: gross amount, deductions and what reached the wallet.
CREATE TABLE earnings (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  bonus_type text NOT NULL,
  amount_generated numeric(20,4) NOT NULL CHECK (amount_generated > 0),
  tax numeric(20,4) NOT NULL DEFAULT 0,
  service_charge numeric(20,4) NOT NULL DEFAULT 0,
  amount_payable numeric(20,4) NOT NULL,
  level int,
  from_member_id int REFERENCES members(id),
  rank_id int REFERENCES ranks(id),
  transaction_id bigint NOT NULL REFERENCES ledger_transactions(id),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (amount_payable = amount_generated - tax - service_charge)
);
CREATE INDEX earnings_member_idx ON earnings (member_id, created_at, id);

-- Status: 1 pending, 2 approved, 3 paid, 4 rejected.
CREATE TABLE payout_requests (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  amount numeric(20,4) NOT NULL CHECK (amount > 0),
  fee numeric(20,4) NOT NULL DEFAULT 0 CHECK (fee >= 0),
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (1, 2, 3, 4)),
  idempotency_key text,
  request_fingerprint text,
  balance_after numeric(20,4),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  paid_at timestamptz(3),
  note text
);
CREATE UNIQUE INDEX payout_requests_idempotency_key ON payout_requests (member_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX payout_requests_member_idx ON payout_requests (member_id, created_at, id);
CREATE INDEX payout_requests_pending_idx ON payout_requests (member_id) WHERE status = 1;

-- A member's identity verification status as payouts see it: not_submitted, pending, approved, rejected.
CREATE TABLE member_kyc (
  member_id int PRIMARY KEY REFERENCES members(id),
  status text NOT NULL CHECK (status IN ('not_submitted', 'pending', 'approved', 'rejected')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  invoice_no text NOT NULL UNIQUE,
  order_type text NOT NULL CHECK (order_type IN ('registration', 'repurchase', 'upgrade')),
  status text NOT NULL,
  package_id int REFERENCES packages(id),
  package_name text,
  total numeric(20,4) NOT NULL,
  total_bv numeric(20,4) NOT NULL,
  payment_method text NOT NULL,
  billing jsonb NOT NULL,
  shipping jsonb,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX orders_member_idx ON orders (member_id, created_at, id);

CREATE TABLE order_items (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders(id),
  sku text NOT NULL,
  name text NOT NULL,
  price numeric(20,4) NOT NULL,
  bv numeric(20,4) NOT NULL,
  quantity int NOT NULL CHECK (quantity > 0),
  expiry date,
  image text
);
CREATE INDEX order_items_order_idx ON order_items (order_id);

-- Personal (pv) and team (tv) volume added to a member, with running totals.
CREATE TABLE pv_history (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  type text NOT NULL,
  pv numeric(20,4) NOT NULL,
  tv numeric(20,4) NOT NULL,
  total_pv numeric(20,4) NOT NULL,
  total_tv numeric(20,4) NOT NULL,
  from_member_id int REFERENCES members(id),
  order_id bigint REFERENCES orders(id),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX pv_history_member_idx ON pv_history (member_id, created_at, id);

-- Binary volume: a row per volume added to a leg (leg set) and per pairing run (leg NULL: a deduction).
CREATE TABLE binary_history (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  type text NOT NULL CHECK (type IN ('left_volume', 'right_volume', 'pairing')),
  leg char(1) CHECK (leg IN ('L', 'R')),
  pv_added numeric(20,4) NOT NULL DEFAULT 0,
  pv_deducted_left numeric(20,4) NOT NULL DEFAULT 0,
  pv_deducted_right numeric(20,4) NOT NULL DEFAULT 0,
  total_left numeric(20,4) NOT NULL,
  total_right numeric(20,4) NOT NULL,
  carry_left numeric(20,4) NOT NULL,
  carry_right numeric(20,4) NOT NULL,
  bonus_generated numeric(20,4) NOT NULL DEFAULT 0,
  bonus_to_pay numeric(20,4) NOT NULL DEFAULT 0,
  capping_limit numeric(20,4),
  period_start date,
  from_member_id int REFERENCES members(id),
  order_id bigint REFERENCES orders(id),
  earning_id bigint REFERENCES earnings(id),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK ((type = 'pairing') = (leg IS NULL))
);
CREATE INDEX binary_history_member_idx ON binary_history (member_id, created_at, id);

ALTER TABLE ledger_transactions ADD FOREIGN KEY (payout_id) REFERENCES payout_requests(id);
ALTER TABLE ledger_transactions ADD FOREIGN KEY (order_id) REFERENCES orders(id);
