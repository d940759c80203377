-- The CRM's dashboard and analytics, meetings with several invitees, and leads who may become recruits.

-- What a lead is interested in: buying (customer) or joining the business (recruit, who may be registered
-- as a member).
ALTER TABLE crm_leads ADD COLUMN interest text NOT NULL DEFAULT 'customer';
ALTER TABLE crm_leads ADD CONSTRAINT crm_leads_interest_check CHECK (interest IN ('customer', 'recruit'));
-- When a lead was closed (won or lost): kept by trigger whoever changes the status, cleared when it reopens.
-- "Won this month" and the analytics' win rate read it.
ALTER TABLE crm_leads ADD COLUMN closed_at timestamptz(3);
UPDATE crm_leads SET closed_at = updated_at WHERE status IN ('won', 'lost');
CREATE FUNCTION crm_leads_closed_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status NOT IN ('won', 'lost') THEN
    NEW.closed_at := NULL;
  ELSIF TG_OP = 'INSERT' THEN
    NEW.closed_at := coalesce(NEW.closed_at, now());
  ELSIF OLD.status IS DISTINCT FROM NEW.status THEN
    NEW.closed_at := now();
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER crm_leads_closed_at BEFORE INSERT OR UPDATE OF status ON crm_leads
  FOR EACH ROW EXECUTE FUNCTION crm_leads_closed_at();
CREATE INDEX crm_leads_closed_idx ON crm_leads (member_id, closed_at) WHERE deleted_at IS NULL AND closed_at IS NOT NULL;

-- The dashboard's follow-ups: open leads by their next follow-up day.
CREATE INDEX crm_leads_follow_up_idx ON crm_leads (member_id, next_follow_up)
  WHERE deleted_at IS NULL AND next_follow_up IS NOT NULL AND status NOT IN ('won', 'lost');

-- A meeting invites any number of the member's contacts and leads: one row each, naming exactly one.
CREATE TABLE crm_meeting_invitees (
  id serial PRIMARY KEY,
  meeting_id int NOT NULL REFERENCES crm_meetings(id),
  member_id int NOT NULL REFERENCES members(id),
  lead_id int REFERENCES crm_leads(id),
  contact_id int REFERENCES crm_contacts(id),
  CONSTRAINT crm_meeting_invitees_one_check CHECK (num_nonnulls(lead_id, contact_id) = 1)
);
CREATE UNIQUE INDEX crm_meeting_invitees_lead_uq ON crm_meeting_invitees (meeting_id, lead_id) WHERE lead_id IS NOT NULL;
CREATE UNIQUE INDEX crm_meeting_invitees_contact_uq ON crm_meeting_invitees (meeting_id, contact_id) WHERE contact_id IS NOT NULL;
CREATE INDEX crm_meeting_invitees_lead_idx ON crm_meeting_invitees (lead_id) WHERE lead_id IS NOT NULL;
CREATE INDEX crm_meeting_invitees_contact_idx ON crm_meeting_invitees (contact_id) WHERE contact_id IS NOT NULL;

-- The one invitee of every existing meeting moves into the new shape (a meeting may have had both).
INSERT INTO crm_meeting_invitees (meeting_id, member_id, contact_id)
  SELECT id, member_id, contact_id FROM crm_meetings WHERE contact_id IS NOT NULL;
INSERT INTO crm_meeting_invitees (meeting_id, member_id, lead_id)
  SELECT id, member_id, lead_id FROM crm_meetings WHERE lead_id IS NOT NULL;
ALTER TABLE crm_meetings DROP COLUMN contact_id;
ALTER TABLE crm_meetings DROP COLUMN lead_id;

-- The agenda and the dashboard read meetings by start.
CREATE INDEX crm_meetings_starts_idx ON crm_meetings (member_id, starts_at, id) WHERE deleted_at IS NULL;
