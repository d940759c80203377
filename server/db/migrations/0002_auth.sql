-- Auth and signup: pending signups, single-use SSO tokens, auto-login keys, placement slots.

-- A member who signed up while OTP verification is on stays unverified (cannot sign in) until the code is entered.
ALTER TABLE members ADD COLUMN verified boolean NOT NULL DEFAULT true;

-- E-mail uniqueness is a company setting (auth.email_unique), enforced by the API inside the signup lock.
DROP INDEX members_email_key;
CREATE INDEX members_email_idx ON members (lower(email));

-- One member per placement slot: a binary parent has slots 0 (L) and 1 (R), a matrix parent 0..width-1.
CREATE UNIQUE INDEX members_parent_slot_key ON members (parent_id, slot) WHERE parent_id IS NOT NULL AND slot IS NOT NULL;

-- SSO tokens are single use: consumed_at is set when a token is exchanged for a session.
ALTER TABLE sessions ADD COLUMN consumed_at timestamptz;
CREATE INDEX sessions_parent_idx ON sessions (parent_session_id) WHERE parent_session_id IS NOT NULL;

-- A verified signup key may sign the new member in once, shortly after verification.
ALTER TABLE signup_verifications ADD COLUMN login_used_at timestamptz;
CREATE INDEX signup_verifications_member_idx ON signup_verifications (member_id);
