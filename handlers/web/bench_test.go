package web_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"oware/content"
	"oware/engine"
	"oware/handlers"
	"oware/handlers/handlerstest"
	"oware/models"
	"oware/models/modelstest"
)

// BenchmarkMoveByPly times a move through the JSON API (in process, with
// gzip accepted, as a browser or the load test sends it) in a game at
// about ply 20 and at about ply 600: a move costs the same at both (issue
// 37: at most 1.1 times). The
// moves are chosen to keep the game going (few captures, no repetition).
func BenchmarkMoveByPly(b *testing.B) {
	for _, d := range modelstest.Dialects() {
		for _, ply := range []int{20, 600} {
			b.Run(d+"/ply"+strconv.Itoa(ply), func(b *testing.B) {
				db := modelstest.Open(b, d)
				e := benchSite(b, db)
				g := newBenchGame(b, e)
				g.playTo(b, e, ply)
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					if i%40 == 39 { // stay near the ply
						b.StopTimer()
						g = newBenchGame(b, e)
						g.playTo(b, e, ply)
						b.StartTimer()
					}
					g.move(b, e)
				}
			})
		}
	}
}

// gunzip returns the reader of a gzip body.
func gunzip(b *testing.B, r io.Reader) io.Reader {
	zr, err := gzip.NewReader(r)
	if err != nil {
		b.Fatal(err)
	}
	return zr
}

// benchSite returns the site on db.
func benchSite(b *testing.B, db *models.DB) http.Handler {
	log := slog.New(slog.DiscardHandler)
	if err := content.Load(b.Context(), db, log); err != nil {
		b.Fatal(err)
	}
	e, err := handlers.New(handlerstest.WithServices(b, db, handlers.Config{Secret: []byte("0123456789abcdef0123456789abcdef"), Log: log}))
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// benchGame is a game played through the API by both seats.
type benchGame struct {
	id       string
	tokens   map[string]string
	position string
	seen     map[engine.Position]bool
	rng      *rand.Rand
	plies    int
}

func apiCall(b *testing.B, e http.Handler, method, path, token, body string, out any) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "gzip")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code >= 300 {
		b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	if out != nil {
		r := io.Reader(rec.Body)
		if rec.Header().Get("Content-Encoding") == "gzip" {
			r = gunzip(b, rec.Body)
		}
		if err := json.NewDecoder(r).Decode(out); err != nil {
			b.Fatal(err)
		}
	}
}

func newBenchGame(b *testing.B, e http.Handler) *benchGame {
	var created struct{ ID, Token string }
	apiCall(b, e, "POST", "/api/v1/games", "", `{"rules":"abapa","seat":"south"}`, &created)
	var joined struct{ Token string }
	apiCall(b, e, "POST", "/api/v1/games/"+created.ID+"/join", "", "", &joined)
	return &benchGame{id: created.ID, tokens: map[string]string{"south": created.Token, "north": joined.Token},
		position: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", seen: map[engine.Position]bool{}, rng: rand.New(rand.NewPCG(7, 8))}
}

// move plays a move that keeps the game going: no end, no repetition and,
// when it can, no capture.
func (g *benchGame) move(b *testing.B, e http.Handler) {
	r, _ := engine.RulesByName("abapa")
	p, err := r.ParsePosition(g.position)
	if err != nil {
		b.Fatal(err)
	}
	var quiet, going []int
	legal := r.LegalMoves(p).Pits()
	for _, pit := range legal {
		next, mv, _ := r.Play(p, pit)
		if mv.Over || g.seen[engine.Position{Pits: next.Pits, ToMove: next.ToMove}] {
			continue
		}
		going = append(going, pit)
		if len(mv.Captures) == 0 {
			quiet = append(quiet, pit)
		}
	}
	pick := legal
	if len(quiet) > 0 {
		pick = quiet
	} else if len(going) > 0 {
		pick = going
	}
	pit := pick[g.rng.IntN(len(pick))]
	next, mv, _ := r.Play(p, pit)
	if len(mv.Captures) > 0 {
		clear(g.seen)
	}
	g.seen[engine.Position{Pits: next.Pits, ToMove: next.ToMove}] = true
	var st struct{ Position, Status string }
	apiCall(b, e, "POST", "/api/v1/games/"+g.id+"/moves", g.tokens[p.ToMove.String()], `{"pit":"`+engine.Label(pit)+`"}`, &st)
	if st.Status != "playing" {
		b.Fatalf("the game ended at ply %d", g.plies+1)
	}
	g.position = st.Position
	g.plies++
}

// playTo plays until ply.
func (g *benchGame) playTo(b *testing.B, e http.Handler, ply int) {
	for g.plies < ply {
		g.move(b, e)
	}
}

// BenchmarkPages times the rules page, a game page seen by a visitor and a
// static file of about their size, as a browser asks for them (gzip, the
// CSRF cookie of an earlier visit), in process on SQLite.
func BenchmarkPages(b *testing.B) {
	db := modelstest.Open(b, models.SQLite)
	e := benchSite(b, db)
	g := newBenchGame(b, e)
	g.playTo(b, e, 20)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest("GET", "/en/rules", nil))
	cookies := rec.Result().Cookies()
	css := regexp.MustCompile(`/static/app\.[0-9a-f]{10}\.css`).FindString(rec.Body.String())
	for _, path := range []string{"/en/rules", "/en/games/" + g.id, css} {
		b.Run(strings.ReplaceAll(path, "/", "_"), func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest("GET", path, nil)
				req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
				for _, c := range cookies {
					req.AddCookie(c)
				}
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", path, rec.Code)
				}
			}
		})
	}
}
