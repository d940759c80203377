-- The network pages a member opens on kept as last computed, like the dashboards (migration 0047):
--
--   genealogy         the member's own tree (no search, no page of more children): the member and the members at
--                     most four levels below (GENEALOGY_LEVELS in server/lib/genealogy.ts, the most of every plan),
--                     each one's place, counts, volumes, rank, package, names, avatar, status, join date and gross
--                     earnings
--   downline_report   the first page of the placement downline report, newest first: the newest members anywhere
--                     below, each one's volumes, rank, names, e-mail, avatar, status, join date, level, sponsor,
--                     placement parent and gross earnings
--
-- A change of those of a member raises its own and the four members' above (genealogy) and every member's above
-- (downline report); a change of place raises those of both places. Usernames and rank names (migration 0047) and
-- package names raise the epoch.
--
-- Raising is put off to the transaction's commit (the same transaction, so an answer and the change it follows
-- still commit together). Raised where they happen, the rows of different answers were taken by each statement in
-- its own order (the figure tables' triggers before the members' one, one kind after another), and two writers
-- could each hold a row the other wanted. A transaction's raises and a new epoch are now gathered as it goes
-- (member_kept_raised, member_kept_raises: rows of its own, no other writer touches them) and applied at its commit
-- in one statement, in member and then kind order: two writers' kept rows are always taken in the same order,
-- last, and held only while the transaction commits.

-- The last `n` ids of a path: the member and the n - 1 members above it.
CREATE FUNCTION member_path_tail(path text, n int) RETURNS SETOF int LANGUAGE sql IMMUTABLE AS $$
  SELECT (ids[i])::int
  FROM (SELECT string_to_array(rtrim(path, '.'), '.') AS ids) p,
       generate_series(greatest(1, coalesce(array_length(ids, 1), 0) - n + 1), coalesce(array_length(ids, 1), 0)) AS i
  WHERE path <> '' AND ids[i] <> ''
$$;

-- A transaction's raises as it goes (each statement's pairs once; any number of rows, appended, never rewritten),
-- and one row per transaction that raised anything, whose deferred trigger applies them at commit.
CREATE TABLE member_kept_raised (
  txid bigint NOT NULL,
  member_id int NOT NULL,
  kind text NOT NULL
);
CREATE INDEX member_kept_raised_txid ON member_kept_raised (txid);
CREATE TABLE member_kept_raises (
  txid bigint PRIMARY KEY,
  new_epoch boolean NOT NULL DEFAULT false
);

