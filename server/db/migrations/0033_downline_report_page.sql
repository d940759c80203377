-- The downline report picks a page of a member's downline (placement or sponsor, newest or oldest first)
-- in one call, with a plan that does not depend on the member.
--
-- Which rows are the page: the member's downline (path or sponsor path below theirs), at one level or
-- every level, whose username starts with a text, after the last row of the page before (join time, id) or
-- after `skip` rows, `take` rows at most — ordered by join time, then id.
--
-- How they are found:
--  - a downline that is a large part of all members (the company's top members): the join-date index is
--    walked from where the page starts and rows outside the downline are passed by. It needs about
--    (skip + take) × members / downline rows; at most four times that (and 64) are read before the walk
--    gives up, so a downline whose newest (or oldest) rows are rarer than its share still costs little;
--  - otherwise (or when the walk gave up, or with a username, or a sponsor level): one statement planned
--    for the member's own values — the downline's path range, sorted, or whatever index suits the username.
-- The walk's statement is the same for every member (the database keeps its plan); a cursor is planned
-- for its first rows, so it is always the index, however small the table. The function is estimated at one
-- row, so that a statement joining its rows to members looks each one up by its key (with the page's 21 a
-- small members table would be read whole and hashed instead).
CREATE FUNCTION downline_report_page(
  p_member int, p_sponsor boolean, p_level int, p_username text, p_desc boolean,
  p_after_at timestamptz, p_after_id int, p_skip int, p_take int
) RETURNS TABLE (row_id int, row_level int) LANGUAGE plpgsql STABLE ROWS 1 AS $$
DECLARE
  placed text;
  root_path text;
  root_depth int;
  downline int;
  total bigint;
  budget bigint;
  walked bigint := 0;
  skipped int := 0;
  ids int[] := '{}';
  levels int[] := '{}';
  at timestamptz := coalesce(p_after_at, CASE WHEN p_desc THEN 'infinity'::timestamptz ELSE '-infinity'::timestamptz END);
  at_id int := coalesce(p_after_id, CASE WHEN p_desc THEN 2147483647 ELSE -2147483648 END);
  walk refcursor;
  r record;
  path_col text := CASE WHEN p_sponsor THEN 'sponsor_path' ELSE 'path' END;
  depth_col text := CASE WHEN p_sponsor THEN 'sponsor_depth' ELSE 'depth' END;
  dir text := CASE WHEN p_desc THEN 'DESC' ELSE 'ASC' END;
  like_prefix text;
BEGIN
  SELECT m.path, CASE WHEN p_sponsor THEN m.sponsor_path ELSE m.path END, CASE WHEN p_sponsor THEN m.sponsor_depth ELSE m.depth END, m.downline_count
    INTO placed, root_path, root_depth, downline
    FROM members m WHERE m.id = p_member;
  IF NOT FOUND OR placed = '' OR root_path = '' OR p_take <= 0 THEN
    RETURN;
  END IF;
  -- Members in every tree: each top member's downline and itself (maintained counters, no scan).
  SELECT sum(t.downline_count + 1) INTO total FROM members t WHERE t.parent_id IS NULL;
  budget := ceil((p_skip + p_take)::numeric * total / greatest(downline, 1)) * 4 + 64;

  IF p_username IS NULL AND NOT (p_sponsor AND p_level IS NOT NULL) AND budget * 2 <= downline THEN
    IF p_level IS NULL AND p_desc THEN
      OPEN walk NO SCROLL FOR SELECT t.id, t.path, t.depth, t.sponsor_path, t.sponsor_depth FROM members t
        WHERE (t.created_at, t.id) < (at, at_id) ORDER BY t.created_at DESC, t.id DESC;
    ELSIF p_level IS NULL THEN
      OPEN walk NO SCROLL FOR SELECT t.id, t.path, t.depth, t.sponsor_path, t.sponsor_depth FROM members t
        WHERE (t.created_at, t.id) > (at, at_id) ORDER BY t.created_at, t.id;
    ELSIF p_desc THEN
      OPEN walk NO SCROLL FOR SELECT t.id, t.path, t.depth, t.sponsor_path, t.sponsor_depth FROM members t
        WHERE t.depth = root_depth + p_level AND (t.created_at, t.id) < (at, at_id) ORDER BY t.created_at DESC, t.id DESC;
    ELSE
      OPEN walk NO SCROLL FOR SELECT t.id, t.path, t.depth, t.sponsor_path, t.sponsor_depth FROM members t
        WHERE t.depth = root_depth + p_level AND (t.created_at, t.id) > (at, at_id) ORDER BY t.created_at, t.id;
    END IF;
    LOOP
      FETCH walk INTO r;
      EXIT WHEN NOT FOUND;
      walked := walked + 1;
      EXIT WHEN walked > budget;
      CONTINUE WHEN NOT CASE WHEN p_sponsor THEN starts_with(r.sponsor_path, root_path) AND r.sponsor_depth > root_depth
                             ELSE starts_with(r.path, root_path) AND r.depth > root_depth END;
      IF skipped < p_skip THEN
        skipped := skipped + 1;
        CONTINUE;
      END IF;
      ids := ids || r.id;
      levels := levels || (CASE WHEN p_sponsor THEN r.sponsor_depth ELSE r.depth END - root_depth);
      EXIT WHEN cardinality(ids) >= p_take;
    END LOOP;
    CLOSE walk;
    IF walked <= budget THEN
      RETURN QUERY SELECT u.id, u.level FROM unnest(ids, levels) WITH ORDINALITY AS u(id, level, n) ORDER BY u.n;
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
    CASE WHEN walked = 0 AND downline >= 0.9 * total THEN format('t.created_at %1$s, t.id %1$s', dir)
         ELSE format('t.created_at + interval ''0 s'' %1$s, t.id + 0 %1$s', dir) END)
    USING like_prefix, root_depth, p_level,
          replace(replace(replace(p_username, '\', '\\'), '%', '\%'), '_', '\_') || '%',
          p_after_at, p_after_id, p_take, p_skip;
END $$;
