-- Files members upload (identity documents, avatars; later mail and support attachments). The bytes live
-- in the uploads folder outside every served folder, under `stored_name` (random, chosen by the server);
-- this row says whose they are, what they are (the type read from the bytes) and what the member called
-- the file (sanitised, for the download's name only).
CREATE TABLE uploads (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('kyc', 'avatar', 'mail', 'support')),
  stored_name text NOT NULL UNIQUE,
  original_name text NOT NULL,
  content_type text NOT NULL,
  size_bytes int NOT NULL CHECK (size_bytes >= 0),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX uploads_member_idx ON uploads (member_id, kind);

-- What a member may submit as an identity document, and how the form asks for the document's number.
CREATE TABLE kyc_categories (
  id serial PRIMARY KEY,
  name text NOT NULL,
  sort_order int NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true
);
INSERT INTO kyc_categories (name, sort_order) VALUES ('Passport', 1), ('National identity card', 2), ('Driving licence', 3), ('Proof of address', 4);
INSERT INTO settings (key, value)
  VALUES ('kyc', '{"attachments_limit": 3, "id_number_required": true, "id_number_label": "Document number"}'::jsonb)
  ON CONFLICT (key) DO NOTHING;

-- One submission of identity documents: pending until staff approve or reject it (with the reason).
-- member_kyc (0004) keeps the member's resulting status, the one payouts and referrals read.
CREATE TABLE kyc_documents (
  id bigserial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  category_id int NOT NULL REFERENCES kyc_categories(id),
  id_number text,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  reason text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  decided_at timestamptz(3)
);
CREATE INDEX kyc_documents_member_idx ON kyc_documents (member_id, created_at DESC, id DESC);
CREATE INDEX kyc_documents_pending_idx ON kyc_documents (created_at, id) WHERE status = 'pending';

CREATE TABLE kyc_document_files (
  document_id bigint NOT NULL REFERENCES kyc_documents(id) ON DELETE CASCADE,
  upload_id bigint NOT NULL REFERENCES uploads(id),
  position int NOT NULL,
  PRIMARY KEY (document_id, upload_id)
);
