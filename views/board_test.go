package views

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"oware/engine"
)

// plain is a Localizer that shows ids and counts.
type plain struct{}

func (plain) T(id string, data ...any) string { return id + fmt.Sprint(data...) }
func (plain) N(id string, n int, data ...any) string {
	return fmt.Sprintf("%s %d %v", id, n, data)
}

var labelRe = regexp.MustCompile(`<span class="label" aria-hidden="true">(\w)</span>`)

// labels renders a board and returns its pit labels in document order.
func labels(t *testing.T, o BoardOptions) (string, string) {
	t.Helper()
	r, _ := engine.RulesByName("abapa")
	var b strings.Builder
	if err := Board(plain{}, r.Start(), o).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	var ls []string
	for _, m := range labelRe.FindAllStringSubmatch(b.String(), -1) {
		ls = append(ls, m[1])
	}
	return strings.Join(ls, ""), b.String()
}

// TestBoardOrientation: DESIGN.md "The board on screen".
func TestBoardOrientation(t *testing.T) {
	if got, _ := labels(t, BoardOptions{Bottom: engine.South, Last: -1}); got != "fedcbaABCDEF" {
		t.Errorf("seen from South: %s, want fedcba over ABCDEF", got)
	}
	if got, _ := labels(t, BoardOptions{Bottom: engine.North, Last: -1}); got != "FEDCBAabcdef" {
		t.Errorf("seen from North: %s, want FEDCBA over abcdef", got)
	}
}

// TestBoardPlayable: playable pits are buttons of one POST form; the others
// are not focusable.
func TestBoardPlayable(t *testing.T) {
	_, html := labels(t, BoardOptions{Last: 2, Playable: 1<<0 | 1<<5, Highlight: 1 << 7,
		Action: "/en/games/x/moves", Target: "#game", CSRF: "tok"})
	if n := strings.Count(html, "<button"); n != 2 {
		t.Fatalf("%d buttons, want 2", n)
	}
	for _, want := range []string{`<form class="board-form" method="post" action="/en/games/x/moves"`,
		`name="_csrf" value="tok"`, `name="pit" value="A"`, `name="pit" value="F"`,
		`class="pit last"`, `class="pit hl"`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s", want)
		}
	}
	if strings.Contains(html, "tabindex") {
		t.Error("a pit is made focusable")
	}
	_, html = labels(t, BoardOptions{Last: -1})
	if strings.Contains(html, "<form") || strings.Contains(html, "<button") {
		t.Error("a board without playable pits has a form")
	}
}

func TestMovePairs(t *testing.T) {
	cases := map[string][]string{
		"C d B": {"1. C d", "2. B"},
		"d C a": {"1. d C", "2. a"}, // North started: pairs of plies (engine.NumberMove)
		"F E d": {"1. F E", "2. d"}, // South's extra turn
	}
	for in, want := range cases {
		got := movePairs(strings.Fields(in))
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("movePairs(%q) = %q, want %q", in, got, want)
		}
	}
}
