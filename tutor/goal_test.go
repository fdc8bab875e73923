package tutor_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"oware/engine"
	"oware/tutor"
)

// echo is a Localizer that writes a message id with its data, so that a
// test can read what a line says without a catalog.
type echo struct{}

func (echo) T(id string, data ...any) string { return id + fmt.Sprint(data...) }
func (echo) N(id string, n int, data ...any) string {
	return id + fmt.Sprint(n) + fmt.Sprint(data...)
}

// position parses s under the rule set name.
func position(t *testing.T, name, s string) (engine.Rules, engine.Position) {
	t.Helper()
	r, err := tutor.ParseRules(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return r, p
}

// accepted runs tutor.Accepted on the goal written as src.
func accepted(t *testing.T, src, rules, pos string) (engine.Moves, error) {
	t.Helper()
	g, err := tutor.ParseGoal(src)
	if err != nil {
		t.Fatal(err)
	}
	r, p := position(t, rules, pos)
	return tutor.Accepted(t.Context(), g, r, p, 0)
}

// unmetKey returns the message id of an *tutor.Unmet error, "" for none.
func unmetKey(err error) string {
	var u *tutor.Unmet
	if errors.As(err, &u) {
		return u.Key
	}
	return ""
}

func TestParseGoal(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"capture", "capture 1"}, {"capture 3", "capture 3"}, {"feed", "feed"}, {"save  b", "save b"},
		{"best", "best"}, {"book", "book"}, {"play", "play"}, {"legal", "legal"},
		{"practice win level=3", "practice win level=3"}, {"practice level=2 capture 6", "practice capture 6 level=2"},
	} {
		g, err := tutor.ParseGoal(c.src)
		if err != nil || g.String() != c.want {
			t.Errorf("%q: %q (%v), want %q", c.src, g.String(), err, c.want)
		}
	}
	for _, bad := range []string{"", "capture 0", "capture 49", "capture x", "save", "save G", "best 2", "book F", "feed now",
		"practice win", "practice level=3", "practice win level=9", "practice capture level=2", "win"} {
		if _, err := tutor.ParseGoal(bad); !errors.Is(err, tutor.ErrBadGoal) {
			t.Errorf("%q: %v, want ErrBadGoal", bad, err)
		}
	}
}

