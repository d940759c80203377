-- Where a member's payouts go and what the member is told about.
--
-- bank_details: one bank account per member: the IBAN, or for a country without IBANs the account
-- number with its routing / sort code; the SWIFT/BIC and the bank's name. Answers show only the last
-- four characters of the number.
CREATE TABLE bank_details (
  member_id int PRIMARY KEY REFERENCES members(id),
  account_holder text NOT NULL,
  country text NOT NULL,
  iban text,
  account_number text,
  routing_code text,
  bic text NOT NULL,
  bank_name text NOT NULL,
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (iban IS NOT NULL OR (account_number IS NOT NULL AND routing_code IS NOT NULL))
);

-- payout_methods: the method a member chose among those the company offers (settings key
-- payout_methods), with its destination (an e-wallet e-mail, a USDT address; none for a bank transfer,
-- which pays to bank_details).
CREATE TABLE payout_methods (
  member_id int PRIMARY KEY REFERENCES members(id),
  method text NOT NULL,
  destination text,
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);

-- A payout request keeps the method and a masked snapshot of where the money goes at the time of the request.
ALTER TABLE payout_requests ADD COLUMN payout_method text;
ALTER TABLE payout_requests ADD COLUMN payout_destination text;

-- notification_settings: per event (server/lib/member-notices.ts MEMBER_EVENTS) and channel; no row
-- means both channels on.
CREATE TABLE notification_settings (
  member_id int NOT NULL REFERENCES members(id),
  event text NOT NULL,
  email boolean NOT NULL DEFAULT true,
  push boolean NOT NULL DEFAULT true,
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, event)
);

-- member_notices: the in-app notices of the push channel, listed with the member's notifications
-- until read.
CREATE TABLE member_notices (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  event text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  link text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  read_at timestamptz(3)
);
CREATE INDEX member_notices_unread_idx ON member_notices (member_id, created_at DESC, id DESC) WHERE read_at IS NULL;
