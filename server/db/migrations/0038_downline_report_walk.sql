-- The downline report's page (migration 0033) at less cost per call, with the same rows.
--
--  - The member's place and the number of members in every tree are read in one statement.
--  - The join-date walk is one statement: the first `budget` rows from where the page starts, in join order,
--    those of the downline kept, `skip` passed, `take` returned. It used to fetch its rows one at a time.
--  - When it returns fewer than `take` rows, it either met the end of the members or gave up at its budget
--    (more rows than the budget remain in that order): only then is the rest of the page read from the
--    downline itself. The rows the walk found are the first of the page (the walk reads the downline in the
--    page's order), so the rest starts after them: `take` less what was found, `skip` plus it.
--  - Its statements keep one plan for every call (plan_cache_mode): planned for the values of each call, the
--    walk's LIMIT made the plan for unknown values look costlier than planning again, so it was planned anew
--    every time. The read from the downline's range is EXECUTEd, planned for the member's own values as before.
-- Every other path (a username, a sponsor level, a downline that is a small part of all members) is unchanged.
CREATE OR REPLACE FUNCTION downline_report_page(
  p_member int, p_sponsor boolean, p_level int, p_username text, p_desc boolean,
  p_after_at timestamptz, p_after_id int, p_skip int, p_take int
) RETURNS TABLE (row_id int, row_level int) LANGUAGE plpgsql STABLE ROWS 1 SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  placed text;
  root_path text;
  root_depth int;
  downline int;
  total bigint;
  budget bigint;
  tried boolean := false;
  found_rows bigint := 0;
  remaining bigint;
  at timestamptz := coalesce(p_after_at, CASE WHEN p_desc THEN 'infinity'::timestamptz ELSE '-infinity'::timestamptz END);
  at_id int := coalesce(p_after_id, CASE WHEN p_desc THEN 2147483647 ELSE -2147483648 END);
  path_col text := CASE WHEN p_sponsor THEN 'sponsor_path' ELSE 'path' END;
  depth_col text := CASE WHEN p_sponsor THEN 'sponsor_depth' ELSE 'depth' END;
  dir text := CASE WHEN p_desc THEN 'DESC' ELSE 'ASC' END;
  like_prefix text;
BEGIN
  -- The member, and the members in every tree: each top member's downline and itself (maintained counters, no scan).
  SELECT m.path, CASE WHEN p_sponsor THEN m.sponsor_path ELSE m.path END, CASE WHEN p_sponsor THEN m.sponsor_depth ELSE m.depth END, m.downline_count,
         (SELECT sum(t.downline_count + 1) FROM members t WHERE t.parent_id IS NULL)
    INTO placed, root_path, root_depth, downline, total
    FROM members m WHERE m.id = p_member;
  IF NOT FOUND OR placed = '' OR root_path = '' OR p_take <= 0 THEN
    RETURN;
  END IF;
  budget := ceil((p_skip + p_take)::numeric * total / greatest(downline, 1)) * 4 + 64;

  IF p_username IS NULL AND NOT (p_sponsor AND p_level IS NOT NULL) AND budget * 2 <= downline THEN
    tried := true;
    -- Each walk is planned for its first rows (a LIMIT): the join-date index, however small the table.
    IF p_level IS NULL AND p_desc THEN
      RETURN QUERY SELECT w.id, w.lvl FROM (
          SELECT t.id, CASE WHEN p_sponsor THEN t.sponsor_depth ELSE t.depth END - root_depth AS lvl,
                 CASE WHEN p_sponsor THEN starts_with(t.sponsor_path, root_path) AND t.sponsor_depth > root_depth
                      ELSE starts_with(t.path, root_path) AND t.depth > root_depth END AS inside
          FROM members t WHERE (t.created_at, t.id) < (at, at_id) ORDER BY t.created_at DESC, t.id DESC LIMIT budget) w
        WHERE w.inside OFFSET p_skip LIMIT p_take;
      GET DIAGNOSTICS found_rows = ROW_COUNT;
      IF found_rows < p_take THEN
        SELECT count(*) INTO remaining FROM (SELECT FROM members t WHERE (t.created_at, t.id) < (at, at_id)
          ORDER BY t.created_at DESC, t.id DESC LIMIT budget + 1) c;
      END IF;
    ELSIF p_level IS NULL THEN
      RETURN QUERY SELECT w.id, w.lvl FROM (
          SELECT t.id, CASE WHEN p_sponsor THEN t.sponsor_depth ELSE t.depth END - root_depth AS lvl,
                 CASE WHEN p_sponsor THEN starts_with(t.sponsor_path, root_path) AND t.sponsor_depth > root_depth
                      ELSE starts_with(t.path, root_path) AND t.depth > root_depth END AS inside
          FROM members t WHERE (t.created_at, t.id) > (at, at_id) ORDER BY t.created_at, t.id LIMIT budget) w
        WHERE w.inside OFFSET p_skip LIMIT p_take;
      GET DIAGNOSTICS found_rows = ROW_COUNT;
      IF found_rows < p_take THEN
        SELECT count(*) INTO remaining FROM (SELECT FROM members t WHERE (t.created_at, t.id) > (at, at_id)
          ORDER BY t.created_at, t.id LIMIT budget + 1) c;
      END IF;
    ELSIF p_desc THEN
      -- A placement level (a sponsor level never walks).
      RETURN QUERY SELECT w.id, w.lvl FROM (
          SELECT t.id, t.depth - root_depth AS lvl, starts_with(t.path, root_path) AS inside
          FROM members t WHERE t.depth = root_depth + p_level AND (t.created_at, t.id) < (at, at_id)
          ORDER BY t.created_at DESC, t.id DESC LIMIT budget) w
        WHERE w.inside OFFSET p_skip LIMIT p_take;
      GET DIAGNOSTICS found_rows = ROW_COUNT;
      IF found_rows < p_take THEN
        SELECT count(*) INTO remaining FROM (SELECT FROM members t WHERE t.depth = root_depth + p_level AND (t.created_at, t.id) < (at, at_id)
          ORDER BY t.created_at DESC, t.id DESC LIMIT budget + 1) c;
      END IF;
    ELSE
      RETURN QUERY SELECT w.id, w.lvl FROM (
          SELECT t.id, t.depth - root_depth AS lvl, starts_with(t.path, root_path) AS inside
          FROM members t WHERE t.depth = root_depth + p_level AND (t.created_at, t.id) > (at, at_id)
          ORDER BY t.created_at, t.id LIMIT budget) w
        WHERE w.inside OFFSET p_skip LIMIT p_take;
      GET DIAGNOSTICS found_rows = ROW_COUNT;
      IF found_rows < p_take THEN
        SELECT count(*) INTO remaining FROM (SELECT FROM members t WHERE t.depth = root_depth + p_level AND (t.created_at, t.id) > (at, at_id)
          ORDER BY t.created_at, t.id LIMIT budget + 1) c;
      END IF;
    END IF;
    -- A full page, or the walk met the end of the members: the page is what it found.
    IF found_rows >= p_take OR remaining <= budget THEN
      RETURN;
    END IF;
  END IF;

  like_prefix := replace(replace(replace(root_path, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  RETURN QUERY EXECUTE format(
    'SELECT t.id, t.%2$I - $2 FROM members t WHERE t.%1$I LIKE $1 AND %3$s%4$s%5$s ORDER BY %6$s LIMIT $7 OFFSET $8',
    path_col, depth_col,
    CASE WHEN p_level IS NULL THEN format('t.%I > $2', depth_col) ELSE format('t.%I = $2 + $3', depth_col) END,
    CASE WHEN p_username IS NULL THEN '' ELSE ' AND lower(t.username) LIKE $4' END,
    CASE WHEN p_after_at IS NULL THEN '' WHEN p_desc THEN ' AND (t.created_at, t.id) < ($5, $6)' ELSE ' AND (t.created_at, t.id) > ($5, $6)' END,
    -- A downline that is nearly every member may be read in join-date order (the planner knows its rows'
    -- share); any other is read from its path range and sorted: order by expressions no index provides
    -- (join dates follow depth, so walking the join-date index for a small part of the tree can pass most
    -- of the tree before it meets the downline's rows).
    CASE WHEN NOT tried AND downline >= 0.9 * total THEN format('t.created_at %1$s, t.id %1$s', dir)
         ELSE format('t.created_at + interval ''0 s'' %1$s, t.id + 0 %1$s', dir) END)
    USING like_prefix, root_depth, p_level,
          replace(replace(replace(p_username, '\', '\\'), '%', '\%'), '_', '\_') || '%',
          p_after_at, p_after_id, p_take - found_rows, p_skip + found_rows;
END $$;
