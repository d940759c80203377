-- Server processes keep verified sessions in memory for a moment (server/lib/session-cache.ts): every change
-- of a session (revoked, consumed, expired by hand, removed) or of a member row (blocked, changed, removed)
-- is announced on the channel upline_sessions, once per statement, so that every process drops them.
CREATE FUNCTION sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('upline_sessions', '');
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE OR TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed();
CREATE TRIGGER members_sessions_changed AFTER UPDATE OR DELETE OR TRUNCATE ON members FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed();
