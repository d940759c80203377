-- The genealogy a member opens on (their own tree, no search, no "more children" page) kept as last computed, like
-- the dashboards (migration 0047): kind `genealogy` of member_kept_answers.
--
-- It shows the member and the members at most four levels below (GENEALOGY_LEVELS in server/lib/genealogy.ts, the
-- most of every plan): each one's place, counts, volumes, rank, package, names, avatar, status, join date and gross
-- earnings. A change of those of a member raises the answers of the member and of the four members above it; the
-- rows a change of place leaves and the rows it reaches both count. Rank names (migration 0047) and package names
-- shown in it raise the epoch.

-- The last `n` ids of a path: the member and the n - 1 members above it.
CREATE FUNCTION member_path_tail(path text, n int) RETURNS SETOF int LANGUAGE sql IMMUTABLE AS $$
  SELECT (ids[i])::int
  FROM (SELECT string_to_array(rtrim(path, '.'), '.') AS ids) p,
       generate_series(greatest(1, coalesce(array_length(ids, 1), 0) - n + 1), coalesce(array_length(ids, 1), 0)) AS i
  WHERE path <> '' AND ids[i] <> ''
$$;

CREATE OR REPLACE FUNCTION members_kept_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM member_kept_raise('home', array(SELECT member_path_ids(n.path) FROM new_rows n));
    PERFORM member_kept_raise('genealogy', array(SELECT member_path_tail(n.path, 5) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM member_kept_new_epoch();
    PERFORM member_kept_raise('home', array(SELECT member_path_ids(o.path) FROM old_rows o));
    PERFORM member_kept_raise('genealogy', array(SELECT member_path_tail(o.path, 5) FROM old_rows o));
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
    PERFORM member_kept_raise('genealogy', array(
      SELECT member_path_tail(x.path, 5) FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.path), (n.path)) AS x(path)
      WHERE (n.path, n.depth, n.parent_id, n.position, n.slot, n.status, n.avatar, n.first_name, n.last_name, n.created_at,
             n.rank_id, n.package_id, n.pv, n.tv, n.cv, n.total_left, n.total_right, n.carry_left, n.carry_right,
             n.downline_count, n.left_count, n.right_count, n.child_count)
            IS DISTINCT FROM
            (o.path, o.depth, o.parent_id, o.position, o.slot, o.status, o.avatar, o.first_name, o.last_name, o.created_at,
             o.rank_id, o.package_id, o.pv, o.tv, o.cv, o.total_left, o.total_right, o.carry_left, o.carry_right,
             o.downline_count, o.left_count, o.right_count, o.child_count)
    ));
  END IF;
  RETURN NULL;
END $$;

-- Gross earnings (written by the earnings' figure trigger, migration 0034): the member's and four above.
CREATE TRIGGER member_gross_earnings_kept_ins AFTER INSERT ON member_gross_earnings REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION member_kept_rows_changed('genealogy', 'member_path_tail((SELECT m.path FROM members m WHERE m.id = c.member_id), 5)');
CREATE TRIGGER member_gross_earnings_kept_upd AFTER UPDATE ON member_gross_earnings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION member_kept_rows_changed('genealogy', 'member_path_tail((SELECT m.path FROM members m WHERE m.id = c.member_id), 5)');
CREATE TRIGGER member_gross_earnings_kept_del AFTER DELETE ON member_gross_earnings REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION member_kept_rows_changed('genealogy', 'member_path_tail((SELECT m.path FROM members m WHERE m.id = c.member_id), 5)');
CREATE TRIGGER member_gross_earnings_kept_truncate AFTER TRUNCATE ON member_gross_earnings FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();

-- A package renamed or removed: its name may be in any kept genealogy.
CREATE TRIGGER packages_kept AFTER UPDATE OF name OR DELETE OR TRUNCATE ON packages FOR EACH STATEMENT EXECUTE FUNCTION member_kept_epoch_changed();
