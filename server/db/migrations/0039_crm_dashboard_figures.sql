-- Figures of the CRM dashboard, maintained like those of migration 0022 instead of recounted per request:
--
--   crm_lead_figures     a member's live leads (not deleted) per status: how many, and their summed estimated value
--   crm_follow_up_days   a member's live open leads (not won, not lost) per day of their next follow-up
--   crm_figures          a member's live contacts
--
-- Each follows its table in the statement that changes it (leads added, edited, moved along the pipeline,
-- deleted; contacts added and deleted). Counts are kept by difference under each row's lock, so concurrent
-- writers lose nothing, and rows are touched in member order, so they never wait on each other in a cycle.
-- A follow-up day is a calendar date, so "overdue" and "due today" in any time zone are read by key.

CREATE TABLE crm_lead_figures (
  member_id int NOT NULL,
  status text NOT NULL,
  leads int NOT NULL DEFAULT 0,
  value numeric(20,4) NOT NULL DEFAULT 0,
  PRIMARY KEY (member_id, status)
);

CREATE TABLE crm_follow_up_days (
  member_id int NOT NULL,
  day date NOT NULL,
  leads int NOT NULL DEFAULT 0,
  PRIMARY KEY (member_id, day)
);

CREATE TABLE crm_figures (
  member_id int PRIMARY KEY,
  contacts int NOT NULL DEFAULT 0
);

-- Leads → figures per status and follow-ups per day. An update (leads are updated often: notes, contact
-- details, the time of the last change) counts only the rows whose member, status, value, follow-up day or
-- deletion changed.
CREATE FUNCTION crm_lead_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    WITH d AS (
      SELECT n.member_id, n.status, n.estimated_value, n.next_follow_up, 1 AS sign FROM new_rows n
      WHERE n.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id AND o.deleted_at IS NULL
                        AND (o.member_id, o.status, o.estimated_value, o.next_follow_up) IS NOT DISTINCT FROM (n.member_id, n.status, n.estimated_value, n.next_follow_up))
      UNION ALL
      SELECT o.member_id, o.status, o.estimated_value, o.next_follow_up, -1 FROM old_rows o
      WHERE o.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.deleted_at IS NULL
                        AND (o.member_id, o.status, o.estimated_value, o.next_follow_up) IS NOT DISTINCT FROM (n.member_id, n.status, n.estimated_value, n.next_follow_up))
    ), by_status AS (
      INSERT INTO crm_lead_figures AS f (member_id, status, leads, value)
      SELECT member_id, status, sum(sign)::int, sum(sign * estimated_value) FROM d
      GROUP BY 1, 2 HAVING sum(sign) <> 0 OR sum(sign * estimated_value) <> 0 ORDER BY 1, 2
      ON CONFLICT (member_id, status) DO UPDATE SET leads = f.leads + EXCLUDED.leads, value = f.value + EXCLUDED.value
    )
    INSERT INTO crm_follow_up_days AS f (member_id, day, leads)
    SELECT member_id, next_follow_up, sum(sign)::int FROM d WHERE next_follow_up IS NOT NULL AND status NOT IN ('won', 'lost')
    GROUP BY 1, 2 HAVING sum(sign) <> 0 ORDER BY 1, 2
    ON CONFLICT (member_id, day) DO UPDATE SET leads = f.leads + EXCLUDED.leads;
    RETURN NULL;
  END IF;
  -- An insert counts every new live row, a removal every old one.
  EXECUTE format($q$
    WITH d AS (SELECT member_id, status, estimated_value, next_follow_up, %2$s AS sign FROM %1$I WHERE deleted_at IS NULL),
    by_status AS (
      INSERT INTO crm_lead_figures AS f (member_id, status, leads, value)
      SELECT member_id, status, sum(sign)::int, sum(sign * estimated_value) FROM d GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (member_id, status) DO UPDATE SET leads = f.leads + EXCLUDED.leads, value = f.value + EXCLUDED.value
    )
    INSERT INTO crm_follow_up_days AS f (member_id, day, leads)
    SELECT member_id, next_follow_up, sum(sign)::int FROM d WHERE next_follow_up IS NOT NULL AND status NOT IN ('won', 'lost')
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (member_id, day) DO UPDATE SET leads = f.leads + EXCLUDED.leads
  $q$, CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END, CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END);
  RETURN NULL;
END $$;

-- Contacts → live contacts per member (an update counts only rows deleted or restored).
CREATE FUNCTION crm_contact_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO crm_figures AS f (member_id, contacts)
    SELECT member_id, sum(sign)::int FROM (
      SELECT n.member_id, 1 AS sign FROM new_rows n
      WHERE n.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id AND o.deleted_at IS NULL AND o.member_id = n.member_id)
      UNION ALL
      SELECT o.member_id, -1 FROM old_rows o
      WHERE o.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.deleted_at IS NULL AND n.member_id = o.member_id)
    ) d GROUP BY member_id HAVING sum(sign) <> 0 ORDER BY member_id
    ON CONFLICT (member_id) DO UPDATE SET contacts = f.contacts + EXCLUDED.contacts;
    RETURN NULL;
  END IF;
  EXECUTE format($q$
    INSERT INTO crm_figures AS f (member_id, contacts)
    SELECT member_id, %2$s * count(*)::int FROM %1$I WHERE deleted_at IS NULL GROUP BY member_id ORDER BY member_id
    ON CONFLICT (member_id) DO UPDATE SET contacts = f.contacts + EXCLUDED.contacts
  $q$, CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END, CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END);
  RETURN NULL;
END $$;

-- A statement trigger per event (transition tables allow one event per trigger).
CREATE TRIGGER crm_lead_figures_ins AFTER INSERT ON crm_leads REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_lead_figures();
CREATE TRIGGER crm_lead_figures_upd AFTER UPDATE ON crm_leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_lead_figures();
CREATE TRIGGER crm_lead_figures_del AFTER DELETE ON crm_leads REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_lead_figures();
CREATE TRIGGER crm_contact_figures_ins AFTER INSERT ON crm_contacts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_contact_figures();
CREATE TRIGGER crm_contact_figures_upd AFTER UPDATE ON crm_contacts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_contact_figures();
CREATE TRIGGER crm_contact_figures_del AFTER DELETE ON crm_contacts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_contact_figures();

-- What a database migrated now already holds.
INSERT INTO crm_lead_figures (member_id, status, leads, value)
SELECT member_id, status, count(*)::int, sum(estimated_value) FROM crm_leads WHERE deleted_at IS NULL GROUP BY 1, 2;
INSERT INTO crm_follow_up_days (member_id, day, leads)
SELECT member_id, next_follow_up, count(*)::int FROM crm_leads
WHERE deleted_at IS NULL AND next_follow_up IS NOT NULL AND status NOT IN ('won', 'lost') GROUP BY 1, 2;
INSERT INTO crm_figures (member_id, contacts)
SELECT member_id, count(*)::int FROM crm_contacts WHERE deleted_at IS NULL GROUP BY 1;

-- The dashboard's overdue follow-ups, oldest first, are read in index order and stop at the list's length.
DROP INDEX crm_leads_follow_up_idx;
CREATE INDEX crm_leads_follow_up_idx ON crm_leads (member_id, next_follow_up, id)
  WHERE deleted_at IS NULL AND next_follow_up IS NOT NULL AND status NOT IN ('won', 'lost');
