package web

import (
	"log/slog"
	"testing"

	"oware/engine"
	"oware/engine/search"
	"oware/game"
	"oware/handlers/core"
)

// TestHintTextPlies: a hint says the distance of the forced win it
// starts, in the three languages with their plurals, and nothing of it
// when none is proven.
func TestHintTextPlies(t *testing.T) {
	b, err := core.LoadBundle()
	if err != nil {
		t.Fatal(err)
	}
	ls := core.NewLocalizers(b, slog.New(slog.DiscardHandler))
	for _, c := range []struct {
		lang string
		h    game.Hint
		want string
	}{
		{"en", game.Hint{Label: "d", Reason: search.ReasonForcedWin, Seeds: 2, Plies: 2},
			"sow d: the computer proves it wins by force in 2 plies, by 2 seeds at the end"},
		{"en", game.Hint{Label: "C", Reason: search.ReasonCaptures, Seeds: 5, Plies: 1},
			"sow C: captures 5 seeds; it wins by force in 1 ply"},
		{"cs", game.Hint{Label: "d", Reason: search.ReasonForcedWin, Plies: 3},
			"zasejte d: počítač dokázal, že tím vynuceně vyhrajete za 3 půltahy"},
		{"it", game.Hint{Label: "d", Reason: search.ReasonForcedWin, Plies: 5},
			"semina d: il computer dimostra che vinci per forza in 5 semimosse"},
		{"en", game.Hint{Label: "d", Reason: search.ReasonForcedWin},
			"sow d: the computer proves it wins by force"},
	} {
		if got := hintText(ls[c.lang], c.h, engine.South); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.lang, c.h, got, c.want)
		}
	}
}
