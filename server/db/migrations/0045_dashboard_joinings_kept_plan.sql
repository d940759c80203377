-- The dashboard's newest members of a downline (server/lib/home.ts, recentDownlineJoiningsJson) as a function
-- whose statement keeps one plan for every member (plan_cache_mode), as the downline report's page does
-- (migration 0038).
--
-- Written inside the dashboard's statement, its estimates for values not yet known (the walk's LIMIT, a range
-- of paths) made the plan kept for every member look far costlier than one planned for a small downline's own
-- values, so PostgreSQL planned the whole dashboard statement again on every call for most members: about
-- 1 ms of planning, more than the statement's reads. The plan kept here walks the join-date index and reads
-- the downline's range of the path index, as the plans made for each member did. The answer is the same text.
--
-- p_member: the member; p_from, p_to: the downline's range of paths (the member's path, and the first text
-- past every path starting with it); p_walk: how many of the newest members of the tree are looked through;
-- p_limit: how many are answered.
CREATE OR REPLACE FUNCTION recent_downline_joinings(p_member int, p_from text, p_to text, p_walk int, p_limit int)
RETURNS text LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  joinings text;
BEGIN
  WITH walked AS MATERIALIZED (
    SELECT w.id, w.first_name, w.last_name, w.avatar, w.created_at FROM (
      SELECT m.id, m.first_name, m.last_name, m.avatar, m.created_at, m.path, m.verified FROM members m
      ORDER BY m.created_at DESC, m.id DESC LIMIT p_walk) w
    WHERE w.path ~>=~ p_from AND w.path ~<~ p_to AND w.id <> p_member AND w.verified
    ORDER BY w.created_at DESC, w.id DESC LIMIT p_limit
  ), ranged AS MATERIALIZED (
    SELECT m.id, m.first_name, m.last_name, m.avatar, m.created_at FROM members m
    WHERE m.path ~>=~ p_from AND m.path ~<~ p_to AND m.id <> p_member AND m.verified
  ), picked AS (
    SELECT * FROM walked
    UNION ALL
    SELECT * FROM (SELECT * FROM ranged ORDER BY created_at DESC, id DESC LIMIT p_limit) r
    WHERE (SELECT count(*) FROM walked) < p_limit
  )
  SELECT string_agg(row_to_json(r)::text, ',' ORDER BY j.created_at DESC, j.id DESC) INTO joinings
  FROM picked j, LATERAL (SELECT j.id, j.first_name, j.last_name,
    to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS joined_date, j.avatar) r;
  RETURN joinings;
END $$;
