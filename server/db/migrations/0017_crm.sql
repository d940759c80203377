-- The member's CRM: leads (a pipeline by status) and the notes of their timeline. Private to the member:
-- every query reads the member's own live rows. Deleting sets deleted_at, so a delete can be undone.
CREATE TABLE crm_leads (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  name text NOT NULL,
  company text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  source text NOT NULL,
  status text NOT NULL,
  estimated_value numeric(20,4) NOT NULL DEFAULT 0,
  next_follow_up date,
  lost_reason text NOT NULL DEFAULT '',
  contact_id int,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  deleted_at timestamptz(3),
  CONSTRAINT crm_leads_status_check CHECK (status IN ('new', 'contacted', 'qualified', 'proposal', 'won', 'lost')),
  CONSTRAINT crm_leads_value_check CHECK (estimated_value >= 0)
);
CREATE INDEX crm_leads_member_idx ON crm_leads (member_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX crm_leads_status_idx ON crm_leads (member_id, status, updated_at DESC, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE crm_notes (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  lead_id int NOT NULL REFERENCES crm_leads(id),
  body text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX crm_notes_lead_idx ON crm_notes (lead_id, created_at DESC);
