package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	// The 24-24 cannot-feed game from a FEN: one move, f.
	r := Oware{}
	g, _ := ReplayGame(r, mustParse(t, r, "0-1-1-0-0-0-0-0-0-0-0-1-21-24-N"), []int{11})
	text := FormatRecord(g, []Tag{{"Event", "Club night"}, {"South", "ama"}, {"North", "kofi"}})
	want := `[Variant "abapa"]
[Event "Club night"]
[South "ama"]
[North "kofi"]
[Result "24-24"]
[FEN "0-1-1-0-0-0-0-0-0-0-0-1-21-24-N"]

1. f 24-24
`
	if text != want {
		t.Errorf("record:\n%s\nwant:\n%s", text, want)
	}
	rec, err := ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Moves, []int{11}) || rec.Tag("South") != "ama" || rec.Game().Result != Draw {
		t.Errorf("parsed %+v", rec)
	}
}

func TestRecordMovesAndVariants(t *testing.T) {
	// From the start: C d B (see the oware-engine test), Warri rules.
	rec, err := ParseRecord("[Variant \"Warri\"]\n{a comment\nover lines} 1. C d\n2. B ; a line comment\n*\n")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Rules.Name() != "warri" || !slices.Equal(rec.Moves, []int{2, 9, 1}) {
		t.Errorf("rules %s moves %v", rec.Rules.Name(), rec.Moves)
	}
	if got := rec.Rules.FormatPosition(rec.Game().Position); got != "5-0-1-6-6-6-6-4-4-0-5-5-0-0-N" {
		t.Errorf("final position %s", got)
	}
	rec, err = ParseRecord("[Variant \"namnam fours=owner\"]\n1. A\n")
	if err != nil || rec.Rules != (NamNam{Fours: FoursOwner}) {
		t.Errorf("namnam: %v %v", rec, err)
	}
	g := NewGame(NamNam{Fours: FoursOwner}, NamNam{}.Start())
	if text := FormatRecord(g, nil); !strings.HasPrefix(text, "[Variant \"namnam fours=owner\"]\n") {
		t.Errorf("namnam record: %s", text)
	}
}

func TestRecordErrorsNameTheLine(t *testing.T) {
	cases := map[string]string{
		"[Variant \"abapa\"]\n[Event unquoted]\n1. C\n":                            "line 2",
		"[Variant \"chess\"]\n1. C\n":                                              "line 1",
		"[Variant \"abapa\"]\n[FEN \"4-4-4\"]\n1. C\n":                             "line 2",
		"[Variant \"abapa\"]\n\n1. C d\n2. C\n":                                    "line 4", // C is empty now
		"[Variant \"abapa\"]\n1. C d\n2. Q\n":                                      "line 3",
		"[Variant \"abapa\"]\n1. C d\n2. B a 3. x\n":                               "line 3",
		"[Variant \"abapa\"\n1. C\n":                                               "line 1",
		"[Variant \"abapa\"]\n1. C d {never closed\n2. B\n":                        "line 2",
		"[Variant \"namnam fours=\"]\n1. A\n":                                      "line 1",
		"[Variant \"abapa\"]\r1. C d\r2. C\r":                                      "line 3", // old Mac line ends
		"[Variant \"abapa\"]\n[FEN \"0-0-0-0-0-0-5-5-0-0-0-0-26-12-N\"]\n1... a\n": "line 3", // over at 25
	}
	for text, line := range cases {
		_, err := ParseRecord(text)
		if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), line+":") {
			t.Errorf("%q: %v, want ErrBadRecord naming %s", text, err, line)
		}
	}
}

func TestRecordErrorFields(t *testing.T) {
	_, err := ParseRecord("[Variant \"abapa\"]\n1. C d\n2. C\n")
	var re *RecordError
	if !errors.As(err, &re) || re.Line != 3 || re.Move != 3 || re.Word != "C" || !errors.Is(err, ErrEmptyPit) {
		t.Errorf("err = %#v, want line 3, move 3 (C), ErrEmptyPit", err)
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
	text := FormatRecord(g, nil)
	if !strings.Contains(text, "\n= 1... a = = ") && !strings.Contains(text, "\n= 1. a = = ") {
		t.Errorf("record without the agreements:\n%s", text)
	}
	rec, err := ParseRecord(text)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Agreements, []int{0, 1, 1}) || rec.Game().Position != g.Position || !rec.Game().Over {
		t.Errorf("parsed agreements %v", rec.Agreements)
	}
	if _, err := ReplayMatch(r, r.Start(), []int{6}, []int{2}, nil); err == nil {
		t.Error("an agreement after a move that was not played was accepted")
	}
}
