package engine

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// benchmarkPerft reports leaf positions per second for perft(depth) from the start.
func benchmarkPerft(b *testing.B, r Oware, depth int, bulk bool) {
	b.ReportAllocs()
	var leaves uint64
	for b.Loop() {
		leaves += r.perft(r.Start(), depth, bulk)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkPerft9 plays every leaf move (sowing, capture and end checks).
func BenchmarkPerft9(b *testing.B)      { benchmarkPerft(b, Oware{GrandSlam: Abapa}, 9, false) }
func BenchmarkPerft9Wari(b *testing.B)  { benchmarkPerft(b, Oware{GrandSlam: Wari}, 9, false) }
func BenchmarkPerft9Warri(b *testing.B) { benchmarkPerft(b, Oware{GrandSlam: Warri}, 9, false) }

// BenchmarkPerft9Bulk counts the last ply from the legal moves, as Perft does.
func BenchmarkPerft9Bulk(b *testing.B) { benchmarkPerft(b, Oware{GrandSlam: Abapa}, 9, true) }

// BenchmarkLegalMoves measures legal-move generation on a middle-game position.
func BenchmarkLegalMoves(b *testing.B) {
	r := Oware{}
	p, err := r.ParsePosition("5-0-7-2-1-6-3-0-9-4-1-2-4-4-S")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n Moves
	for b.Loop() {
		n |= r.LegalMoves(p)
	}
	_ = n
}

// BenchmarkPlay measures Rules.Play, the full move with its record.
func BenchmarkPlay(b *testing.B) {
	r := Oware{}
	p := r.Start()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.Play(p, 2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNamNamPlayStart measures Play of a relay move from the start
// (with the legality check and the round-end checks).
func BenchmarkNamNamPlayStart(b *testing.B) {
	r := NamNam{}
	p := r.Start()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.Play(p, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// longEndless holds the longest endless sowing found in random matches:
// pit e's relay cycles only after about 1.5 million laps of Brent's search.
const longEndless = "3-7-1-10-1-0-7-1-5-1-3-1-8-0-N-SSSSSSNNNNNS-0-0"

// BenchmarkNamNamEndless measures the refusal of that sowing (fours=last,
// the packed relay).
func BenchmarkNamNamEndless(b *testing.B) {
	r := NamNam{}
	p, err := r.ParsePosition(longEndless)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.Play(p, 10); err == nil {
			b.Fatal("the endless sowing was played")
		}
	}
}

// worstNamNam is the slowest position known for the legal moves: pit c's
// relay cycles with a period of about 4.6 million laps and Brent's search
// takes about 13 million.
const worstNamNam = "0-5-1-0-9-1-5-1-3-6-5-12-0-0-N-SSSSNNNNNNNN-0-0"

// BenchmarkNamNamWorstLegalMoves lists the legal moves of worstNamNam
// without a cache, and with a cache that already holds it (the cost of
// every later request for the same position).
func BenchmarkNamNamWorstLegalMoves(b *testing.B) {
	p, err := NamNam{}.ParsePosition(worstNamNam)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("uncached", func(b *testing.B) {
		for b.Loop() {
			NamNam{}.LegalMoves(p)
		}
	})
	b.Run("cached", func(b *testing.B) {
		r := NamNam{Cache: NewLegalCache(1 << 16)}
		r.LegalMoves(p)
		b.ReportAllocs()
		for b.Loop() {
			r.LegalMoves(p)
		}
	})
	b.Run("budget", func(b *testing.B) {
		for b.Loop() {
			r := NamNam{Budget: NewBudget(VisitorLaps)}
			if _, _, err := r.Play(p, 8); !errors.Is(err, ErrTooMuchWork) {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadRecord reads (and replays) the 679-ply Abapa record of
// testdata, and the same record written 30 times over as moves after the
// end (about 250 KB, 20,000 moves): the cost of the text alone.
func BenchmarkReadRecord(b *testing.B) {
	text, err := os.ReadFile("testdata/auale-679.ogn")
	if err != nil {
		b.Fatal(err)
	}
	moves := string(text[bytes.Index(text, []byte("\n\n"))+2 : bytes.LastIndex(text, []byte("26-17"))])
	long := string(text[:bytes.Index(text, []byte("\n\n"))+2]) + strings.Repeat(moves, 30)
	for name, record := range map[string]string{"679": string(text), "20k": long} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(record)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseRecord(record); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
