package engine

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// mustRead reads a record or fails the test.
func mustRead(t *testing.T, text string) *Record {
	t.Helper()
	rec, err := ParseRecord(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return rec
}

// final returns the position string where the record's game ends.
func final(rec *Record) string { return rec.Rules.FormatPosition(rec.Game().Position) }

func TestReadAualeRecord679(t *testing.T) {
	// testdata/auale-679.ogn is a whole Abapa game of 679 plies laid out as
	// Aualé's writer lays out its records (the roster of tags, "1." before
	// every other move, capture marks, comments as "{ words }", lines
	// under 80 characters, the final score), made by a separate program with
	// its own implementation of the rules. South wins at ply 679 with F,
	// which captures 3: 26 to 17, the seeds left on the board staying there.
	b, err := os.ReadFile("testdata/auale-679.ogn")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	rec := mustRead(t, text)
	g := rec.Game()
	if len(rec.Moves) != 679 || !g.Over || g.Reason != ReasonMajority || g.Result != SouthWins || rec.Ignored != 0 {
		t.Fatalf("%d moves, over %v (%s, %s), %d ignored", len(rec.Moves), g.Over, g.Reason, g.Result, rec.Ignored)
	}
	const want = "0-0-0-0-2-0-0-0-0-1-2-0-26-17-N"
	if got := final(rec); got != want {
		t.Errorf("ends at %s, want %s", got, want)
	}
	// The plain implementation of reference_test.go agrees, move by move.
	ref := refStart()
	for _, pit := range rec.Moves {
		ref, _ = refPlay(ref, pit, Abapa)
	}
	if ref.cap != [2]int{26, 17} || ref.pits[4] != 2 || ref.pits[9] != 1 || ref.pits[10] != 2 {
		t.Errorf("the reference replay ends at %+v", ref)
	}
	wantNotes := []Note{{Ply: 1, Text: "a quiet opening"}, {Ply: 100, Text: "South keeps every seed at home"}}
	if !slices.Equal(rec.Notes, wantNotes) || rec.Tag("Round") != "3" || rec.Tag("south") != "Ama" {
		t.Errorf("notes %+v, tags %v", rec.Notes, rec.Tags)
	}
	if got := rec.Format(); got != text {
		t.Errorf("written again differs:\n%s", firstDiff(got, text))
	}
}

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return "got  …" + a[max(0, i-40):min(len(a), i+40)] + "\nwant …" + b[max(0, i-40):min(len(b), i+40)]
}

func TestReadAualeGrammar(t *testing.T) {
	// From the start, C d B a (derived by hand): C sows D E F a; d sows e f
	// A B; B sows C D E F a; a (6 seeds) sows b c d e f A. No capture.
	const afterCdBa = "6-0-1-6-6-6-0-5-5-1-6-6-0-0-S"
	cases := map[string]struct{ text, want string }{
		"tags on one line, comments and a variation before and between moves": {
			"[Variant \"Oware Abapa\"] [Event \"Test\"]\n[South \"A\"][North \"B\"]\n" +
				"{ A comment before\n  the first move }\n1. C d 2.B (2. F {a ( in a comment} f (2... e)) a *\n",
			afterCdBa,
		},
		"no move numbers, wrapped lines, annotations": {
			"[Variant \"OWARE\"]\n\nC! d?\n B $1 a!?\n",
			afterCdBa,
		},
		"numbers alone and with three dots, CRLF": {
			"[Variant \"abapa\"]\r\n\r\n1. C 1... d 2. B 2... a\r\n",
			afterCdBa,
		},
		"no Variant tag is Abapa; a ; comment": {
			"1. C d ; the rest of the line: 2. X\n2. B a\n",
			afterCdBa,
		},
		"FEN with North to move, numbered as Aualé numbers it": {
			// After C d B, North plays a.
			"[Variant \"Oware Abapa\"]\n[FEN \"5-0-1-6-6-6-6-4-4-0-5-5-0-0-N\"]\n\n1. a *\n",
			afterCdBa,
		},
		"a capture mark and the final score": {
			// F sows its seed into a (1 -> 2) and captures 2: 25, South wins;
			// b keeps its seed (no grand slam).
			"[FEN \"1-0-0-0-0-1-1-1-0-0-0-0-23-21-S\"]\n1. F+2 25-21\n",
			"1-0-0-0-0-0-0-1-0-0-0-0-25-21-N",
		},
		"Aualé's mark counts the seeds the mover takes at the end": {
			// TestRepetition's game: e brings the start back, each player
			// takes the seed on their row; Aualé writes e+1.
			"[FEN \"0-0-0-0-0-1-0-0-0-0-0-1-23-23-S\"]\n1. F f 2. A a 3. B b 4. C c 5. D d 6. E e+1 24-24\n",
			"0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
		},
		"PGN results": {"1. C d 2. B a 1/2-1/2\n", afterCdBa},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rec := mustRead(t, c.text)
			if got := final(rec); got != c.want {
				t.Errorf("ends at %s, want %s", got, c.want)
			}
		})
	}
	rec := mustRead(t, cases["tags on one line, comments and a variation before and between moves"].text)
	want := []Note{{0, "A comment before the first move", false}, {3, "2. F {a ( in a comment} f (2... e)", true}}
	if !slices.Equal(rec.Notes, want) || rec.Tag("North") != "B" {
		t.Errorf("notes %+v, tags %v", rec.Notes, rec.Tags)
	}
}

