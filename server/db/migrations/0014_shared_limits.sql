-- State that several server processes on one database must share: throttling counters and the version of
-- the company settings (every process drops what it derived from them when it goes up).

-- Fixed-window counters: at most `max` hits of `key` (a limit's name and whom it counts: an IP, a destination,
-- a member) until `reset_at`, when the window starts again. Rows past their window are swept.
CREATE TABLE throttle_counters (
  key text PRIMARY KEY,
  hits int NOT NULL,
  reset_at timestamptz NOT NULL
);
CREATE INDEX throttle_counters_reset_idx ON throttle_counters (reset_at);

-- Failed sign-ins of one account (`account` is m:<member id>, or the identifier when it names nobody, so
-- that an unknown name is refused exactly like a member's), whatever identifier or address they came
-- from. `failures` counts consecutive failures (a sign-in or a password reset clears the row);
-- `blocked_until` is when the next attempt may come (a growing delay, a lock, or 'infinity').
CREATE TABLE sign_in_failures (
  account text PRIMARY KEY,
  failures int NOT NULL DEFAULT 0,
  last_failure_at timestamptz NOT NULL DEFAULT now(),
  blocked_until timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_last_idx ON sign_in_failures (last_failure_at);

-- One row: goes up with every change of the settings or the reference data (by the server or by hand),
-- and each change is announced on the channel upline_settings (LISTEN/NOTIFY).
CREATE TABLE settings_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO settings_version (id, version) VALUES (true, 0);

CREATE FUNCTION settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  UPDATE settings_version SET version = version + 1 RETURNING version INTO v;
  PERFORM pg_notify('upline_settings', v::text);
  RETURN NULL;
END $$;

CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settings FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
CREATE TRIGGER languages_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON languages FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
CREATE TRIGGER currencies_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON currencies FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
CREATE TRIGGER countries_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON countries FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
