package handlerstest

import (
	"bufio"
	"io"
	"strings"
)

// Events reads the server-sent events of body in a goroutine and sends
// each whole event (its lines, each with its "\n", then the "\n" of the
// empty line that ends it) that keep accepts; a line may be up to 4 MiB.
// The channel holds 16 events and is closed when body ends.
func Events(body io.Reader, keep func(event string) bool) <-chan string {
	got := make(chan string, 16)
	go func() {
		defer close(got)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<22), 1<<22)
		var e strings.Builder
		for sc.Scan() {
			e.WriteString(sc.Text() + "\n")
			if sc.Text() == "" {
				if keep(e.String()) {
					got <- e.String()
				}
				e.Reset()
			}
		}
	}()
	return got
}

// Named returns a keep function of Events for the events named name.
func Named(name string) func(string) bool {
	return func(e string) bool { return strings.Contains(e, "event: "+name) }
}
