package main

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestParserInPieces: the events of a stream, however its bytes are cut
// into reads (here every cut of one read in two, and a byte a read), give
// the same ids, sizes and count of events "move": "id: 3" (27 bytes:
// 6, 12, 8 and the blank line's 1), "id: 4" (a move, 42 bytes: 6, 12, 23
// and 1, its data line longer than the 16 bytes a line's start is kept
// of), and a ping, which has no id.
func TestParserInPieces(t *testing.T) {
	stream := "retry: 2000\n\n" +
		"id: 3\nevent: game\ndata: a\n\n" +
		": ping\n\n" +
		"id: 4\nevent: move\ndata: 0123456789abcdef\n\n"
	check := func(what string, reads []string) {
		t.Helper()
		w := newWatchers(2, 4)
		p := &parser{rd: w.newReader()}
		for _, r := range reads {
			p.feed(w, []byte(r))
		}
		if sizes := p.rd.sizes; !slices.Equal(sizes, []int{27, 42}) || w.deltas.Load() != 1 {
			t.Errorf("%s: sizes %v, %d moves; want [27 42], 1", what, sizes, w.deltas.Load())
		}
		if got3, got4 := w.arrived[1].n.Load(), w.arrived[2].n.Load(); got3 != 1 || got4 != 1 {
			t.Errorf("%s: versions 3 and 4 noted %d and %d times, want once each", what, got3, got4)
		}
		if _, last, got := w.wait(4, 1, time.Second); got != 1 || last.IsZero() {
			t.Errorf("%s: version 4 not noted", what)
		}
	}
	for i := range len(stream) + 1 {
		check("cut at "+strconv.Itoa(i), []string{stream[:i], stream[i:]})
	}
	var pieces []string
	for i := range len(stream) {
		pieces = append(pieces, stream[i:i+1])
	}
	check("a byte a read", pieces)
}
