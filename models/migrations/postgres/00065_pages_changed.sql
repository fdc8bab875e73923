-- +goose Up
-- The pages' events (issue 21): every change of the pages table (LoadPages
-- at an instance's start, an edit made in the database by hand) notifies
-- the channel of the broker's event "pages", so each instance keeps the
-- pages' states in memory while it listens (content.Service.Follow) and
-- a page served from its cache asks the database nothing. Page changes
-- are rare: the notification's commit lock (PreCommit_Notify) costs
-- nothing that matters.
-- +goose StatementBegin
CREATE FUNCTION pages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('oware_pages', '1');
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER pages_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pages
    FOR EACH STATEMENT EXECUTE FUNCTION pages_changed();

-- +goose Down
DROP TRIGGER pages_changed ON pages;
DROP FUNCTION pages_changed();
