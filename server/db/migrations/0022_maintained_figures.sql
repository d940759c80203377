-- Figures the member pages show, maintained when what they sum changes instead of recomputed per request.
--
-- Each is kept by a trigger on the table it sums, so it changes in the same transaction (and the same
-- statement) as the rows it follows, whoever writes them: ledger postings, bulk inserts of the seed,
-- orders, payouts, signups. Rows are touched in member order so concurrent writers never wait on each
-- other in a cycle. Only member wallets are followed (the company's own accounts are never shown to a
-- member, and following them would make every posting wait for the one before).
--
--   member_figures          wallet balance, payout totals (paid; pending or approved), package investment
--   member_wallet_months    money into (credit) and out of (debit) the wallet per UTC month
--   member_earning_totals   gross earnings per bonus type
--   member_sponsor_months   verified personally sponsored members per UTC month of joining

CREATE TABLE member_figures (
  member_id int PRIMARY KEY,
  balance numeric(20,4) NOT NULL DEFAULT 0,
  total_paid numeric(20,4) NOT NULL DEFAULT 0,
  total_pending numeric(20,4) NOT NULL DEFAULT 0,
  total_investment numeric(20,4) NOT NULL DEFAULT 0
);

CREATE TABLE member_wallet_months (
  member_id int NOT NULL,
  month date NOT NULL,
  credit numeric(20,4) NOT NULL DEFAULT 0,
  debit numeric(20,4) NOT NULL DEFAULT 0,
  PRIMARY KEY (member_id, month)
);

CREATE TABLE member_earning_totals (
  member_id int NOT NULL,
  bonus_type text NOT NULL,
  total numeric(20,4) NOT NULL DEFAULT 0,
  PRIMARY KEY (member_id, bonus_type)
);

CREATE TABLE member_sponsor_months (
  member_id int NOT NULL,
  month date NOT NULL,
  joined int NOT NULL DEFAULT 0,
  PRIMARY KEY (member_id, month)
);

-- Each function runs its statement once over the rows a statement added (sign 1) and once over the rows
-- it removed (sign -1); an update is both.
CREATE FUNCTION figure_sources(op text) RETURNS TABLE (rows_of text, sign int) LANGUAGE sql IMMUTABLE AS $$
  SELECT 'new_rows', 1 WHERE op IN ('INSERT', 'UPDATE')
  UNION ALL
  SELECT 'old_rows', -1 WHERE op IN ('DELETE', 'UPDATE')
$$;

-- Ledger entries → balance and monthly credit/debit of member wallets (debit positive, credit negative;
-- a wallet is credit-normal, so its balance is minus the sum of its entries).
CREATE FUNCTION ledger_entries_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      WITH mine AS (
        SELECT a.member_id, %2$s * c.amount AS amount, date_trunc('month', c.created_at AT TIME ZONE 'UTC')::date AS month
        FROM %1$I c JOIN ledger_accounts a ON a.id = c.account_id WHERE a.member_id IS NOT NULL
      ), by_month AS (
        INSERT INTO member_wallet_months AS w (member_id, month, credit, debit)
        SELECT member_id, month, coalesce(sum(-amount) FILTER (WHERE amount < 0), 0), coalesce(sum(amount) FILTER (WHERE amount > 0), 0)
        FROM mine GROUP BY member_id, month ORDER BY member_id, month
        ON CONFLICT (member_id, month) DO UPDATE SET credit = w.credit + EXCLUDED.credit, debit = w.debit + EXCLUDED.debit
      )
      INSERT INTO member_figures AS f (member_id, balance)
      SELECT member_id, -sum(amount) FROM mine GROUP BY member_id ORDER BY member_id
      ON CONFLICT (member_id) DO UPDATE SET balance = f.balance + EXCLUDED.balance
    $q$, src.rows_of, src.sign);
  END LOOP;
  RETURN NULL;
END $$;

-- Earnings → gross per bonus type.
CREATE FUNCTION earnings_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      INSERT INTO member_earning_totals AS t (member_id, bonus_type, total)
      SELECT member_id, bonus_type, %2$s * sum(amount_generated) FROM %1$I GROUP BY member_id, bonus_type ORDER BY member_id, bonus_type
      ON CONFLICT (member_id, bonus_type) DO UPDATE SET total = t.total + EXCLUDED.total
    $q$, src.rows_of, src.sign);
  END LOOP;
  RETURN NULL;
END $$;

-- Payout requests → paid and not-yet-paid totals, recounted for the members whose requests changed.
CREATE FUNCTION payout_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      INSERT INTO member_figures AS f (member_id, total_paid, total_pending)
      SELECT w.member_id,
             coalesce((SELECT sum(amount) FROM payout_requests p WHERE p.member_id = w.member_id AND p.status = 3), 0),
             coalesce((SELECT sum(amount) FROM payout_requests p WHERE p.member_id = w.member_id AND p.status IN (1, 2)), 0)
      FROM (SELECT DISTINCT member_id FROM %1$I) w ORDER BY w.member_id
      ON CONFLICT (member_id) DO UPDATE SET total_paid = EXCLUDED.total_paid, total_pending = EXCLUDED.total_pending
    $q$, src.rows_of);
  END LOOP;
  RETURN NULL;
END $$;

