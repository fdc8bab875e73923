package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oware/engine"
	"oware/engine/search"
)

// TestSPRTBounds: with α = β = 0.05 the bounds are ln(0.05/0.95) and
// ln(0.95/0.05) = ∓2.9444.
func TestSPRTBounds(t *testing.T) {
	s, err := parseSPRT("0,10", 0.05, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	lower, upper := s.bounds()
	if math.Abs(lower+2.944439) > 1e-6 || math.Abs(upper-2.944439) > 1e-6 {
		t.Errorf("bounds %v %v, want ∓2.944439", lower, upper)
	}
	for _, bad := range []string{"10,0", "5,5", "x,1", "1", "0,2000"} {
		if _, err := parseSPRT(bad, 0.05, 0.05); err == nil {
			t.Errorf("--sprt %q accepted", bad)
		}
	}
	if _, err := parseSPRT("0,5", 0.5, 0.05); err == nil {
		t.Error("--alpha 0.5 accepted")
	}
}

// TestSPRTLLR checks the LLR against values worked out by hand, and one
// worked out by an independent program.
func TestSPRTLLR(t *testing.T) {
	// Symmetric pairs and hypotheses symmetric about 0: by symmetry the
	// two nearest distributions are mirror images and the LLR is 0.
	s := sprt{Elo0: -10, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if got := s.llr([5]int{1, 2, 4, 2, 1}); math.Abs(got) > 1e-9 {
		t.Errorf("symmetric: LLR %v, want 0", got)
	}
	// Pairs 1, 2, 3, 3, 1 (N = 10) with pair scores 0, 1/4, 1/2, 3/4, 1:
	// mean 5.25/10 = 0.525; variance (0.525² + 2·0.275² + 3·0.025² +
	// 3·0.225² + 0.475²)/10 = 0.080625. For elo0 0, elo1 10: s0 = 0.5,
	// s1 = 1/(1+10^-0.025) = 0.5143871, and the normal approximation of
	// the GSPRT, N (s1 - s0)(2m - s0 - s1) / 2v, gives 10 · 0.0143871 ·
	// 0.0356129 / 0.16125 = 0.0317753. The exact GSPRT is close to it:
	// 0.0313400 (fishtest's algorithm written again in Python).
	s = sprt{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if got := s.llr([5]int{1, 2, 3, 3, 1}); math.Abs(got-0.0313400) > 1e-6 {
		t.Errorf("LLR %v, want 0.0313400 (normal approximation 0.0317753)", got)
	}
	// The same distribution ten times as often: ten times the LLR.
	if got := s.llr([5]int{10, 20, 30, 30, 10}); math.Abs(got-0.313400) > 1e-5 {
		t.Errorf("LLR %v, want 0.313400", got)
	}
	// One pair won twice is no proof: far from the bound 2.94.
	if got := (sprt{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}).llr([5]int{0, 0, 0, 0, 1}); got > 0.1 || got < 0 {
		t.Errorf("one pair won: LLR %v, want a little above 0", got)
	}
	// Three pairs lost twice against 0 vs 400 Elo: below the lower bound.
	s = sprt{Elo0: 0, Elo1: 400, Alpha: 0.05, Beta: 0.05}
	if got := s.llr([5]int{3, 0, 0, 0, 0}); s.decision(got) != "H0" {
		t.Errorf("three pairs lost: LLR %v, want below -2.94", got)
	}
	if got := s.llr([5]int{}); got != 0 || s.decision(got) != "" {
		t.Errorf("no pairs: LLR %v, want 0", got)
	}
	if s.decision(-3) != "H0" {
		t.Error("LLR -3 does not accept H0 with bounds ∓2.94")
	}
	for _, c := range []struct {
		a, b float64
		want int
	}{{0, 0, 0}, {0.5, 0, 1}, {1, 0, 2}, {0.5, 0.5, 2}, {1, 0.5, 3}, {1, 1, 4}} {
		if got := pentanomialIndex(c.a, c.b); got != c.want {
			t.Errorf("pair %v %v: index %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestMatchSPRTStops: an engine that always loses on an illegal move loses
// every pair 0-2; with elo0 0 and elo1 400 the LLR passes the lower bound
// before the 100 games asked, and the match says H0 for the first engine.
func TestMatchSPRTStops(t *testing.T) {
	code, out, errOut := runCmd("match", "--engine", engineCommand(t, "illegal"), "--engine", engineCommand(t, "uci", "--level", "1"),
		"--games", "100", "--movetime", "20", "--sprt", "0,400", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum matchSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err, out)
	}
	if sum.SPRT == nil || *sum.SPRT != "H0" || sum.Games >= 100 || sum.Games%2 != 0 || sum.Losses != sum.Games {
		t.Fatalf("%s\n%s", out, errOut)
	}
	if sum.Pentanomial[0] != sum.Games/2 || *sum.LLR > *sum.LLRLow {
		t.Errorf("pentanomial %v, LLR %v (low %v)", *sum.Pentanomial, *sum.LLR, *sum.LLRLow)
	}
	if n := strings.Count(errOut, "sprt: LLR "); n != sum.Games/2 {
		t.Errorf("%d LLR lines for %d pairs", n, sum.Games/2)
	}
}

// TestMatchOpeningsFile: the openings of a file are played in turn, a pair
// each, at a fixed node count, which gives the same games every time; a
// bad file is refused.
func TestMatchOpeningsFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("# two openings\nC d B a\n\nF f  # a comment\n"), 0o600)
	var runs [2]string
	for i := range runs {
		code, _, errOut := runCmd("match", "--engine", engineCommand(t, "uci", "--level", "8"), "--engine", engineCommand(t, "uci", "--level", "7"),
			"--games", "4", "--nodes", "3000", "--openings", good, "--max-plies", "16")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		runs[i] = errOut
	}
	if n := strings.Count(runs[0], "game "); n != 4 || runs[0] != runs[1] {
		t.Errorf("two runs at fixed nodes differ, or not 4 games:\n%s\n%s", runs[0], runs[1])
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("C d\nC C\n"), 0o600)
	if code, _, errOut := runCmd("match", "--engine", "x", "--engine", "y", "--nodes", "10", "--openings", bad); code != 2 || !strings.Contains(errOut, "bad.txt:2") {
		t.Errorf("bad openings file: exit %d, %s", code, errOut)
	}
}

// TestOpeningsFileInRepository: the openings kept for matches are legal
// and distinct.
func TestOpeningsFileInRepository(t *testing.T) {
	r, _ := engine.RulesByName("abapa")
	book, err := readOpenings(r, "openings.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(book) < 400 {
		t.Errorf("%d openings, want at least 400", len(book))
	}
	seen := map[string]bool{}
	for _, o := range book {
		key := labels(o)
		if seen[key] {
			t.Errorf("opening %s twice", key)
		}
		seen[key] = true
	}
}

// TestTuneAndBookCommands: a small fit prints the loss of the default and
// of the fitted weights, no larger, in the form uci --weights reads; a
// small book is written and its size printed.
func TestTuneAndBookCommands(t *testing.T) {
	code, out, errOut := runCmd("tune", "--games", "1", "--depth", "2", "--table-seeds", "4", "--table-samples", "50")
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var before, after float64
	var w0, w1 string
	if len(lines) != 3 {
		t.Fatalf("tune printed %q", out)
	}
	fmt.Sscanf(lines[1], "loss %f with %s", &before, &w0)
	fmt.Sscanf(lines[2], "loss %f with %s", &after, &w1)
	if _, err := search.ParseWeights(w1); err != nil || after > before || w0 != search.DefaultWeights().String() {
		t.Errorf("tune printed %q (%v)", out, err)
	}
	file := filepath.Join(t.TempDir(), "b.book")
	code, out, errOut = runCmd("book", "--out", file, "--positions", "3", "--depth", "2")
	if code != 0 || !strings.Contains(out, "3 positions, 92 bytes") {
		t.Fatalf("book: exit %d: %s %s", code, out, errOut)
	}
	data, _ := os.ReadFile(file)
	if b, err := search.ParseBook(data); err != nil || b.Len() != 3 {
		t.Errorf("the book file: %v", err)
	}
}
