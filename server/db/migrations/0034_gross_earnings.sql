-- Gross earnings of a member over every bonus type, kept beside the per-type totals by the same trigger.
--
-- The genealogy and the downline report show each member's gross earnings. They summed the member's
-- per-type totals per row; on a small earnings table the planner scanned it once per row instead. One row per
-- member, read by key, costs the same at any size. The trigger adds the difference of the rows a statement
-- added and removed, in member order, like every other figure, and touches no row another figure's trigger
-- locks, so writers wait on each other exactly as before.

CREATE TABLE member_gross_earnings (
  member_id int PRIMARY KEY,
  total numeric(20,4) NOT NULL DEFAULT 0
);

CREATE OR REPLACE FUNCTION earnings_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      INSERT INTO member_earning_totals AS t (member_id, bonus_type, total)
      SELECT member_id, bonus_type, %2$s * sum(amount_generated) FROM %1$I GROUP BY member_id, bonus_type ORDER BY member_id, bonus_type
      ON CONFLICT (member_id, bonus_type) DO UPDATE SET total = t.total + EXCLUDED.total
    $q$, src.rows_of, src.sign);
    EXECUTE format($q$
      INSERT INTO member_gross_earnings AS g (member_id, total)
      SELECT member_id, %2$s * sum(amount_generated) FROM %1$I GROUP BY member_id ORDER BY member_id
      ON CONFLICT (member_id) DO UPDATE SET total = g.total + EXCLUDED.total
    $q$, src.rows_of, src.sign);
  END LOOP;
  RETURN NULL;
END $$;

INSERT INTO member_gross_earnings (member_id, total)
SELECT member_id, sum(amount_generated) FROM earnings GROUP BY member_id;
