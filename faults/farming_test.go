//go:build faults

package faults

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// postJSON sends body as JSON with client c (its cookies) and decodes the
// answer into out (nil: none); it returns the status, 0 for no answer.
func postJSON(c *http.Client, url string, body, out any) int {
	j, _ := json.Marshal(body)
	method := "POST"
	if body == nil {
		method = "GET"
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(j))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	if out != nil && json.NewDecoder(res.Body).Decode(out) != nil {
		return 0
	}
	return res.StatusCode
}

// TestArenaFarming: the two-account farming of issue 30 (132 points in
// 34 games in 36 s): in an arena of two, the helper resigns every game
// before moving, for 15 s. Each game is a forfeit of the helper and
// scores nobody; after two the helper is paired no more. Both end with 0
// points.
func TestArenaFarming(t *testing.T) {
	pg := startPostgres(t)
	in := startInstance(t, "a", pg.URL())
	farmer, helper := account(t, in.base, "farmer"), account(t, in.base, "helper")
	var created struct{ ID string }
	if code := postJSON(farmer, in.base+"/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Farm", "rules": "abapa",
		"clock": map[string]int{"initial": 60}, "minutes": 30, "starts_in": 0}, &created); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	path := in.base + "/api/v1/tournaments/" + created.ID
	for _, c := range []*http.Client{farmer, helper} {
		if code := postJSON(c, path+"/join", map[string]any{}, nil); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
	}
	games := 0
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var me struct {
			Game *struct{ ID, Token string }
		}
		if postJSON(helper, path+"/me", nil, &me) != http.StatusOK || me.Game == nil {
			continue
		}
		req, _ := http.NewRequest("POST", in.base+"/api/v1/games/"+me.Game.ID+"/resign", strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+me.Game.Token)
		if res, err := http.DefaultClient.Do(req); err == nil {
			if res.StatusCode == http.StatusOK {
				games++
			}
			res.Body.Close()
		}
	}
	var view struct {
		Standings []struct {
			Player string
			Points float64
			Games  int
		}
	}
	if code := postJSON(http.DefaultClient, path, nil, &view); code != http.StatusOK {
		t.Fatalf("tournament: %d", code)
	}
	t.Logf("%d games resigned before a move in 15 s; standings %+v", games, view.Standings)
	if games != 2 {
		t.Errorf("%d games resigned, want 2 (the helper is out after 2 forfeits)", games)
	}
	for _, s := range view.Standings {
		if s.Points != 0 || s.Games != 0 {
			t.Errorf("%s: %v points in %d games, want none", s.Player, s.Points, s.Games)
		}
	}
}

// TestPuzzleFarming: the puzzle farming of issue 30 (1500 -> 1884, a
// streak of 7 in 7 puzzles): a program asks each puzzle's solution
// without a cookie and an account sends it as its first try. No answer
// without a cookie carries the line (a right first move gets the reply
// only), so the account has nothing to send but its own first move.
func TestPuzzleFarming(t *testing.T) {
	pg := startPostgres(t)
	in := startInstance(t, "a", pg.URL())
	acct := account(t, in.base, "solver")
	var list []struct{ ID string }
	if code := postJSON(http.DefaultClient, in.base+"/api/v1/puzzles?limit=7", nil, &list); code != http.StatusOK || len(list) != 7 {
		t.Fatalf("puzzles: %d, %d", code, len(list))
	}
	leaked := 0
	var last struct {
		Rated  bool
		Rating *int
		Streak *int
	}
	for _, p := range list {
		var guest struct {
			Pending  bool
			Solution []string
		}
		url := in.base + "/api/v1/puzzles/" + p.ID + "/attempt"
		if code := postJSON(http.DefaultClient, url, map[string]any{"moves": []string{"A"}}, &guest); code != http.StatusOK {
			t.Fatalf("attempt without a cookie: %d", code)
		}
		moves := []string{"A"}
		if !guest.Pending && len(guest.Solution) > 0 { // the whole line
			leaked++
			moves = moves[:0]
			for i := 0; i < len(guest.Solution); i += 2 {
				moves = append(moves, guest.Solution[i])
			}
		}
		if code := postJSON(acct, url, map[string]any{"moves": moves}, &last); code != http.StatusOK {
			t.Fatalf("the account's attempt: %d", code)
		}
	}
	var streak, rating int
	if last.Streak != nil {
		streak = *last.Streak
	}
	if last.Rating != nil {
		rating = *last.Rating
	}
	t.Logf("7 puzzles: %d solutions given without a cookie; the account's rating %d, streak %d", leaked, rating, streak)
	if leaked != 0 {
		t.Errorf("%d solutions given without a cookie, want none", leaked)
	}
}

// TestPasswordGuesses: issue 30's 41 wrong passwords of a tournament in a
// row (all 403 before): the first 5 answer 403, the rest 429 with
// Retry-After.
func TestPasswordGuesses(t *testing.T) {
	pg := startPostgres(t)
	in := startInstance(t, "a", pg.URL())
	owner, guesser := account(t, in.base, "owner"), account(t, in.base, "guesser")
	var created struct{ ID string }
	if code := postJSON(owner, in.base+"/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Locked", "rules": "abapa",
		"clock": map[string]int{"initial": 60}, "minutes": 30, "starts_in": 600, "password": "sesame"}, &created); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	codes := map[int]int{}
	retry := ""
	for i := range 41 {
		req, _ := http.NewRequest("POST", in.base+"/api/v1/tournaments/"+created.ID+"/join",
			strings.NewReader(`{"password":"guess`+strconv.Itoa(i)+`"}`))
		req.Header.Set("Content-Type", "application/json")
		res, err := guesser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		codes[res.StatusCode]++
		if res.StatusCode == http.StatusTooManyRequests && retry == "" {
			retry = res.Header.Get("Retry-After")
		}
	}
	t.Logf("41 wrong passwords: answers %v, the first 429's Retry-After %q", codes, retry)
	if codes[http.StatusForbidden] != 5 || codes[http.StatusTooManyRequests] != 36 || retry == "" {
		t.Errorf("answers %v, Retry-After %q; want 5 403 and 36 429 with Retry-After", codes, retry)
	}
}

// TestPlantedCSRFCookie: issue 30's sixth hole: a _csrf cookie planted in
// a player's browser (cookie injection) with the same value in a form
// passed echo's double-submit check. The token is now bound to the
// session: the planted pair gets 403 (refused before any handler), the
// session's own token passes.
func TestPlantedCSRFCookie(t *testing.T) {
	pg := startPostgres(t)
	in := startInstance(t, "a", pg.URL())
	victim := account(t, in.base, "victim")
	base, _ := url.Parse(in.base)
	const planted = "planted-by-mallory-0123456789abcdefghijklmno"
	victim.Jar.SetCookies(base, []*http.Cookie{{Name: "_csrf", Value: planted, Path: "/"}})
	post := func(token string) int {
		res, err := victim.PostForm(in.base+"/en/account/language", url.Values{"_csrf": {token}, "language": {"cs"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := post(planted); code != http.StatusForbidden {
		t.Errorf("a form with the planted cookie's value: %d, want 403", code)
	}
	res, err := victim.Get(in.base + "/en/account")
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(res)
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on the account page")
	}
	if code := post(m[1]); code != http.StatusSeeOther {
		t.Errorf("a form with the session's token: %d, want 303", code)
	}
}
