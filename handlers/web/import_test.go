package web_test

import (
	"bytes"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"oware/engine"
	"oware/handlers/handlerstest"
)

// longNamNamRecord is a Nam-nam record of total moves: a random match
// played to its end, then moves after the end (as long records of matches
// played before the match-repetition rule have them).
func longNamNamRecord(t *testing.T, total int) (record string, played int) {
	rng := rand.New(rand.NewPCG(270, 2))
	r := engine.NamNam{}
	g := engine.NewGame(r, r.Start())
	for !g.Over {
		pits := g.LegalMoves().Pits()
		if _, err := g.Play(pits[rng.IntN(len(pits))]); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	b.WriteString("[Variant \"Nam-nam\"]\n[South \"Ama\"]\n\n")
	for i := range total {
		if i%2 == 0 {
			b.WriteString(strconv.Itoa(i/2+1) + ". ")
		}
		label := "a" // after the end
		if i < len(g.Moves) {
			label = engine.Label(g.Moves[i])
		}
		b.WriteString(label + "\n")
	}
	return b.String(), len(g.Moves)
}

// TestLongImportIsBounded: the 21,606-move Nam-nam record of issue 14
// imports once and replays at any ply with a small page and a bounded
// allocation, however long the record (it used to put every move in every
// link: 938 MB for one page).
func TestLongImportIsBounded(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	record, played := longNamNamRecord(t, 21606)
	if len(record) < 64<<10 {
		t.Fatalf("the record has %d bytes: not a long one", len(record))
	}
	c := s.Browser()
	_, _, page := s.Get(c, "/en/import")
	code, hdr, page := s.Post(c, "/en/import", url.Values{"_csrf": {s.Csrf(page)}, "record": {record}}, nil)
	if code != http.StatusSeeOther {
		t.Fatalf("import: %d\n%s", code, page)
	}
	replay := hdr.Get("Location")
	base := replay[:strings.Index(replay, "?")]
	if len(replay) > 64 {
		t.Errorf("replay address %q", replay)
	}
	for _, ply := range []int{0, played / 2, played} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code, _, page := s.Get(c, base+"?ply="+strconv.Itoa(ply))
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		links := strings.Count(page, `href="`+base+"?ply=")
		t.Logf("ply %d: %d bytes, %d links, %d KiB allocated", ply, len(page), links, alloc>>10)
		if code != 200 || len(page) > 64<<10 || links > 2*30+1+4 || alloc > 64<<20 {
			t.Errorf("ply %d: %d, %d bytes, %d move links, %d bytes allocated", ply, code, len(page), links, alloc)
		}
	}
	_, _, page = s.Get(c, base+"?ply="+strconv.Itoa(played))
	if !strings.Contains(page, "the record has "+strconv.Itoa(21606-played)+" more moves after the end") {
		t.Errorf("the moves after the end are not mentioned")
	}
}

// TestImportBounds: a record over the bounds is refused with a clear
// message, and a crafted Nam-nam position is refused within the budget.
func TestImportBounds(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	post := func(record string) (int, string) {
		_, _, page := s.Get(c, "/en/import")
		code, _, page := s.Post(c, "/en/import", url.Values{"_csrf": {s.Csrf(page)}, "record": {record}}, nil)
		return code, page
	}
	over := "[FEN \"0-0-0-0-0-0-5-5-0-0-0-0-26-12-N\"]\n" + strings.Repeat("a ", engine.MaxRecordMoves+1)
	if code, page := post(over); code != http.StatusUnprocessableEntity || !strings.Contains(page, "at most 1024 KiB, 50000 moves and 2000 comments or variations") {
		t.Errorf("too many moves: %d", code)
	}
	// (A bound met at no move names the line alone, not an empty move.)
	if code, page := post(strings.Repeat("{x}", 2001) + "\n1. C\n"); code != http.StatusUnprocessableEntity ||
		!strings.Contains(page, "error on line 1: the record is too long") {
		t.Errorf("too many comments: %d", code)
	}
	if code, _ := post(strings.Repeat("{}", 600<<10)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("too many bytes: %d", code)
	}
	const worst = "0-5-1-0-9-1-5-1-3-6-5-12-0-0-N-SSSSNNNNNNNN-0-0"
	code, page := post("[Variant \"Nam-nam\"]\n[FEN \"" + worst + "\"]\n1. c\n")
	if code != http.StatusUnprocessableEntity || !strings.Contains(page, "needs more work than the site spends on one request") {
		t.Errorf("crafted position: %d", code)
	}
}

// TestImportBinaryFile: a file that is not UTF-8 text is refused as such,
// and none of its bytes are shown again.
func TestImportBinaryFile(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	_, _, page := s.Get(c, "/it/import")
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("_csrf", s.Csrf(page))
	fw, _ := w.CreateFormFile("file", "game.ogn")
	fw.Write([]byte("1. C \xff\xfe\x89PNG d"))
	w.Close()
	code, _, page := s.Do(c, "POST", "/it/import", &body, map[string]string{"Content-Type": w.FormDataContentType()})
	if code != http.StatusUnprocessableEntity || !strings.Contains(page, "Questo file non è un file di testo") || strings.Contains(page, "PNG") {
		t.Errorf("a binary file: %d, want 422 with the Italian message and none of its bytes", code)
	}
}

// TestImportReplayNotesBounded: a record whose comments are long (within
// the record's bound) still gives a small replay page: at most 20 notes a
// ply, each cut to 1,000 characters.
func TestImportReplayNotesBounded(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	_, _, page := s.Get(c, "/en/import")
	record := "1. C {" + strings.Repeat("x", 200<<10) + "} " + strings.Repeat("{y} ", 100) + "d\n"
	code, hdr, _ := s.Post(c, "/en/import", url.Values{"_csrf": {s.Csrf(page)}, "record": {record}}, nil)
	if code != http.StatusSeeOther {
		t.Fatalf("import: %d", code)
	}
	loc := hdr.Get("Location")
	_, _, page = s.Get(c, loc[:strings.LastIndex(loc, "=")+1]+"1")
	if len(page) > 64<<10 || !strings.Contains(page, strings.Repeat("x", 1000)+"…") || strings.Contains(page, strings.Repeat("x", 1001)) {
		t.Errorf("replay at ply 1: %d bytes, want under 64 KiB with the comment cut at 1,000 characters", len(page))
	}
	if n := strings.Count(page, ">y<"); n > 19 {
		t.Errorf("%d short notes shown at ply 1, want at most 19 beside the long one", n)
	}
}
