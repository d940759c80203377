-- The home dashboard's member-specific part (server/lib/home.ts: maintained figures, the wallet's months,
-- recruitment targets and sponsored members, KYC, special member, the newest wallet lines, the newest members
-- of the downline), kept as last computed until something it shows changes, so that a dashboard read is one
-- row instead of about twelve reads.
--
-- Every change of what a kept row shows raises its `version`, by a trigger on the table changed, in the same
-- transaction: the row is kept only while `kept_version` (the version its parts were computed at, read in the
-- same statement and snapshot as the parts) equals `version`. A reader whose snapshot predates a change thus
-- never keeps what it read as current: either the change's raised version is not in its snapshot (what it
-- keeps is marked with the older version) or the change has not committed and holds the row, which the
-- reader then skips instead of waiting. Changes that may touch any member's row (a rank renamed, a username
-- changed, a member removed, a ledger transaction rewritten, a table emptied) raise the one `epoch` instead,
-- and a kept row counts only under the epoch it was computed in. Rows are raised in member order, after the
-- figures of the same statement, so writers never wait on each other in a cycle (migration 0022).

CREATE TABLE member_dashboard (
  member_id int PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0,
  kept_version bigint,
  kept_epoch bigint,
  -- The UTC month the parts were computed for (the wallet's months and recruitment statuses follow it).
  month date,
  balance text,
  total_paid text,
  total_pending text,
  total_investment text,
  earnings text,
  months text,
  targets text,
  sponsored text,
  kyc text,
  special boolean,
  recent text,
  joinings text
);

CREATE TABLE member_dashboard_epoch (epoch bigint NOT NULL);
INSERT INTO member_dashboard_epoch (epoch) VALUES (0);

-- Raise the rows of these members (created where missing) and drop what they kept.
CREATE FUNCTION member_dashboard_raise(ids int[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_dashboard AS d (member_id, version)
  SELECT DISTINCT id, 1 FROM unnest(ids) AS u(id) WHERE id IS NOT NULL ORDER BY id
  ON CONFLICT (member_id) DO UPDATE SET version = d.version + 1, kept_version = NULL, kept_epoch = NULL, month = NULL,
    balance = NULL, total_paid = NULL, total_pending = NULL, total_investment = NULL, earnings = NULL, months = NULL,
    targets = NULL, sponsored = NULL, kyc = NULL, special = NULL, recent = NULL, joinings = NULL
$$;

-- Rows of a table added, changed or removed by a statement → raise the members they belong to. TG_ARGV[0]: the
-- member of a row `c` as an expression.
CREATE FUNCTION member_dashboard_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('SELECT member_dashboard_raise(array(SELECT %s FROM new_rows c))', TG_ARGV[0]);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('SELECT member_dashboard_raise(array(SELECT %s FROM old_rows c))', TG_ARGV[0]);
  ELSE
    EXECUTE format('SELECT member_dashboard_raise(array(SELECT %1$s FROM new_rows c UNION SELECT %1$s FROM old_rows c))', TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION member_dashboard_epoch_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member_dashboard_epoch SET epoch = epoch + 1;
  RETURN NULL;
END $$;

-- The members whose downline a path runs through (its ids, the member's own included).
CREATE FUNCTION member_dashboard_path_ids(path text) RETURNS SETOF int LANGUAGE sql IMMUTABLE AS $$
  SELECT id::int FROM unnest(string_to_array(rtrim(path, '.'), '.')) AS u(id) WHERE path <> '' AND id <> ''
$$;

-- Members: a member's own part follows its place, join date and downline size; the newest joinings of everyone
-- above a member follow its place, verification, names, avatar and join date; others' wallet lines show its
-- username.
CREATE FUNCTION members_dashboard_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM member_dashboard_raise(array(SELECT member_dashboard_path_ids(n.path) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE member_dashboard_epoch SET epoch = epoch + 1;
    PERFORM member_dashboard_raise(array(SELECT member_dashboard_path_ids(o.path) FROM old_rows o));
  ELSE
    IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.username IS DISTINCT FROM o.username) THEN
      UPDATE member_dashboard_epoch SET epoch = epoch + 1;
    END IF;
    PERFORM member_dashboard_raise(array(
      SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (n.path, n.created_at, n.downline_count) IS DISTINCT FROM (o.path, o.created_at, o.downline_count)
      UNION
      SELECT member_dashboard_path_ids(x.path) FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.path), (n.path)) AS x(path)
      WHERE (n.path, n.verified, n.first_name, n.last_name, n.avatar, n.created_at)
            IS DISTINCT FROM (o.path, o.verified, o.first_name, o.last_name, o.avatar, o.created_at)
    ));
  END IF;
  RETURN NULL;
END $$;

-- Trigger names sort after those of the figures (0022) on the same tables, so a statement's figure rows are
-- written before its dashboard rows are raised.
CREATE TRIGGER members_kept_dashboard_ins AFTER INSERT ON members REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION members_dashboard_changed();
CREATE TRIGGER members_kept_dashboard_upd AFTER UPDATE ON members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION members_dashboard_changed();
CREATE TRIGGER members_kept_dashboard_del AFTER DELETE ON members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION members_dashboard_changed();

-- Ledger entries need no trigger of their own: the figures trigger writes the wallet's figure row (and month)
-- of every member whose entries a statement adds, changes or removes, and that row raises the member's.
CREATE TRIGGER ledger_transactions_kept_dashboard AFTER UPDATE OF transaction_group, transaction_type, transaction_key, member_id, from_member_id, level, rank_id
  OR DELETE OR TRUNCATE ON ledger_transactions FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_epoch_changed();
CREATE TRIGGER ranks_kept_dashboard AFTER UPDATE OR DELETE OR TRUNCATE ON ranks FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_epoch_changed();
CREATE TRIGGER members_kept_dashboard_truncate AFTER TRUNCATE ON members FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_epoch_changed();
CREATE TRIGGER ledger_entries_kept_dashboard_truncate AFTER TRUNCATE ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_epoch_changed();

-- The tables keyed by member whose rows the dashboard shows.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['member_figures', 'member_earning_totals', 'member_wallet_months', 'member_sponsor_months', 'member_kyc',
                           'special_members', 'recruitment_targets', 'ledger_accounts'] LOOP
    EXECUTE format('CREATE TRIGGER %1$s_kept_dashboard_ins AFTER INSERT ON %1$I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_rows_changed(%2$L)', t, 'c.member_id');
    EXECUTE format('CREATE TRIGGER %1$s_kept_dashboard_upd AFTER UPDATE ON %1$I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_rows_changed(%2$L)', t, 'c.member_id');
    EXECUTE format('CREATE TRIGGER %1$s_kept_dashboard_del AFTER DELETE ON %1$I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_rows_changed(%2$L)', t, 'c.member_id');
    EXECUTE format('CREATE TRIGGER %1$s_kept_dashboard_truncate AFTER TRUNCATE ON %1$I FOR EACH STATEMENT EXECUTE FUNCTION member_dashboard_epoch_changed()', t);
  END LOOP;
END $$;
