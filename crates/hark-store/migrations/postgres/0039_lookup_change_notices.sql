-- Each server keeps the sessions, users, trackers and members its reads look up while nothing
-- changed them (crates/hark-api/src/lookups.rs). Every statement that changes such rows, on any
-- server, sends a notice on the channel hark_changes when its transaction commits (PostgreSQL
-- sends a transaction's identical notices once); each server listens and reads them again.
CREATE FUNCTION lookups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('hark_changes', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER sessions_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sessions
    FOR EACH STATEMENT EXECUTE FUNCTION lookups_changed();
CREATE TRIGGER users_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION lookups_changed();
CREATE TRIGGER trackers_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON trackers
    FOR EACH STATEMENT EXECUTE FUNCTION lookups_changed();
CREATE TRIGGER tracker_members_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tracker_members
    FOR EACH STATEMENT EXECUTE FUNCTION lookups_changed();