func TestReadMovesAfterTheEnd(t *testing.T) {
	// F wins at once (see above); b and A follow in the record: they are
	// read, not played, and counted.
	rec := mustRead(t, "[FEN \"1-0-0-0-0-1-1-1-0-0-0-0-23-21-S\"]\n1. F+2 b 2. A+9 25-21\n")
	if len(rec.Moves) != 1 || rec.Ignored != 2 || final(rec) != "1-0-0-0-0-0-0-1-0-0-0-0-25-21-N" {
		t.Errorf("moves %v, %d ignored, ends at %s", rec.Moves, rec.Ignored, final(rec))
	}
	// A game over at its start: every move is after the end.
	rec = mustRead(t, "[FEN \"0-0-0-0-0-0-5-5-0-0-0-0-26-12-N\"]\n1... a\n")
	if len(rec.Moves) != 0 || rec.Ignored != 1 || !rec.Game().Over {
		t.Errorf("moves %v, %d ignored", rec.Moves, rec.Ignored)
	}
}

func TestVariantNames(t *testing.T) {
	for name, want := range map[string]Rules{
		"Oware Abapa": Oware{}, "abapa": Oware{}, "OWARE": Oware{}, "Awalé": Oware{}, "Awale": Oware{},
		"Oware Awari": Oware{}, "awari": Oware{}, "": Oware{},
		"Wari": Oware{GrandSlam: Wari}, "oware wari": Oware{GrandSlam: Wari},
		"Wari (grand slam as last resort)": Oware{GrandSlam: Wari},
		"Warri":                            Oware{GrandSlam: Warri}, "Oware-Warri": Oware{GrandSlam: Warri},
		"Warri (grand slam with extra turn)": Oware{GrandSlam: Warri},
		"namnam":                             NamNam{}, "Nam-nam": NamNam{}, "nam nam": NamNam{}, "Ba-awa": NamNam{},
		"namnam fours=owner": NamNam{Fours: FoursOwner}, "Nam-nam (fours: owner)": NamNam{Fours: FoursOwner},
		"Nam-nam (fours: last)": NamNam{},
	} {
		got, err := rulesFromVariant(name)
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", name, got, err, want)
		}
	}
	// What the writer writes reads back, and names no other rule set.
	for _, r := range []Rules{Oware{}, Oware{GrandSlam: Wari}, Oware{GrandSlam: Warri}, NamNam{}, NamNam{Fours: FoursOwner}} {
		v := VariantTag(r)
		if got, err := rulesFromVariant(v); err != nil || got != r {
			t.Errorf("%q reads as %v %v", v, got, err)
		}
		if r != (Oware{}) && strings.Contains(strings.ToLower(v), "abapa") || strings.Contains(strings.ToLower(v), "oware") && r != (Oware{}) {
			t.Errorf("%q could be taken for Abapa", v)
		}
	}
}

