-- Core: company settings, reference data, members (with tree columns), sessions, one-time codes, outbox.
CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);

CREATE TABLE languages (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  native_name text NOT NULL,
  is_default boolean NOT NULL DEFAULT false
);

CREATE TABLE currencies (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  symbol text NOT NULL,
  symbol_position char(1) NOT NULL CHECK (symbol_position IN ('L','R')),
  decimal_place smallint NOT NULL,
  value numeric(20,8) NOT NULL,
  is_default boolean NOT NULL DEFAULT false
);

CREATE TABLE countries (
  id serial PRIMARY KEY,
  name text NOT NULL,
  iso_code_2 char(2) NOT NULL UNIQUE,
  iso_code_3 char(3) NOT NULL,
  phone_code text NOT NULL
);

CREATE TABLE ranks (
  id serial PRIMARY KEY,
  name text NOT NULL,
  icon text,
  sort_order int NOT NULL,
  bonus numeric(20,4) NOT NULL DEFAULT 0,
  referral_count int NOT NULL DEFAULT 0,
  pv numeric(20,4) NOT NULL DEFAULT 0,
  tv numeric(20,4) NOT NULL DEFAULT 0
);

CREATE TABLE packages (
  id serial PRIMARY KEY,
  name text NOT NULL,
  status boolean NOT NULL DEFAULT true,
  sku text NOT NULL UNIQUE,
  sort_order int NOT NULL,
  price numeric(20,4) NOT NULL,
  bv numeric(20,4) NOT NULL,
  expiry_days int,
  image text,
  description text,
  max_levels int,
  direct_bonus numeric(20,4) NOT NULL DEFAULT 0,
  roi_bonus numeric(20,4) NOT NULL DEFAULT 0
);

-- Members. The genealogy is stored as a placement tree (parent_id, position) with a materialised
-- path ('1.5.23.') and depth, so subtree, level and count queries are index range scans.
CREATE TABLE members (
  id serial PRIMARY KEY,
  username text NOT NULL,
  email text,
  mobile_code text,
  mobile text,
  password_hash text NOT NULL,
  first_name text NOT NULL,
  last_name text,
  avatar text,
  status smallint NOT NULL DEFAULT 1,
  role_id smallint NOT NULL DEFAULT 3,
  account_type text NOT NULL DEFAULT 'personal',
  merchant_status smallint,
  demo_allowed boolean NOT NULL DEFAULT true,
  date_format text,
  language_code text,
  currency_code text,
  customer_id int,
  sponsor_id int REFERENCES members(id),
  parent_id int REFERENCES members(id),
  position char(1) CHECK (position IN ('L','R') OR position IS NULL),
  slot int,
  path text NOT NULL DEFAULT '',
  depth int NOT NULL DEFAULT 0,
  package_id int REFERENCES packages(id),
  package_expiry timestamptz,
  package_purchase_date timestamptz,
  rank_id int REFERENCES ranks(id),
  rank_achieved_at timestamptz,
  pv numeric(20,4) NOT NULL DEFAULT 0,
  tv numeric(20,4) NOT NULL DEFAULT 0,
  cv numeric(20,4) NOT NULL DEFAULT 0,
  total_left numeric(20,4) NOT NULL DEFAULT 0,
  total_right numeric(20,4) NOT NULL DEFAULT 0,
  carry_left numeric(20,4) NOT NULL DEFAULT 0,
  carry_right numeric(20,4) NOT NULL DEFAULT 0,
  left_count int NOT NULL DEFAULT 0,
  right_count int NOT NULL DEFAULT 0,
  downline_count int NOT NULL DEFAULT 0,
  child_count int NOT NULL DEFAULT 0,
  default_leg char(1),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX members_username_key ON members (lower(username));
CREATE UNIQUE INDEX members_email_key ON members (lower(email)) WHERE email IS NOT NULL;
CREATE INDEX members_mobile_idx ON members (mobile_code, mobile);
CREATE INDEX members_path_idx ON members (path text_pattern_ops);
CREATE INDEX members_parent_idx ON members (parent_id, position);
CREATE INDEX members_sponsor_idx ON members (sponsor_id);
CREATE INDEX members_depth_idx ON members (depth);

-- Bearer tokens: random, stored as SHA-256, revocable.
CREATE TABLE sessions (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  token_hash text NOT NULL UNIQUE,
  kind text NOT NULL DEFAULT 'access',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  parent_session_id int REFERENCES sessions(id)
);
CREATE INDEX sessions_member_idx ON sessions (member_id);

-- One-time codes: stored hashed; single use, expiring, attempt-limited; a resend supersedes.
CREATE TABLE otp_codes (
  id serial PRIMARY KEY,
  purpose text NOT NULL,
  destination text NOT NULL,
  member_id int REFERENCES members(id),
  code_hash text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  superseded_at timestamptz
);
CREATE INDEX otp_codes_lookup_idx ON otp_codes (purpose, destination, created_at DESC);

-- Pending signups awaiting their one-time code.
CREATE TABLE signup_verifications (
  id serial PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  member_id int NOT NULL REFERENCES members(id),
  destination text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  verified_at timestamptz
);

-- Stand-in for e-mail and SMS: every message the platform would send.
CREATE TABLE outbox (
  id serial PRIMARY KEY,
  channel text NOT NULL,
  destination text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_destination_idx ON outbox (destination, id DESC);

CREATE TABLE demo_requests (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  mobile text NOT NULL,
  platform text NOT NULL,
  country_id int REFERENCES countries(id),
  industry_id int,
  compensation_plan_id int,
  created_at timestamptz NOT NULL DEFAULT now()
);
