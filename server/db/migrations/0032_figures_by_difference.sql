-- Payout totals and package investment are kept by difference, like the balance, instead of being recounted.
--
-- A recount reads the member's rows as the statement's snapshot sees them. Two transactions writing orders
-- (or payout requests) of the same member at the same time each recounted without the other's uncommitted
-- row; the second one to commit then wrote its recount over the first one's figure, losing an order. Adding
-- the difference of the rows a statement added and removed under the figure row's lock loses nothing: the
-- update reads the figure as the writer before it left it.

CREATE OR REPLACE FUNCTION payout_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      INSERT INTO member_figures AS f (member_id, total_paid, total_pending)
      SELECT member_id,
             %2$s * coalesce(sum(amount) FILTER (WHERE status = 3), 0),
             %2$s * coalesce(sum(amount) FILTER (WHERE status IN (1, 2)), 0)
      FROM %1$I GROUP BY member_id ORDER BY member_id
      ON CONFLICT (member_id) DO UPDATE SET total_paid = f.total_paid + EXCLUDED.total_paid, total_pending = f.total_pending + EXCLUDED.total_pending
    $q$, src.rows_of, src.sign);
  END LOOP;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION order_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      INSERT INTO member_figures AS f (member_id, total_investment)
      SELECT member_id, %2$s * coalesce(sum(total) FILTER (WHERE order_type IN ('registration', 'upgrade') AND status <> 'cancelled'), 0)
      FROM %1$I GROUP BY member_id ORDER BY member_id
      ON CONFLICT (member_id) DO UPDATE SET total_investment = f.total_investment + EXCLUDED.total_investment
    $q$, src.rows_of, src.sign);
  END LOOP;
  RETURN NULL;
END $$;

-- Figures a concurrent recount may have left short are made right once.
UPDATE member_figures f SET total_paid = 0, total_pending = 0, total_investment = 0;
INSERT INTO member_figures AS f (member_id, total_paid, total_pending)
SELECT member_id, coalesce(sum(amount) FILTER (WHERE status = 3), 0), coalesce(sum(amount) FILTER (WHERE status IN (1, 2)), 0)
FROM payout_requests GROUP BY member_id
ON CONFLICT (member_id) DO UPDATE SET total_paid = EXCLUDED.total_paid, total_pending = EXCLUDED.total_pending;
INSERT INTO member_figures AS f (member_id, total_investment)
SELECT member_id, coalesce(sum(total) FILTER (WHERE order_type IN ('registration', 'upgrade') AND status <> 'cancelled'), 0)
FROM orders GROUP BY member_id
ON CONFLICT (member_id) DO UPDATE SET total_investment = EXCLUDED.total_investment;