func TestRecordErrorsNameTheLineAndMove(t *testing.T) {
	cases := []struct {
		text       string
		line, move int
		cause      error
	}{
		{"[Variant \"abapa\"]\n[Event unquoted]\n1. C\n", 2, 0, ErrRecordSyntax},
		{"[Variant \"chess\"]\n1. C\n", 1, 0, ErrBadRules},
		{"[Event \"x\"]\n[Variant \"Oware Chess\"]\n", 2, 0, ErrBadRules},
		{"[Variant \"abapa\"]\n[FEN \"4-4-4\"]\n1. C\n", 2, 0, ErrBadPosition},
		{"[Variant \"abapa\"]\n\n1. C d\n2. C\n", 4, 3, ErrEmptyPit},
		{"[Variant \"abapa\"]\n1. C d\n2. Q\n", 3, 3, ErrBadLabel},
		{"[Variant \"abapa\"]\n1. C d\n2. B a 3. x\n", 3, 5, ErrBadLabel},
		{"[Variant \"abapa\"\n1. C\n", 1, 0, ErrRecordSyntax},
		{"[Variant \"abapa]\n1. C\n", 1, 0, ErrRecordSyntax},
		{"[Variant \"abapa\"]\n1. C d {never closed\n2. B\n", 2, 3, ErrRecordSyntax},
		{"1. C d (2. B a\n2. B\n", 1, 3, ErrRecordSyntax},
		{"1. C d }\n", 1, 3, ErrRecordSyntax},
		{"[Variant \"namnam fours=\"]\n1. A\n", 1, 0, ErrBadRules},
		{"[Variant \"abapa\"]\r1. C d\r2. C\r", 3, 3, ErrEmptyPit}, // old Mac line ends
		{"1. C d *\n2. B\n", 2, 3, ErrRecordSyntax},                // text after the result
		{"1. C d 2. B a\n[Event \"late\"]\n", 2, 5, ErrRecordSyntax},
		{"[FEN \"1-0-0-0-0-1-1-1-0-0-0-0-23-21-S\"]\n1. F+3\n", 2, 1, ErrCaptureMark},
		{"1. C+2 d\n", 1, 1, ErrCaptureMark},
		{"1. C+x d\n", 1, 1, ErrBadLabel},
	}
	for _, c := range cases {
		_, err := ParseRecord(c.text)
		var re *RecordError
		if !errors.As(err, &re) || !errors.Is(err, ErrBadRecord) || !errors.Is(err, c.cause) || re.Line != c.line || re.Move != c.move {
			t.Errorf("%q: %v, want line %d, move %d, %v", c.text, err, c.line, c.move, c.cause)
		}
	}
	_, err := ParseRecord("[Variant \"abapa\"]\n1. C d\n2. C\n")
	var re *RecordError
	if !errors.As(err, &re) || re.Word != "C" || re.Number != (MoveNumber{1, 2, true}) ||
		!strings.Contains(err.Error(), "line 3, move 2. C: that pit is empty") {
		t.Errorf("err = %v (%+v)", err, re)
	}
	_, err = ParseRecord("[FEN \"1-0-0-0-0-1-1-1-0-0-0-0-23-21-S\"]\n1. F+3\n")
	var ce *CaptureMarkError
	if !errors.As(err, &ce) || *ce != (CaptureMarkError{Mark: 3, Captured: 2}) {
		t.Errorf("capture mark error %v", err)
	}
	if _, err := ParseRecord(strings.Repeat(" ", MaxRecordBytes+1)); !errors.Is(err, ErrRecordTooLarge) {
		t.Errorf("a record over the size bound: %v", err)
	}
	over := "[FEN \"0-0-0-0-0-0-5-5-0-0-0-0-26-12-N\"]\n"
	if _, err := ParseRecord(over + strings.Repeat("a ", MaxRecordMoves+1)); !errors.Is(err, ErrRecordTooLarge) {
		t.Errorf("a record over the move bound: %v", err)
	}
}

func TestFormatRecord(t *testing.T) {
	// The 24-24 cannot-feed game from a FEN: one move, f.
	r := Oware{}
	g, _ := ReplayGame(r, mustParse(t, r, "0-1-1-0-0-0-0-0-0-0-0-1-21-24-N"), []int{11})
	text := FormatRecord(g, []Tag{{"Event", "Club night"}, {"South", `ama "the \ quick"`}, {"North", "kofi"}, {"Opening", "f"}, {"Result", "1-0"}})
	want := `[Variant "Oware Abapa"]
[Event "Club night"]
[Site "?"]
[Date "?"]
[Round "?"]
[South "ama \"the \\ quick\""]
[North "kofi"]
[Result "24-24"]
[FEN "0-1-1-0-0-0-0-0-0-0-0-1-21-24-N"]
[Termination "cannot-feed; draw"]
[Opening "f"]

1. f 24-24
`
	if text != want {
		t.Errorf("record:\n%s\nwant:\n%s", text, want)
	}
	rec := mustRead(t, text)
	if !slices.Equal(rec.Moves, []int{11}) || rec.Tag("South") != `ama "the \ quick"` || rec.Game().Result != Draw {
		t.Errorf("read back %+v", rec)
	}
	// An unfinished game: Result *, no final score, no Termination.
	g, _ = ReplayGame(r, r.Start(), []int{2, 9})
	if text := FormatRecord(g, nil); !strings.HasSuffix(text, "[Result \"*\"]\n\n1. C d\n") || strings.Contains(text, "Termination") {
		t.Errorf("unfinished:\n%s", text)
	}
}

