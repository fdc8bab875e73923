//go:build slow

package handlerstest

import (
	"context"
	"net/http"
)

// StandingsStream opens the event stream of tournament id's page as a
// new browser and returns a channel of its "standings" events and the
// function that closes the stream.
func (s *Site) StandingsStream(id string) (<-chan string, func()) {
	s.T.Helper()
	ctx, cancel := context.WithCancel(s.T.Context())
	req, _ := http.NewRequestWithContext(ctx, "GET", s.Srv.URL+"/en/tournaments/"+id+"/events", nil)
	res, err := s.Browser().Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		s.T.Fatalf("stream: %v %v", res, err)
	}
	stop := func() { cancel(); res.Body.Close() }
	s.T.Cleanup(stop)
	return Events(res.Body, Named("standings")), stop
}
