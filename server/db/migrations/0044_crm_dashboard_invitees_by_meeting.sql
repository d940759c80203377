-- The dashboard reads the invitees of the meetings it lists by meeting (server/lib/crm-dashboard.ts), where it
-- read every invitee of the member's meetings: the unique indexes by meeting are partial (lead or contact).
CREATE INDEX crm_meeting_invitees_meeting_idx ON crm_meeting_invitees (meeting_id, id);