// TestAcceptedByRules: the accepted moves of each goal, worked out by hand
// from RULES.md 2 on small boards.
func TestAcceptedByRules(t *testing.T) {
	// A 3, B 2, C 5, D 1, E 2, F 4 / a 4, b 4, c 2, d 1, e 3, f 1: only F's
	// last seed ends in North's row on a 1 or 2 (d: 1+1 = 2, then c: 3,
	// then b: 5 stops): 5 seeds (2.3). C ends in b (5), E in a (5).
	const chain = "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S"
	// North's row empty: A, B and C stay in South's row (illegal, 2.5).
	const starved = "2-1-3-4-2-1-0-0-0-0-0-0-17-18-S"
	// North's f (2 seeds) sows A and B: A leaves B with 2, f then makes it
	// 3 (captured); E and F leave A and B at 1 each, f makes them 2 and 2
	// (B and A captured, E or F keeps a seed: no grand slam); B empties B.
	const threat = "1-1-0-0-1-3-0-0-0-0-0-2-20-20-S"
	// The same without E: after F, f's capture of B and A would take all
	// of South's row, a grand slam, which captures nothing in Abapa (2.4).
	const slam = "1-1-0-0-0-3-0-0-0-0-0-2-20-21-S"
	for _, c := range []struct {
		goal, rules, pos string
		want             string // accepted labels, or the Unmet key
	}{
		{"capture", "abapa", chain, "F"},
		{"capture 5", "abapa", chain, "F"},
		{"capture 6", "abapa", chain, "goal_unmet_capture"},
		{"feed", "abapa", starved, "D E F"},
		{"feed", "abapa", chain, "goal_unmet_feed_row"},
		{"save B", "abapa", threat, "B"},
		{"save B", "abapa", slam, "B F"},
		// Wari: f's grand slam is illegal while North has a, b or c (3).
		{"save B", "wari", slam, "B F"},
		// Warri: the grand slam takes the whole row, B with it (3).
		{"save B", "warri", slam, "B"},
		{"save C", "abapa", threat, "goal_unmet_save_empty"},
		{"save f", "abapa", threat, "goal_unmet_save_theirs"},
		{"capture", "abapa", "0-0-0-0-0-0-4-4-4-4-4-4-12-12-S", "goal_unmet_no_moves"},
		{"legal", "abapa", starved, "D E F"},
		{"best", "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "goal_unmet_best_seeds"},
		{"best", "namnam", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0", "goal_unmet_best_namnam"},
		// E's seed goes to F (South's row); F's to a, 1 + 1 = 2: captured,
		// and the chain stops at F, South's own pit (2.3).
		{"capture", "abapa", "0-0-0-0-1-1-1-1-1-1-0-0-20-22-S", "F"},
		{"capture 3", "abapa", "0-0-0-0-1-1-1-1-1-1-0-0-20-22-S", "goal_unmet_capture"},
	} {
		got, err := accepted(t, c.goal, c.rules, c.pos)
		s := strings.Join(got.Labels(), " ")
		if err != nil {
			s = unmetKey(err)
		}
		if s != c.want {
			t.Errorf("%s %q on %s: %q (%v), want %q", c.rules, c.goal, c.pos, s, err, c.want)
		}
	}
}

// TestAcceptedBest: F wins at once (22 + a's 3 = 25, RULES.md 2.6), the
// game over at 25-6, a final difference of 19 that no other move comes
// within 4 seeds of; the start has more seeds than the deep search takes.
func TestAcceptedBest(t *testing.T) {
	const win = "2-1-0-1-0-1-2-4-1-5-1-2-22-6-S"
	got, err := accepted(t, "best", "abapa", win)
	if err != nil || got.Labels()[0] != "F" || got.Count() != 1 {
		t.Fatalf("best: %v (%v), want F", got.Labels(), err)
	}
	r, p := position(t, "abapa", win)
	vs, _ := tutor.DeepValues(t.Context(), r, p)
	if vs[0].Pit != 5 || vs[0].Value != 19 {
		t.Errorf("values %v, want F first at +19", vs)
	}
	for _, v := range vs[1:] {
		if v.Value > 19-4 {
			t.Errorf("%s at %d, within 4 seeds of F", engine.Label(v.Pit), v.Value)
		}
	}
}

// TestAcceptedBook: the moves the opening book plays, its values read by
// hand from engine/search/book/abapa.book (centi-seeds for the mover). At
// the start: A -213, B -175, C -207, D -184, E -226, F +36, so F alone.
// After 1. F, North's a -231, b -54, c -176, d -94, e -135, f -36: b is
// 18 below f, within search.BookMargin (30), d 58 below. After F e B a F d
// A f A every North move is within 30 (a -147, b -151, c -155, e -165).
func TestAcceptedBook(t *testing.T) {
	for _, c := range []struct{ rules, pos, want string }{
		{"abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "F"},
		{"abapa", "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N", "b f"},
		{"abapa", "0-4-9-8-7-2-3-7-6-0-2-0-0-0-N", "goal_unmet_all"},
		{"abapa", "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S", "goal_unmet_book_missing"},
		{"wari", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "goal_unmet_book_rules"},
		{"namnam", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0", "goal_unmet_book_rules"},
	} {
		got, err := accepted(t, "book", c.rules, c.pos)
		s := strings.Join(got.Labels(), " ")
		if err != nil {
			s = unmetKey(err)
		}
		if s != c.want {
			t.Errorf("%s book on %s: %q (%v), want %q", c.rules, c.pos, s, err, c.want)
		}
	}
	// A wrong answer names the book's values of the move and of its choice.
	r, p := position(t, "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
	v := tutor.CheckMove(echo{}, r, p, "book", 1<<5, "E")
	if v.Correct || len(v.Lines) != 1 || v.Lines[0] != "goal_why_bookLabelEValue−226BestFBestValue+36" {
		t.Errorf("E: %+v", v)
	}
	if v := tutor.CheckMove(echo{}, r, p, "book", 1<<5, "F"); !v.Correct {
		t.Errorf("F: %+v", v)
	}
}

// TestWrongAnswerReasons: a wrong answer says what the move misses and the
// reply it allows, from the position.
func TestWrongAnswerReasons(t *testing.T) {
	r, p := position(t, "abapa", "1-1-0-0-1-3-0-0-0-0-0-2-20-20-S")
	accept, err := tutor.Accepted(t.Context(), tutor.Goal{Kind: tutor.GoalSave, Pit: 1}, r, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	// E: North's f makes A and B 2 each and takes them (4 seeds, B first).
	v := tutor.CheckMove(echo{}, r, p, "save B", accept, "E")
	if v.Correct || len(v.Lines) != 1 || v.Lines[0] != "goal_why_save4LabelEReplyfPitBPitsB, A" {
		t.Errorf("E: %+v", v)
	}
	if v := tutor.CheckMove(echo{}, r, p, "save B", accept, "B"); !v.Correct {
		t.Errorf("B: %+v", v)
	}
	// capture 5 on the chain position: C's 5 seeds end in b, 4 + 1 = 5:
	// not 2 or 3, no capture.
	r, p = position(t, "abapa", "3-2-5-1-2-4-4-4-2-1-3-1-9-7-S")
	v = tutor.CheckMove(echo{}, r, p, "capture 5", 1<<5, "C")
	if v.Correct || len(v.Lines) == 0 || !strings.HasPrefix(v.Lines[0], "tut_hint_not_two_three5") {
		t.Errorf("C: %+v", v)
	}
	// best: the wrong move's value and the best's, by the search; and the
	// reply A allows: A's 2 seeds go to B and C (2 and 1), North's d (5)
	// sows e, f, A, B, C: C 2 and B 3 taken, A (1) stops the chain.
	r, p = position(t, "abapa", "2-1-0-1-0-1-2-4-1-5-1-2-22-6-S")
	v = tutor.CheckMove(echo{}, r, p, "best", 1<<5, "A")
	if v.Correct || len(v.Lines) != 2 || !strings.HasPrefix(v.Lines[0], "goal_why_bestLabelAValue+10BestFBestValue+19") ||
		v.Lines[1] != "goal_why_allows5LabelAReplydPitsC, B" {
		t.Errorf("A: %+v", v)
	}
}

// TestPracticeGoal: a practice fits a position the deep search does not
// find lost, and is judged at the game's end (or, for capture N, once N
// seeds are captured).
func TestPracticeGoal(t *testing.T) {
	// F's seed to a (4); North, South's row empty, cannot reach it with a
	// (4: b..e) or b (3: c..e): the game ends, North takes its 7, 20-28.
	const lost = "0-0-0-0-0-1-3-3-0-0-0-0-20-21-S"
	if _, err := accepted(t, "practice win level=3", "abapa", lost); unmetKey(err) != "goal_unmet_practice_lost" {
		t.Errorf("win from a lost position: %v", err)
	}
	if _, err := accepted(t, "practice capture 8 level=3", "abapa", lost); unmetKey(err) != "goal_unmet_practice_seeds" {
		t.Errorf("capture 8 of 7 seeds: %v", err)
	}
	if m, err := accepted(t, "practice capture 3 level=3", "abapa", lost); err != nil || m.Labels()[0] != "F" {
		t.Errorf("capture 3: %v (%v), want F legal", m.Labels(), err)
	}
	_, start := position(t, "abapa", "1-1-0-0-1-3-0-0-0-0-0-2-20-20-S")
	now := start
	now.Captured[engine.South] = 23
	g, _ := tutor.ParseGoal("practice capture 3 level=2")
	if met, decided := g.Met(start, now, false, 0); !met || !decided {
		t.Errorf("capture 3 of 3: met %v decided %v", met, decided)
	}
	now.Captured[engine.South] = 22
	if met, decided := g.Met(start, now, false, 0); met || decided {
		t.Errorf("capture 2 of 3, game on: met %v decided %v", met, decided)
	}
	draw, _ := tutor.ParseGoal("practice draw level=5")
	for _, c := range []struct {
		res       engine.Result
		win, draw bool
	}{{engine.Winner(engine.South), true, true}, {engine.Draw, false, true}, {engine.Winner(engine.North), false, false}} {
		win, _ := tutor.ParseGoal("practice win level=5")
		if met, _ := win.Met(start, now, true, c.res); met != c.win {
			t.Errorf("win, result %v: %v", c.res, met)
		}
		if met, _ := draw.Met(start, now, true, c.res); met != c.draw {
			t.Errorf("draw, result %v: %v", c.res, met)
		}
	}
}

// TestJudgePractice: the verdict's lines of a practice game.
func TestJudgePractice(t *testing.T) {
	_, start := position(t, "abapa", "1-1-0-0-1-3-0-0-0-0-0-2-20-20-S")
	end := start
	end.Captured = [2]uint8{26, 22}
	g, _ := tutor.ParseGoal("practice win level=3")
	if p := tutor.PracticePrompt(echo{}, engine.Oware{}, g); p != "course_practice_win[Level 3]" && p != "course_practice_winLevel3" {
		t.Errorf("prompt %q", p)
	}
	met, decided, lines := tutor.JudgePractice(echo{}, engine.Oware{}, g, start, end, true, engine.Winner(engine.South))
	if !met || !decided || len(lines) != 2 || lines[0] != "course_practice_met" || lines[1] != "tut_ok_over_southSouth26North22" {
		t.Errorf("won: %v %v %q", met, decided, lines)
	}
	if met, decided, lines := tutor.JudgePractice(echo{}, engine.Oware{}, g, start, start, false, 0); met || decided || lines[0] != "course_practice_playing" {
		t.Errorf("playing: %v %v %q", met, decided, lines)
	}
}

// TestJudgeNamNamPractice: a Nam-nam practice is a match to win or draw,
// its verdict given in totals (captures and stores, RULES.md 4.6); a
// "capture N" practice does not fit Nam-nam.
func TestJudgeNamNamPractice(t *testing.T) {
	const pos = "0-0-0-0-0-1-3-0-0-0-0-0-22-18-S-SSSSSSNNNNNN-2-2"
	r, start := position(t, "namnam", pos)
	if _, err := accepted(t, "practice capture 4 level=1", "namnam", pos); unmetKey(err) != "goal_unmet_practice_match" {
		t.Errorf("capture 4 in Nam-nam: %v", err)
	}
	if m, err := accepted(t, "practice win level=1", "namnam", pos); err != nil || m.Labels()[0] != "F" || len(m.Labels()) != 1 {
		t.Errorf("win: %v (%v), want F", m.Labels(), err)
	}
	g, _ := tutor.ParseGoal("practice win level=1")
	if p := tutor.PracticePrompt(echo{}, r, g); p != "course_practice_win_matchLevel1" {
		t.Errorf("prompt %q", p)
	}
	// A settled end: South 30 captured and 2 in store, North 14 and 2.
	end := start
	end.Pits, end.Captured, end.Store = [engine.NumPits]uint8{}, [2]uint8{30, 14}, [2]uint8{2, 2}
	met, decided, lines := tutor.JudgePractice(echo{}, r, g, start, end, true, engine.Winner(engine.South))
	if !met || !decided || len(lines) != 2 || lines[1] != "course_practice_match_southSouth32North16" {
		t.Errorf("won: %v %v %q", met, decided, lines)
	}
	if met, decided, _ := tutor.JudgePractice(echo{}, r, g, start, end, true, engine.Winner(engine.North)); met || !decided {
		t.Errorf("lost: met %v decided %v", met, decided)
	}
	if met, decided, _ := tutor.JudgePractice(echo{}, r, g, start, start, false, 0); met || decided {
		t.Errorf("on: met %v decided %v", met, decided)
	}
}
