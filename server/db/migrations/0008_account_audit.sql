-- Every change of a member's account security and payout details (password, e-mail, phone, bank,
-- payout method, wallet password, two-factor sign-in, KYC, deletion) leaves one row: who, what, when,
-- from where. `detail` never holds a secret (no password, code, token or full account number).
CREATE TABLE account_audit (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  action text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX account_audit_member_idx ON account_audit (member_id, created_at DESC, id DESC);
