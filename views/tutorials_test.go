package views

import (
	"regexp"
	"strings"
	"testing"

	"oware/engine"
)

var delayRe = regexp.MustCompile(`<span class="drop" data-i="(\d+)" aria-hidden="true">`)

// TestBoardSowing: every seed of the sowing is one drop in its pit, with
// its place in the sowing as the animation's delay; the counts are the
// final ones; without Sowing there are no drops.
func TestBoardSowing(t *testing.T) {
	r, _ := engine.RulesByName("abapa")
	p, _ := r.ParsePosition("2-1-3-0-2-13-3-2-4-1-0-2-8-7-S")
	after, mv, err := r.Play(p, 5)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Board(plain{}, after, BoardOptions{Last: 5, Sowing: mv.Sown}).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if n := strings.Count(html, `class="drop"`); n != 13 {
		t.Fatalf("%d drops, want 13:\n%s", n, html)
	}
	got := map[string]string{} // label: the drops in its pit
	counts := map[string]string{}
	for _, cell := range strings.Split(html, `class="pit`)[1:] {
		m := labelRe.FindStringSubmatch(cell)
		if m == nil {
			t.Fatalf("a pit without a label: %s", cell)
		}
		var ds []string
		for _, d := range delayRe.FindAllStringSubmatch(cell, -1) {
			ds = append(ds, d[1])
		}
		got[m[1]] = strings.Join(ds, " ")
		counts[m[1]] = regexp.MustCompile(`<span class="count" aria-hidden="true">(\d+)</span>`).FindStringSubmatch(cell)[1]
	}
	for label, want := range map[string]string{"a": "0 11", "b": "1 12", "f": "5", "A": "6", "E": "10", "F": ""} {
		if got[label] != want {
			t.Errorf("pit %s: drops %q, want %q", label, got[label], want)
		}
	}
	if counts["F"] != "0" || counts["b"] != "4" {
		t.Errorf("counts after the move: F %s, b %s; want 0 and 4", counts["F"], counts["b"])
	}
	b.Reset()
	if err := Board(plain{}, after, BoardOptions{Last: -1}).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "drop") {
		t.Errorf("drops without a sowing")
	}
}
