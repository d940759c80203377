-- Support: the diagnostic snapshots members send (their app's state, already redacted in the browser),
-- and the operator tokens support staff sign in to the replay with (`npm run operator -- token create`).
-- A token is stored only as its SHA-256 hash; it expires, and can be revoked.
CREATE TABLE support_snapshots (
  id bigserial PRIMARY KEY,
  public_id text NOT NULL UNIQUE,
  member_id int NOT NULL REFERENCES members(id),
  reason text NOT NULL,
  route text NOT NULL,
  size_bytes int NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX support_snapshots_member_idx ON support_snapshots (member_id, created_at DESC);

CREATE TABLE operator_tokens (
  id bigserial PRIMARY KEY,
  label text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz(3) NOT NULL,
  revoked_at timestamptz(3),
  last_used_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