func TestResultNamesTheWinner(t *testing.T) {
	// After C d, South resigns with nothing captured: North is credited
	// with the other 48 seeds. A player with 24 captured who resigns leaves
	// 25 to the winner. An Oware agreement settles the rows: after C d
	// South's row holds 5+5+0+5+5+5 = 25, North's 23.
	r := Oware{}
	g, _ := ReplayGame(r, r.Start(), []int{2, 9})
	_ = g.Resign(South)
	if got := resultTag(g); got != "0-48" {
		t.Errorf("resignation: %s", got)
	}
	g = NewGame(r, mustParse(t, r, "0-0-0-0-0-0-0-0-0-0-12-12-24-0-N"))
	_ = g.Resign(South)
	if got := resultTag(g); got != "24-25" {
		t.Errorf("resignation with 24: %s", got)
	}
	g, _ = ReplayGame(r, r.Start(), []int{2, 9})
	_, _ = g.Agree()
	if got := resultTag(g); got != "25-23" {
		t.Errorf("agreement: %s", got)
	}
}

func TestRoundTrips(t *testing.T) {
	// Every kind of record the site writes reads back to the same game and
	// is written again byte for byte the same.
	warri := Oware{GrandSlam: Warri}
	games := map[string]func() *Game{
		"resigned": func() *Game {
			g, _ := ReplayGame(Oware{}, Oware{}.Start(), []int{2, 9, 1})
			_ = g.Resign(North)
			return g
		},
		"agreed": func() *Game {
			g, _ := ReplayGame(Oware{}, Oware{}.Start(), []int{2, 9})
			_, _ = g.Agree()
			return g
		},
		"warri extra turn": func() *Game {
			g, _ := ReplayGame(warri, mustParse(t, warri, "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S"), []int{5, 4, 6})
			return g
		},
		"wari forced grand slam": func() *Game {
			wari := Oware{GrandSlam: Wari}
			g, _ := ReplayGame(wari, mustParse(t, wari, "8-0-0-0-0-3-1-2-1-0-0-0-10-23-S"), []int{5})
			return g
		},
		"repetition": func() *Game {
			moves, _ := ParseMoves("F f A a B b C c D d E e")
			g, _ := ReplayGame(Oware{}, mustParse(t, Oware{}, "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S"), moves)
			return g
		},
		"namnam match repetition": func() *Game {
			g, _ := ReplayMatch(NamNam{}, NamNam{}.Start(), []int{6, 7}, []int{0, 1, 2}, nil)
			return g
		},
		"namnam fours=owner resigned": func() *Game {
			r := NamNam{Fours: FoursOwner}
			g, _ := ReplayMatch(r, r.Start(), []int{6}, []int{0}, nil)
			_ = g.Resign(South)
			return g
		},
	}
	for name, game := range games {
		t.Run(name, func(t *testing.T) {
			g := game()
			if !g.Over && name != "warri extra turn" {
				t.Fatalf("not over")
			}
			text := FormatRecord(g, []Tag{{"South", "ama"}, {"North", "kofi"}})
			rec := mustRead(t, text)
			back := rec.Game()
			if back.Position != g.Position || back.Over != g.Over || back.Result != g.Result || back.Reason != g.Reason ||
				!slices.Equal(back.Moves, g.Moves) {
				t.Errorf("read back: %s %s %s, want %s %s %s\n%s", rec.Rules.FormatPosition(back.Position), back.Result, back.Reason,
					g.Rules.FormatPosition(g.Position), g.Result, g.Reason, text)
			}
			if again := rec.Format(); again != text {
				t.Errorf("written again:\n%s\nfirst:\n%s", again, text)
			}
		})
	}
}

