package web_test

import (
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"oware/game"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
)

// TestGamesNow: the games-now page lists the games in play between two
// accounts, with their players and watch links, not a game with a guest
// nor a finished one; the home page features the highest-rated game
// (ratings 1800 + 1500 over 1500? + 1500?) and lists the others.
func TestGamesNow(t *testing.T) {
	handlerstest.EachDialect(t, func(t *testing.T, db *models.DB) {
		s := handlerstest.NewSite(t, db)
		alice, bob, carol, dave := s.Account("alice"), s.Account("bob"), s.Account("carol"), s.Account("dave")
		ab, abN := s.FormGameWith(alice, bob, "en", "abapa")
		s.Move(ab, "C", nil)
		s.Move(abN, "f", nil)
		cd, _ := s.FormGameWith(carol, dave, "en", "wari")
		guest, _ := s.FormGame("en", "abapa")
		over, overN := s.FormGameWith(alice, dave, "en", "abapa")
		s.PlayAndResign(over, overN, 2)
		key := func(p handlerstest.Seated) string {
			g, err := db.LoadGame(t.Context(), p.Game[strings.LastIndex(p.Game, "/")+1:])
			if err != nil {
				t.Fatal(err)
			}
			return "/en/watch/" + g.SpectatorKey
		}
		set := func(p handlerstest.Seated, south, north string) {
			id := p.Game[strings.LastIndex(p.Game, "/")+1:]
			if err := db.Gorm.Exec(`UPDATE games SET south_rating = ?, north_rating = ? WHERE id = ?`, south, north, id).Error; err != nil {
				t.Fatal(err)
			}
		}
		set(ab, "1500?", "1500?")
		set(cd, "1800", "1500")

		_, _, page := s.Get(nil, "/en/games/now")
		links := regexp.MustCompile(`href="(/en/watch/[a-z2-7]+)"`).FindAllStringSubmatch(page, -1)
		var got []string
		for _, l := range links {
			got = append(got, l[1])
		}
		// The newest first: carol's and dave's, then alice's and bob's.
		if want := []string{key(cd), key(ab)}; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("games now links %v, want %v", got, want)
		}
		for _, want := range []string{">alice<", ">bob<", ">carol<", ">dave<", ">1800<", ">1500?<", "Wari"} {
			if !strings.Contains(page, want) {
				t.Errorf("games now without %s", want)
			}
		}
		if strings.Contains(page, key(guest)) || strings.Contains(page, key(over)) {
			t.Error("games now lists a game with a guest or a finished game")
		}
		_, _, home := s.Get(nil, "/en/")
		i := strings.Index(home, `class="featured"`)
		j := strings.Index(home, `id="now-list"`)
		if i < 0 || j < 0 || !strings.Contains(home[i:j], key(cd)) || !strings.Contains(home[j:], key(ab)) || strings.Contains(home[j:], key(cd)) {
			t.Errorf("the home page does not feature carol's game and list alice's (%d, %d)", i, j)
		}
		// The home page's list again (htmx): the featured game left out.
		_, _, list := s.Do(nil, "GET", "/en/games/now?home=1", nil, map[string]string{"HX-Request": "true"})
		if !strings.Contains(list, key(ab)) || strings.Contains(list, key(cd)) || strings.Contains(list, "<footer") {
			t.Errorf("the home list: %s", list)
		}
	})
}

// TestGamesNowClocks: without JavaScript the miniature boards' clocks say
// the time left when the page was made: in a 5+0 game, 7.2 s after both
// first moves South's clock runs and shows 4:52 (292.8 s left, whole
// seconds), North's 5:00; the same on the home page's featured game.
func TestGamesNowClocks(t *testing.T) {
	db := handlerstest.ModelsOpenSQLite(t)
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	games := game.New(db, slog.New(slog.DiscardHandler))
	games.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	s := handlerstest.NewSiteWith(t, db, func(c *handlers.Config) { c.Games = games })
	south, north := s.ClockGameWith(s.Account("alice"), s.Account("bob"), "5", "0")
	s.Move(south, "C", nil)
	s.Move(north, "f", nil)
	mu.Lock()
	now = now.Add(7200 * time.Millisecond)
	mu.Unlock()
	running := regexp.MustCompile(`class="clock running" data-ms="292800" data-running[^>]*>.*?<span class="t">4:52</span>`)
	waiting := regexp.MustCompile(`class="clock" data-ms="300000"[^>]*>.*?<span class="t">5:00</span>`)
	for _, path := range []string{"/en/games/now", "/en/"} {
		_, _, page := s.Get(nil, path)
		if !running.MatchString(page) || !waiting.MatchString(page) {
			t.Errorf("%s: the clocks are not 4:52 (running) and 5:00", path)
		}
	}
}
