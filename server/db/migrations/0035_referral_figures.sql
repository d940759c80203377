-- Figures of the referral summary, maintained like those of migration 0022 instead of recounted per request:
--
--   member_sponsor_months.referred   members a member sponsored directly per UTC month of joining, verified
--                                    or not (next to `joined`, the verified ones the recruitment targets count)
--   member_sponsor_teams             the size of a member's sponsor downline (everyone whose sponsor chain
--                                    runs through the member), kept for every member of the chain
--
-- Both follow the members table in the statement that changes it: signups, verification, a new sponsor
-- (the chains below move with it, migration 0005), removals. Rows are touched in member order, so concurrent
-- signups under the same sponsors never wait on each other in a cycle; counts are kept by difference under
-- each row's lock, so none is lost.

ALTER TABLE member_sponsor_months ADD COLUMN referred int NOT NULL DEFAULT 0;

CREATE TABLE member_sponsor_teams (
  member_id int PRIMARY KEY,
  team int NOT NULL DEFAULT 0
);

-- The members above a member in its sponsor chain ('1.2.9.' → 1, 2): every id of the path but its own.
CREATE FUNCTION sponsor_chain_above(sponsor_path text) RETURNS SETOF int LANGUAGE sql IMMUTABLE AS $$
  SELECT x::int FROM unnest(CASE WHEN sponsor_path LIKE '%.%.' THEN trim_array(string_to_array(rtrim(sponsor_path, '.'), '.'), 1) END) x
$$;

-- Members → sponsored members per month of joining (verified ones, and all) and sponsor downline sizes.
-- An update (members are updated often: counters, volumes, profile) counts only the rows whose sponsor,
-- month of joining, verification or sponsor chain changed, in a statement planned once per connection.
CREATE OR REPLACE FUNCTION sponsor_figures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    WITH d AS (
      SELECT n.sponsor_id, n.created_at, n.verified, n.sponsor_path, 1 AS sign FROM new_rows n
      WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id
                        AND (o.sponsor_id, o.created_at, o.verified, o.sponsor_path) IS NOT DISTINCT FROM (n.sponsor_id, n.created_at, n.verified, n.sponsor_path))
      UNION ALL
      SELECT o.sponsor_id, o.created_at, o.verified, o.sponsor_path, -1 FROM old_rows o
      WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id
                        AND (o.sponsor_id, o.created_at, o.verified, o.sponsor_path) IS NOT DISTINCT FROM (n.sponsor_id, n.created_at, n.verified, n.sponsor_path))
    ), by_month AS (
      INSERT INTO member_sponsor_months AS s (member_id, month, joined, referred)
      SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date,
             coalesce(sum(sign) FILTER (WHERE verified), 0)::int, sum(sign)::int
      FROM d WHERE sponsor_id IS NOT NULL GROUP BY 1, 2
      HAVING coalesce(sum(sign) FILTER (WHERE verified), 0) <> 0 OR sum(sign) <> 0 ORDER BY 1, 2
      ON CONFLICT (member_id, month) DO UPDATE SET joined = s.joined + EXCLUDED.joined, referred = s.referred + EXCLUDED.referred
    )
    INSERT INTO member_sponsor_teams AS t (member_id, team)
    SELECT a.id, sum(d.sign)::int FROM d CROSS JOIN LATERAL sponsor_chain_above(d.sponsor_path) a(id)
    GROUP BY a.id HAVING sum(d.sign) <> 0 ORDER BY a.id
    ON CONFLICT (member_id) DO UPDATE SET team = t.team + EXCLUDED.team;
    RETURN NULL;
  END IF;
  -- An insert counts every new row, a removal every old one.
  EXECUTE format($q$
    WITH d AS (SELECT sponsor_id, created_at, verified, sponsor_path, %2$s AS sign FROM %1$I),
    by_month AS (
      INSERT INTO member_sponsor_months AS s (member_id, month, joined, referred)
      SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date,
             coalesce(sum(sign) FILTER (WHERE verified), 0)::int, sum(sign)::int
      FROM d WHERE sponsor_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (member_id, month) DO UPDATE SET joined = s.joined + EXCLUDED.joined, referred = s.referred + EXCLUDED.referred
    )
    INSERT INTO member_sponsor_teams AS t (member_id, team)
    SELECT a.id, sum(d.sign)::int FROM d CROSS JOIN LATERAL sponsor_chain_above(d.sponsor_path) a(id) GROUP BY a.id ORDER BY a.id
    ON CONFLICT (member_id) DO UPDATE SET team = t.team + EXCLUDED.team
  $q$, CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END, CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END);
  RETURN NULL;
END $$;

-- What a database migrated now already holds.
INSERT INTO member_sponsor_months AS s (member_id, month, referred)
SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)::int FROM members
WHERE sponsor_id IS NOT NULL GROUP BY 1, 2
ON CONFLICT (member_id, month) DO UPDATE SET referred = EXCLUDED.referred;
INSERT INTO member_sponsor_teams (member_id, team)
SELECT a.id, count(*)::int FROM members m CROSS JOIN LATERAL sponsor_chain_above(m.sponsor_path) a(id) GROUP BY a.id;

-- The latest direct referrals of a member, newest first (referral summary, joinings list).
CREATE INDEX members_sponsor_created_idx ON members (sponsor_id, created_at DESC, id DESC);
