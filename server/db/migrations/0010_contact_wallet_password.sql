-- A change of a member's e-mail address or mobile number waits here until the one-time code sent to the
-- new address or number is entered: only then does the member's row change. A new request supersedes the
-- pending one; an applied or superseded row is kept as history.
CREATE TABLE contact_changes (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('email', 'phone')),
  email text,
  mobile_code text,
  mobile text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  applied_at timestamptz(3),
  superseded_at timestamptz(3)
);
CREATE INDEX contact_changes_pending_idx ON contact_changes (member_id, kind, created_at DESC) WHERE applied_at IS NULL AND superseded_at IS NULL;

-- The wallet (transaction) password of a member: asked instead of the account password for payouts once
-- set. Stored hashed; wrong tries are counted and lock it for a while.
CREATE TABLE wallet_passwords (
  member_id int PRIMARY KEY REFERENCES members(id),
  password_hash text NOT NULL,
  failed_attempts int NOT NULL DEFAULT 0,
  locked_until timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
