-- Answers of a member's dashboards kept as last computed (server/lib/kept-answers.ts) until something they show
-- changes, so that reading one is one row instead of the dozen reads that compute it:
--
--   home            the home dashboard's member-specific parts (server/lib/home.ts): maintained figures, the
--                   wallet's months, recruitment targets and sponsored members, KYC, special member, the newest
--                   wallet lines, the newest members of the downline
--   crm_dashboard   the CRM dashboard's answer (server/lib/crm-dashboard.ts): follow-ups, meetings and their
--                   invitees, leads by status, the month's wins and sales
--
-- Every change of what a kept answer shows raises its `version`, by a trigger on the table changed, in the same
-- transaction. An answer counts only while `kept_version` (the version read before anything the answer was
-- computed from) equals `version`, and only for what it was computed for (`kept_for`: the month, the time zone
-- and day). A reader that computed an answer without a change thus never keeps it as current: either the
-- change's raised version came after the version it read (what it keeps is marked with the older version) or the
-- change has not committed and holds the row, which the reader then skips instead of waiting.
-- Changes that may touch any member's answer (a rank renamed, a username changed, a member removed, a ledger
-- transaction rewritten, a table emptied) raise the one `epoch` instead, and an answer counts only under the
-- epoch it was computed in. Rows are raised in member order, after the figures of the same statement, so writers
-- never wait on each other in a cycle (migration 0022).

CREATE TABLE member_kept_answers (
  member_id int NOT NULL,
  kind text NOT NULL,
  version bigint NOT NULL DEFAULT 0,
  kept_version bigint,
  kept_epoch bigint,
  kept_for text,
  answer text,
  PRIMARY KEY (member_id, kind)
);

CREATE TABLE member_kept_epoch (epoch bigint NOT NULL);
INSERT INTO member_kept_epoch (epoch) VALUES (0);

