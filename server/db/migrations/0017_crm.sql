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

-- A lead converted into a contact keeps pointing at it (contact_id); a contact remembers the lead it came from.
CREATE TABLE crm_contacts (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  name text NOT NULL,
  company text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  lead_id int REFERENCES crm_leads(id),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  deleted_at timestamptz(3)
);
CREATE INDEX crm_contacts_member_idx ON crm_contacts (member_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
-- One conversion per lead, whatever the race.
CREATE UNIQUE INDEX crm_contacts_lead_idx ON crm_contacts (lead_id) WHERE lead_id IS NOT NULL;

-- The timeline: notes, calls and meetings, each about a lead or a contact.
CREATE TABLE crm_notes (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  lead_id int REFERENCES crm_leads(id),
  contact_id int REFERENCES crm_contacts(id),
  body text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT crm_notes_about_check CHECK (lead_id IS NOT NULL OR contact_id IS NOT NULL)
);
CREATE INDEX crm_notes_lead_idx ON crm_notes (lead_id, created_at DESC) WHERE lead_id IS NOT NULL;
CREATE INDEX crm_notes_contact_idx ON crm_notes (contact_id, created_at DESC) WHERE contact_id IS NOT NULL;

CREATE TABLE crm_calls (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  lead_id int REFERENCES crm_leads(id),
  contact_id int REFERENCES crm_contacts(id),
  -- The name of the contact or lead when the call was logged, as the log shows it.
  who text NOT NULL DEFAULT '',
  direction text NOT NULL CHECK (direction IN ('outgoing', 'incoming')),
  outcome text NOT NULL CHECK (outcome IN ('answered', 'no_answer', 'voicemail', 'busy')),
  duration_seconds int NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0),
  notes text NOT NULL DEFAULT '',
  called_at timestamptz(3) NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  deleted_at timestamptz(3),
  CONSTRAINT crm_calls_about_check CHECK (lead_id IS NOT NULL OR contact_id IS NOT NULL)
);
CREATE INDEX crm_calls_member_idx ON crm_calls (member_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- A meeting at a local time in the member's time zone (starts_at is that instant); a reminder is sent once.
CREATE TABLE crm_meetings (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  title text NOT NULL,
  starts_at timestamptz(3) NOT NULL,
  time_zone text NOT NULL,
  duration_minutes int NOT NULL DEFAULT 30 CHECK (duration_minutes > 0),
  place text NOT NULL DEFAULT '',
  link text NOT NULL DEFAULT '',
  lead_id int REFERENCES crm_leads(id),
  contact_id int REFERENCES crm_contacts(id),
  who text NOT NULL DEFAULT '',
  notes text NOT NULL DEFAULT '',
  reminded_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  deleted_at timestamptz(3)
);
CREATE INDEX crm_meetings_member_idx ON crm_meetings (member_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX crm_meetings_due_idx ON crm_meetings (starts_at) WHERE reminded_at IS NULL AND deleted_at IS NULL;
