package handlerstest

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"oware/content"
	"oware/handlers"
	"oware/models"
	"oware/models/modelstest"
)

// LimitedSite serves the site on SQLite as the server command does
// (handlers.LimitServer), logging to log; tune changes the server after.
func LimitedSite(t *testing.T, log io.Writer, tune func(*http.Server), cfg func(*handlers.Config)) *Site {
	t.Helper()
	db := modelstest.Open(t, models.SQLite)
	if err := content.Load(t.Context(), db, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	c := handlers.Config{
		BaseURL: "http://" + srv.Listener.Addr().String(),
		Secret:  []byte("0123456789abcdef0123456789abcdef"),
		Log:     slog.New(handlers.LogHandler(slog.NewTextHandler(log, nil))),
	}
	if cfg != nil {
		cfg(&c)
	}
	e, err := handlers.New(WithServices(t, db, c))
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = e
	handlers.LimitServer(srv.Config)
	if tune != nil {
		tune(srv.Config)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return &Site{T: t, Srv: srv, Db: db, Base: c.BaseURL}
}