-- Raise the answers of these (member, kind) pairs at the transaction's commit (rows created where missing).
CREATE FUNCTION member_kept_raise_pairs(ids int[], kinds text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_kept_raises (txid) SELECT txid_current() WHERE cardinality(ids) > 0 ON CONFLICT (txid) DO NOTHING;
  INSERT INTO member_kept_raised (txid, member_id, kind)
  SELECT DISTINCT txid_current(), u.id, u.kind FROM unnest(ids, kinds) AS u(id, kind) WHERE u.id IS NOT NULL;
$$;

CREATE OR REPLACE FUNCTION member_kept_raise(answer_kind text, ids int[]) RETURNS void LANGUAGE sql AS $$
  SELECT member_kept_raise_pairs(ids, array_fill(answer_kind, ARRAY[cardinality(ids)]))
$$;

-- A new epoch at the transaction's commit.
CREATE OR REPLACE FUNCTION member_kept_new_epoch() RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_kept_raises AS r (txid, new_epoch) VALUES (txid_current(), true)
  ON CONFLICT (txid) DO UPDATE SET new_epoch = true
$$;

-- At commit: the epoch raised when asked (every stored answer then dropped), and every pair raised, in one
-- statement in member and kind order.
CREATE FUNCTION member_kept_apply_raises() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE epoch_too boolean;
BEGIN
  DELETE FROM member_kept_raises WHERE txid = NEW.txid RETURNING new_epoch INTO epoch_too;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF epoch_too THEN
    UPDATE member_kept_epoch SET epoch = epoch + 1;
  END IF;
  WITH staged AS (DELETE FROM member_kept_raised WHERE txid = NEW.txid RETURNING member_id, kind)
  INSERT INTO member_kept_answers AS a (member_id, kind, version)
  SELECT DISTINCT u.member_id, u.kind, 1 FROM (
      SELECT member_id, kind FROM staged
      UNION ALL
      SELECT k.member_id, k.kind FROM member_kept_answers k WHERE epoch_too AND k.answer IS NOT NULL) u
  ORDER BY u.member_id, u.kind
  ON CONFLICT (member_id, kind) DO UPDATE SET version = a.version + 1, kept_version = NULL, kept_epoch = NULL, kept_for = NULL, answer = NULL;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER member_kept_raises_at_commit AFTER INSERT ON member_kept_raises
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION member_kept_apply_raises();

CREATE OR REPLACE FUNCTION members_kept_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM member_kept_raise_pairs(array_agg(id), array_agg(kind)) FROM (
      SELECT member_path_ids(n.path) AS id, 'home' AS kind FROM new_rows n
      UNION ALL SELECT member_path_tail(n.path, 5), 'genealogy' FROM new_rows n
      UNION ALL SELECT member_path_ids(n.path), 'downline_report' FROM new_rows n) r;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM member_kept_new_epoch();
    PERFORM member_kept_raise_pairs(array_agg(id), array_agg(kind)) FROM (
      SELECT member_path_ids(o.path) AS id, 'home' AS kind FROM old_rows o
      UNION ALL SELECT member_path_tail(o.path, 5), 'genealogy' FROM old_rows o
      UNION ALL SELECT member_path_ids(o.path), 'downline_report' FROM old_rows o) r;
  ELSE
    IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.username IS DISTINCT FROM o.username) THEN
      PERFORM member_kept_new_epoch();
    END IF;
    PERFORM member_kept_raise_pairs(array_agg(id), array_agg(kind)) FROM (
      -- Home: the member's own place, join date and downline size; the newest joinings of everyone above.
      SELECT n.id, 'home' AS kind FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (n.path, n.created_at, n.downline_count) IS DISTINCT FROM (o.path, o.created_at, o.downline_count)
      UNION ALL
      SELECT member_path_ids(x.path), 'home' FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.path), (n.path)) AS x(path)
      WHERE (n.path, n.verified, n.first_name, n.last_name, n.avatar, n.created_at)
            IS DISTINCT FROM (o.path, o.verified, o.first_name, o.last_name, o.avatar, o.created_at)
      UNION ALL
      SELECT member_path_tail(x.path, 5), 'genealogy' FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.path), (n.path)) AS x(path)
      WHERE (n.path, n.depth, n.parent_id, n.position, n.slot, n.status, n.avatar, n.first_name, n.last_name, n.created_at,
             n.rank_id, n.package_id, n.pv, n.tv, n.cv, n.total_left, n.total_right, n.carry_left, n.carry_right,
             n.downline_count, n.left_count, n.right_count, n.child_count)
            IS DISTINCT FROM
            (o.path, o.depth, o.parent_id, o.position, o.slot, o.status, o.avatar, o.first_name, o.last_name, o.created_at,
             o.rank_id, o.package_id, o.pv, o.tv, o.cv, o.total_left, o.total_right, o.carry_left, o.carry_right,
             o.downline_count, o.left_count, o.right_count, o.child_count)
      UNION ALL
      SELECT member_path_ids(x.path), 'downline_report' FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.path), (n.path)) AS x(path)
      WHERE (n.path, n.depth, n.parent_id, n.sponsor_id, n.status, n.email, n.avatar, n.first_name, n.last_name, n.created_at,
             n.rank_id, n.pv, n.tv, n.cv, n.total_left, n.total_right, n.carry_left, n.carry_right)
            IS DISTINCT FROM
            (o.path, o.depth, o.parent_id, o.sponsor_id, o.status, o.email, o.avatar, o.first_name, o.last_name, o.created_at,
             o.rank_id, o.pv, o.tv, o.cv, o.total_left, o.total_right, o.carry_left, o.carry_right)
    ) r;
  END IF;
  RETURN NULL;
END $$;

-- Gross earnings (written by the earnings' figure trigger, migration 0034) are shown by both.
CREATE FUNCTION gross_earnings_kept_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM member_kept_raise_pairs(array_agg(id), array_agg(kind)) FROM (
      SELECT member_path_tail(m.path, 5) AS id, 'genealogy' AS kind FROM old_rows c JOIN members m ON m.id = c.member_id
      UNION ALL SELECT member_path_ids(m.path), 'downline_report' FROM old_rows c JOIN members m ON m.id = c.member_id) r;
  ELSE
    -- An update keeps each row's member: its new rows name every member the statement touched.
    PERFORM member_kept_raise_pairs(array_agg(id), array_agg(kind)) FROM (
      SELECT member_path_tail(m.path, 5) AS id, 'genealogy' AS kind FROM new_rows c JOIN members m ON m.id = c.member_id
      UNION ALL SELECT member_path_ids(m.path), 'downline_report' FROM new_rows c JOIN members m ON m.id = c.member_id) r;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER member_gross_earnings_kept_ins AFTER INSERT ON member_gross_earnings REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gross_earnings_kept_changed();
CREATE TRIGGER member_gross_earnings_kept_upd AFTER UPDATE ON member_gross_earnings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gross_earnings_kept_changed();
CREATE TRIGGER member_gross_earnings_kept_del AFTER DELETE ON member_gross_earnings REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gross_earnings_kept_changed();
CREATE TRIGGER member_gross_earnings_kept_truncate AFTER TRUNCATE ON member_gross_earnings FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();

-- A package renamed or removed: its name may be in any kept genealogy.
CREATE TRIGGER packages_kept AFTER UPDATE OF name OR DELETE OR TRUNCATE ON packages FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();
