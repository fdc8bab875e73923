package search

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"oware/engine"
	"oware/engine/endgame"
)

// middlegames returns n positions of games between levels 4 and 5 from
// the start, after 16 to 40 plies (games with their history).
func middlegames(tb testing.TB, n int) []*engine.Game {
	s := NewSearcher(4, nil)
	var games []*engine.Game
	for seed := uint64(0); len(games) < n; seed++ {
		g := engine.NewGame(engine.Oware{}, engine.Oware{}.Start())
		stop := 16 + int(seed%25)
		for len(g.Moves) < stop && !g.Over {
			pit, err := s.Move(context.Background(), g, Level(4+len(g.Moves)%2), seed, false)
			if err != nil {
				tb.Fatal(err)
			}
			g.Play(pit)
		}
		if !g.Over {
			games = append(games, g)
		}
	}
	return games
}

// BenchmarkSearchDepth12 searches middlegame positions to depth 12 and
// reports nodes per second (one core).
func BenchmarkSearchDepth12(b *testing.B) {
	games := middlegames(b, 8)
	s := NewSearcher(64, nil)
	var nodes uint64
	for b.Loop() {
		for _, g := range games {
			s.NewGame()
			res, _ := s.Search(context.Background(), g, Options{Limits: Limits{Depth: 12}})
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkOneSecond searches middlegame positions for 1 s each and
// reports the mean depth reached, the nodes per second, and that the
// search kept to its time (the longest search, in ms).
func BenchmarkOneSecond(b *testing.B) {
	games := middlegames(b, 10)
	s := NewSearcher(64, nil)
	var depth, n int
	var nodes uint64
	var longest, total time.Duration
	for b.Loop() {
		for _, g := range games {
			s.NewGame()
			res, _ := s.Search(context.Background(), g, Options{Limits: Limits{MoveTime: time.Second}})
			depth, nodes, n = depth+res.Depth, nodes+res.Nodes, n+1
			longest, total = max(longest, res.Time), total+res.Time
		}
	}
	b.ReportMetric(float64(depth)/float64(n), "depth")
	b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/s")
	b.ReportMetric(float64(longest.Milliseconds()), "max-ms")
}

// BenchmarkLevel8Reply times level 8's replies (without the minimum
// thinking time) over the positions of games it plays against level 6,
// with the endgame tables of OWARE_TABLES (a folder) when set, and reports
// the median, the 99th percentile and the longest in milliseconds (level
// 8 without its opening book, whose replies take no time).
func BenchmarkLevel8Reply(b *testing.B) {
	var tables Tables
	if dir := os.Getenv("OWARE_TABLES"); dir != "" {
		ts, err := endgame.OpenDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		defer ts.Close()
		tables = ts
	}
	s8, s6 := NewSearcher(64, tables), NewSearcher(16, nil)
	s8.Book = nil // the search's time use: a book reply takes no time
	var times []time.Duration
	for b.Loop() {
		for seed := uint64(0); seed < 2; seed++ {
			g := engine.NewGame(engine.Oware{}, engine.Oware{}.Start())
			for !g.Over && len(g.Moves) < 300 {
				var pit int
				var err error
				if len(g.Moves)%2 == int(seed) {
					start := time.Now()
					pit, err = s8.Move(context.Background(), g, MaxLevel, seed, false)
					times = append(times, time.Since(start))
				} else {
					pit, err = s6.Move(context.Background(), g, 6, seed, false)
				}
				if err != nil {
					b.Fatal(err)
				}
				g.Play(pit)
			}
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Milliseconds()), "p99-ms")
	b.ReportMetric(float64(times[len(times)-1].Milliseconds()), "max-ms")
	b.ReportMetric(float64(len(times)), "replies")
}

// BenchmarkNamNamMoveTime times searches of a 20 ms MoveTime under Nam-nam
// where every position costs as much to check as the slowest one known
// (slowSearcher: about 0.15 s a position without the search's budget), and
// reports the mean and the longest in milliseconds: how far past its time
// a search can run.
func BenchmarkNamNamMoveTime(b *testing.B) {
	const moveTime = 20 * time.Millisecond
	r := engine.NamNam{}
	g := engine.NewGame(r, r.Start())
	s := slowSearcher(b)
	var longest, total time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		if _, err := s.Search(context.Background(), g, Options{Limits: Limits{MoveTime: moveTime}}); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		longest, total, n = max(longest, d), total+d, n+1
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "mean-ms")
	b.ReportMetric(float64(longest.Microseconds())/1000, "max-ms")
}
