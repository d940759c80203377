-- Package purchases (a first package, an upgrade to a higher one, the renewal of an expired one) and
-- wallet top-ups: each is created pending and takes effect once, when its payment is confirmed
-- (server/lib/fulfilment.ts). Over-the-counter payment requests: the member is told the company's bank
-- details and a reference, pays at a bank or a desk, sends the receipt; staff approve or reject.
CREATE TABLE package_purchases (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  package_id int NOT NULL REFERENCES packages(id),
  from_package_id int REFERENCES packages(id),
  kind text NOT NULL CHECK (kind IN ('purchase', 'upgrade', 'renewal')),
  amount numeric(20,4) NOT NULL CHECK (amount > 0),
  pv numeric(20,4) NOT NULL CHECK (pv >= 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'cancelled')),
  payment_method text CHECK (payment_method IN ('wallet', 'card', 'otc')),
  payment_ref text,
  order_id bigint REFERENCES orders(id),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  paid_at timestamptz(3),
  CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
CREATE INDEX package_purchases_member_idx ON package_purchases (member_id, id);

CREATE TABLE wallet_topups (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  amount numeric(20,4) NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'cancelled')),
  payment_ref text,
  transaction_id bigint REFERENCES ledger_transactions(id),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  paid_at timestamptz(3)
);
CREATE INDEX wallet_topups_member_idx ON wallet_topups (member_id, id);

CREATE TABLE otc_requests (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  purpose text NOT NULL CHECK (purpose IN ('order', 'package', 'topup')),
  ref_id bigint NOT NULL,
  amount numeric(20,4) NOT NULL CHECK (amount > 0),
  method text NOT NULL CHECK (method IN ('bank_deposit', 'cash')),
  reference text NOT NULL UNIQUE,
  description text NOT NULL,
  status text NOT NULL DEFAULT 'awaiting_payment' CHECK (status IN ('awaiting_payment', 'submitted', 'approved', 'rejected', 'expired')),
  transaction_ref text,
  receipt_upload_id bigint REFERENCES uploads(id),
  reason text,
  expires_at timestamptz(3) NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  submitted_at timestamptz(3),
  decided_at timestamptz(3)
);
CREATE INDEX otc_requests_member_idx ON otc_requests (member_id, created_at, id);
CREATE INDEX otc_requests_status_idx ON otc_requests (status, id);
-- One open request per thing to pay.
CREATE UNIQUE INDEX otc_requests_open_idx ON otc_requests (purpose, ref_id) WHERE status IN ('awaiting_payment', 'submitted');

-- Receipts of over-the-counter payments go through the upload pipeline.
ALTER TABLE uploads DROP CONSTRAINT uploads_kind_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_kind_check CHECK (kind IN ('kyc', 'avatar', 'mail', 'support', 'receipt'));

-- A package renewed after it expired is an order of its own kind.
ALTER TABLE orders DROP CONSTRAINT orders_order_type_check;
ALTER TABLE orders ADD CONSTRAINT orders_order_type_check CHECK (order_type IN ('registration', 'repurchase', 'upgrade', 'renewal'));