-- Raise the answers of a kind of these members (rows created where missing) and drop what they kept.
CREATE FUNCTION member_kept_raise(answer_kind text, ids int[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_kept_answers AS a (member_id, kind, version)
  SELECT DISTINCT id, answer_kind, 1 FROM unnest(ids) AS u(id) WHERE id IS NOT NULL ORDER BY id
  ON CONFLICT (member_id, kind) DO UPDATE SET version = a.version + 1, kept_version = NULL, kept_epoch = NULL, kept_for = NULL, answer = NULL
$$;

-- Rows of a table added, changed or removed by a statement (the transition tables figure_sources names, migration
-- 0022) → raise the answers of kind TG_ARGV[0] of the members they belong to, once (TG_ARGV[1]: the member of a
-- row `c`, as an expression).
CREATE FUNCTION member_kept_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE members text;
BEGIN
  SELECT string_agg(format('SELECT %s FROM %I c', TG_ARGV[1], rows_of), ' UNION ') INTO members FROM figure_sources(TG_OP);
  EXECUTE format('SELECT member_kept_raise(%L, array(%s))', TG_ARGV[0], members);
  RETURN NULL;
END $$;

-- A new epoch: no kept answer counts any more, and none is left stored (a member's data erased or renamed stays
-- in no other member's kept answer). Rows are taken in member order.
CREATE FUNCTION member_kept_new_epoch() RETURNS void LANGUAGE sql AS $$
  UPDATE member_kept_epoch SET epoch = epoch + 1;
  UPDATE member_kept_answers a SET kept_version = NULL, kept_epoch = NULL, kept_for = NULL, answer = NULL
  FROM (SELECT member_id, kind FROM member_kept_answers WHERE answer IS NOT NULL ORDER BY member_id, kind FOR UPDATE) k
  WHERE a.member_id = k.member_id AND a.kind = k.kind;
$$;

CREATE FUNCTION member_kept_epoch_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM member_kept_new_epoch();
  RETURN NULL;
END $$;

-- The members whose downline a path runs through (its ids, the member's own included).
CREATE FUNCTION member_path_ids(path text) RETURNS SETOF int LANGUAGE sql IMMUTABLE AS $$
  SELECT id::int FROM unnest(string_to_array(rtrim(path, '.'), '.')) AS u(id) WHERE path <> '' AND id <> ''
$$;

-- Members, for the home dashboard: a member's own parts follow its place, join date and downline size; the newest
-- joinings of everyone above a member follow its place, verification, names, avatar and join date; others'
-- wallet lines show its username.
CREATE FUNCTION members_kept_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM member_kept_raise('home', array(SELECT member_path_ids(n.path) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM member_kept_new_epoch();
    PERFORM member_kept_raise('home', array(SELECT member_path_ids(o.path) FROM old_rows o));
  ELSE
    IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.username IS DISTINCT FROM o.username) THEN
      PERFORM member_kept_new_epoch();
    END IF;
    PERFORM member_kept_raise('home', array(
      SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (n.path, n.created_at, n.downline_count) IS DISTINCT FROM (o.path, o.created_at, o.downline_count)
      UNION
      SELECT member_path_ids(x.path) FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.path), (n.path)) AS x(path)
      WHERE (n.path, n.verified, n.first_name, n.last_name, n.avatar, n.created_at)
            IS DISTINCT FROM (o.path, o.verified, o.first_name, o.last_name, o.avatar, o.created_at)
    ));
  END IF;
  RETURN NULL;
END $$;

-- Trigger names sort after those of the figures (0022, 0039) on the same tables (PostgreSQL fires a table's
-- triggers in name order), so a statement's figure rows are written before its answers are raised: hence the
-- z_ of the members' ones, after sponsor_figures.
CREATE TRIGGER z_members_kept_ins AFTER INSERT ON members REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION members_kept_changed();
CREATE TRIGGER z_members_kept_upd AFTER UPDATE ON members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION members_kept_changed();
CREATE TRIGGER z_members_kept_del AFTER DELETE ON members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION members_kept_changed();

-- Ledger entries need no trigger of their own: the figures trigger writes the wallet's figure row (and month) of
-- every member whose entries a statement adds, changes or removes, and that row raises the member's answer.
CREATE TRIGGER ledger_transactions_kept AFTER UPDATE OF transaction_group, transaction_type, transaction_key, member_id, from_member_id, level, rank_id
  OR DELETE OR TRUNCATE ON ledger_transactions FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();
CREATE TRIGGER ranks_kept AFTER UPDATE OR DELETE OR TRUNCATE ON ranks FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();
CREATE TRIGGER members_kept_truncate AFTER TRUNCATE ON members FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();
CREATE TRIGGER ledger_entries_kept_truncate AFTER TRUNCATE ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();

-- The tables keyed by member whose rows an answer shows.
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
      ('member_figures', 'home'), ('member_earning_totals', 'home'), ('member_wallet_months', 'home'), ('member_sponsor_months', 'home'),
      ('member_kyc', 'home'), ('special_members', 'home'), ('recruitment_targets', 'home'), ('ledger_accounts', 'home'),
      ('crm_leads', 'crm_dashboard'), ('crm_contacts', 'crm_dashboard'), ('crm_meetings', 'crm_dashboard'),
      ('crm_meeting_invitees', 'crm_dashboard'), ('crm_sales', 'crm_dashboard'), ('crm_lead_figures', 'crm_dashboard'),
      ('crm_follow_up_days', 'crm_dashboard'), ('crm_figures', 'crm_dashboard')) AS v(tbl, kind) LOOP
    EXECUTE format('CREATE TRIGGER %1$s_kept_ins AFTER INSERT ON %1$I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_kept_rows_changed(%2$L, %3$L)', t.tbl, t.kind, 'c.member_id');
    EXECUTE format('CREATE TRIGGER %1$s_kept_upd AFTER UPDATE ON %1$I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_kept_rows_changed(%2$L, %3$L)', t.tbl, t.kind, 'c.member_id');
    EXECUTE format('CREATE TRIGGER %1$s_kept_del AFTER DELETE ON %1$I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION member_kept_rows_changed(%2$L, %3$L)', t.tbl, t.kind, 'c.member_id');
    EXECUTE format('CREATE TRIGGER %1$s_kept_truncate AFTER TRUNCATE ON %1$I FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed()', t.tbl);
  END LOOP;
END $$;
