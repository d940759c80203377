-- Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and single-use recovery codes.
-- The TOTP secret is stored encrypted (AES-256-GCM under a key derived from APP_KEY) and is never
-- answered again after enrolment; recovery codes and sign-in challenges are stored as SHA-256 hashes.
CREATE TABLE member_two_factor (
  member_id int PRIMARY KEY REFERENCES members(id),
  secret_enc text NOT NULL,
  -- NULL while enrolment waits for the first code; set when the first right code turns it on.
  enabled_at timestamptz(3),
  -- The last accepted time step: a code of that step (or an earlier one) is never accepted again.
  last_step bigint,
  -- Wrong codes counted per account across challenges (throttling), since failed_since.
  failed_count int NOT NULL DEFAULT 0,
  failed_since timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE two_factor_recovery_codes (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  code_hash text NOT NULL,
  used_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_recovery_codes_member_idx ON two_factor_recovery_codes (member_id);

-- A right password of a member with two-factor sign-in on opens one of these instead of a session.
CREATE TABLE two_factor_challenges (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  token_hash text NOT NULL UNIQUE,
  attempts int NOT NULL DEFAULT 0,
  expires_at timestamptz(3) NOT NULL,
  used_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_challenges_member_idx ON two_factor_challenges (member_id);
