package picture

import (
	"bytes"
	"context"
	"testing"

	"oware/engine"
)

// BenchmarkPreview draws and encodes a 1200×630 preview of a middle game
// position; it reports the PNG's bytes.
func BenchmarkPreview(b *testing.B) {
	g, err := engine.ReplayGame(engine.Oware{}, engine.Oware{}.Start(), game(b, 30))
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Last: g.Moves[len(g.Moves)-1], Names: [2]string{"alice", "bob"}, Notes: [2]string{"to move", ""}}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := PNG(&buf, g.Position, o, Width); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// BenchmarkGIF100 makes the GIF of a 100-ply game; it reports its bytes.
func BenchmarkGIF100(b *testing.B) {
	frames, err := Frames(engine.Oware{}, engine.Oware{}.Start(), game(b, 100), nil)
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Names: [2]string{"alice", "bob"}}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := GIF(context.Background(), &buf, frames, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}
