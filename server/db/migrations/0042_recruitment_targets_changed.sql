-- The company's recruitment targets are company-wide data each server process keeps (the dashboard's recruitment
-- progress reads only the member's own from the database): a change announces itself on upline_settings like
-- packages, ranks, stories and events do (migrations 0014, 0022).
CREATE TRIGGER recruitment_targets_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recruitment_targets FOR EACH STATEMENT EXECUTE FUNCTION settings_changed();