func TestRecordLayout(t *testing.T) {
	// Warri: F is a grand slam that takes 7 (marked +7), South moves again
	// (E), then North (a): numbered in pairs of plies, "1. F+7 E 2. a".
	// A resignation after them: the Termination tag and the final score.
	warri := Oware{GrandSlam: Warri}
	g, _ := ReplayGame(warri, mustParse(t, warri, "5-5-5-5-5-3-1-2-1-0-0-0-8-8-S"), []int{5, 4, 6})
	_ = g.Resign(South)
	text := FormatRecord(g, nil)
	if !strings.HasSuffix(text, "[FEN \"5-5-5-5-5-3-1-2-1-0-0-0-8-8-S\"]\n[Termination \"resignation; north wins\"]\n\n1. F+7 E 2. a 15-33\n") ||
		!strings.HasPrefix(text, "[Variant \"Warri (grand slam with extra turn)\"]\n") || !strings.Contains(text, "[Result \"15-33\"]\n") {
		t.Errorf("record:\n%s", text)
	}
	// Nam-nam: the moves of each round are numbered from 1, "=" marks the
	// agreements (TestMatchRepetition's match).
	g, _ = ReplayMatch(NamNam{}, NamNam{}.Start(), []int{6, 7}, []int{0, 1, 2}, nil)
	if text := FormatRecord(g, nil); !strings.HasSuffix(text, "\n\n= 1. a = 1. b = 25-23\n") {
		t.Errorf("namnam record:\n%s", text)
	}
	// Every line is under 80 characters, with no trailing space.
	rec := mustRead(t, "C d B a { "+strings.Repeat("word ", 40)+"}")
	for _, line := range strings.Split(rec.Format(), "\n") {
		if len(line) >= 80 || strings.HasSuffix(line, " ") {
			t.Errorf("line %q", line)
		}
	}
}

func TestRecordAgreements(t *testing.T) {
	// Nam-nam: the players agree to end round 1 before any move (24 each:
	// North starts round 2), North plays a, then they agree to end round 2
	// and, between rounds, the match.
	r := NamNam{}
	g, err := ReplayMatch(r, r.Start(), []int{6}, []int{0, 1, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Over || g.Reason != ReasonAgreement || g.Round != 3 {
		t.Fatalf("over %v, reason %s, round %d", g.Over, g.Reason, g.Round)
	}
	rec := mustRead(t, FormatRecord(g, nil))
	if !slices.Equal(rec.Agreements, []int{0, 1, 1}) || rec.Game().Position != g.Position || !rec.Game().Over {
		t.Errorf("read agreements %v", rec.Agreements)
	}
	if _, err := ReplayMatch(r, r.Start(), []int{6}, []int{2}, nil); err == nil {
		t.Error("an agreement after a move that was not played was accepted")
	}
	// Records written before: an Oware "=" and the old variant keys.
	rec = mustRead(t, "[Variant \"abapa\"]\n[Result \"25-23\"]\n\n1. C d = 25-23\n")
	if g := rec.Game(); !g.Over || g.Reason != ReasonAgreement || final(rec) != "0-0-0-0-0-0-0-0-0-0-0-0-25-23-S" {
		t.Errorf("old agreement: %v %s %s", g.Over, g.Reason, final(rec))
	}
}

func TestReadWithBudget(t *testing.T) {
	// A record from the worst Nam-nam position known: its check needs
	// millions of laps, more than a visitor's budget.
	text := "[Variant \"Nam-nam\"]\n[FEN \"" + worstNamNam + "\"]\n1. c\n"
	_, err := ReadRecord(text, ReadOptions{Budget: NewBudget(VisitorLaps)})
	var re *RecordError
	if !errors.As(err, &re) || !errors.Is(err, ErrTooMuchWork) || re.Line != 3 || re.Move != 1 {
		t.Errorf("err = %v", err)
	}
}

// TestRecordNotesBounded: a record may hold MaxRecordNotes comments and
// variations; one more is refused as too large (1 MiB of "{x}" is 350,000
// notes, which cost a third of a second to read, at every replay page).
func TestRecordNotesBounded(t *testing.T) {
	head := "[Variant \"Abapa\"]\n"
	rec, err := ParseRecord(head + strings.Repeat("{x}", MaxRecordNotes) + "\n1. C (d) d\n")
	if err == nil || !errors.Is(err, ErrRecordTooLarge) {
		t.Fatalf("%d notes and a variation: %v, want ErrRecordTooLarge", MaxRecordNotes, err)
	}
	rec, err = ParseRecord(head + strings.Repeat("{x}", MaxRecordNotes-1) + "\n1. C (d) d\n")
	if err != nil || len(rec.Notes) != MaxRecordNotes {
		t.Fatalf("%d notes: %v", MaxRecordNotes, err)
	}
	var re *RecordError
	_, err = ParseRecord(head + strings.Repeat("{x}\n", MaxRecordNotes+1))
	if !errors.As(err, &re) || re.Line != MaxRecordNotes+2 {
		t.Errorf("the note past the bound: %v, want an error on line %d", err, MaxRecordNotes+2)
	}
}