-- Orders → package investment (joining package and upgrades, cancelled ones excluded), recounted likewise.
CREATE FUNCTION order_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      INSERT INTO member_figures AS f (member_id, total_investment)
      SELECT w.member_id,
             coalesce((SELECT sum(total) FROM orders o
                       WHERE o.member_id = w.member_id AND o.order_type IN ('registration', 'upgrade') AND o.status <> 'cancelled'), 0)
      FROM (SELECT DISTINCT member_id FROM %1$I) w ORDER BY w.member_id
      ON CONFLICT (member_id) DO UPDATE SET total_investment = EXCLUDED.total_investment
    $q$, src.rows_of);
  END LOOP;
  RETURN NULL;
END $$;

-- Members → verified personally sponsored members per month of joining. An update (members are updated
-- often: counters, volumes, profile) writes only where the net count changed.
CREATE FUNCTION sponsor_figures() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE src record;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO member_sponsor_months AS s (member_id, month, joined)
    SELECT sponsor_id, month, sum(n)::int FROM (
      SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS month, 1 AS n FROM new_rows WHERE verified AND sponsor_id IS NOT NULL
      UNION ALL
      SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, -1 FROM old_rows WHERE verified AND sponsor_id IS NOT NULL
    ) c GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
    ON CONFLICT (member_id, month) DO UPDATE SET joined = s.joined + EXCLUDED.joined;
    RETURN NULL;
  END IF;
  FOR src IN SELECT * FROM figure_sources(TG_OP) LOOP
    EXECUTE format($q$
      INSERT INTO member_sponsor_months AS s (member_id, month, joined)
      SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, %2$s * count(*)::int
      FROM %1$I WHERE verified AND sponsor_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (member_id, month) DO UPDATE SET joined = s.joined + EXCLUDED.joined
    $q$, src.rows_of, src.sign);
  END LOOP;
  RETURN NULL;
END $$;

-- A statement trigger per event (transition tables allow one event per trigger).
CREATE TRIGGER ledger_entries_figures_ins AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_figures();
CREATE TRIGGER ledger_entries_figures_upd AFTER UPDATE ON ledger_entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_figures();
CREATE TRIGGER ledger_entries_figures_del AFTER DELETE ON ledger_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_figures();
CREATE TRIGGER earnings_figures_ins AFTER INSERT ON earnings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION earnings_figures();
CREATE TRIGGER earnings_figures_upd AFTER UPDATE ON earnings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION earnings_figures();
CREATE TRIGGER earnings_figures_del AFTER DELETE ON earnings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION earnings_figures();
CREATE TRIGGER payout_figures_ins AFTER INSERT ON payout_requests REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payout_figures();
CREATE TRIGGER payout_figures_upd AFTER UPDATE ON payout_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payout_figures();
CREATE TRIGGER payout_figures_del AFTER DELETE ON payout_requests REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payout_figures();
CREATE TRIGGER order_figures_ins AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_figures();
CREATE TRIGGER order_figures_upd AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_figures();
CREATE TRIGGER order_figures_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_figures();
CREATE TRIGGER sponsor_figures_ins AFTER INSERT ON members REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sponsor_figures();
CREATE TRIGGER sponsor_figures_upd AFTER UPDATE ON members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sponsor_figures();
CREATE TRIGGER sponsor_figures_del AFTER DELETE ON members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sponsor_figures();

-- What a database migrated now already holds.
INSERT INTO member_figures (member_id, balance)
SELECT a.member_id, -sum(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
WHERE a.member_id IS NOT NULL GROUP BY a.member_id;
INSERT INTO member_wallet_months (member_id, month, credit, debit)
SELECT a.member_id, date_trunc('month', e.created_at AT TIME ZONE 'UTC')::date,
       coalesce(sum(-e.amount) FILTER (WHERE e.amount < 0), 0), coalesce(sum(e.amount) FILTER (WHERE e.amount > 0), 0)
FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.member_id IS NOT NULL GROUP BY 1, 2;
INSERT INTO member_earning_totals (member_id, bonus_type, total)
SELECT member_id, bonus_type, sum(amount_generated) FROM earnings GROUP BY 1, 2;
INSERT INTO member_figures AS f (member_id, total_paid, total_pending)
SELECT member_id, coalesce(sum(amount) FILTER (WHERE status = 3), 0), coalesce(sum(amount) FILTER (WHERE status IN (1, 2)), 0)
FROM payout_requests GROUP BY member_id
ON CONFLICT (member_id) DO UPDATE SET total_paid = EXCLUDED.total_paid, total_pending = EXCLUDED.total_pending;
INSERT INTO member_figures AS f (member_id, total_investment)
SELECT member_id, coalesce(sum(total) FILTER (WHERE order_type IN ('registration', 'upgrade') AND status <> 'cancelled'), 0)
FROM orders GROUP BY member_id
ON CONFLICT (member_id) DO UPDATE SET total_investment = EXCLUDED.total_investment;
INSERT INTO member_sponsor_months (member_id, month, joined)
SELECT sponsor_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)::int FROM members
WHERE verified AND sponsor_id IS NOT NULL GROUP BY 1, 2;

-- The company's data every member page shows (packages, ranks, articles and videos, events) is cached by
-- each server process like the settings: a change announces itself on upline_settings (migration 0014).
CREATE TRIGGER packages_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON packages FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
CREATE TRIGGER ranks_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranks FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
CREATE TRIGGER stories_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON stories FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
CREATE TRIGGER events_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
