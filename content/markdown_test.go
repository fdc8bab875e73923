package content

import (
	"strings"
	"testing"
	"time"

	"oware/locales"
	"oware/models"
)

// TestPageDiagramsLegal: every ```board diagram of every page source is a
// legal position of its rule set (the engine parses it) with valid
// highlight labels, and a bad one is refused.
func TestPageDiagramsLegal(t *testing.T) {
	srcs, err := models.ReadPageSources(locales.Pages)
	if err != nil {
		t.Fatal(err)
	}
	diagrams := 0
	for _, s := range srcs {
		parts, err := Body(s.Body)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			if p.Err != nil {
				t.Errorf("%s/%s: %v", s.Locale, s.Slug, p.Err)
			}
			if p.Diagram != nil {
				diagrams++
			}
		}
	}
	if diagrams < 3*7 {
		t.Errorf("only %d diagrams in all the pages", diagrams)
	}
	for _, bad := range []string{
		"position: 4-4-4-4-4-4-4-4-4-4-4-5-0-0-S", // 49 seeds
		"position: 4-4-4-4-4-4-4-4-4-4-4-4-0-0",   // no player to move
		"position: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nhighlight: G",
		"position: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nrules: chess",
		"highlight: A",
		"position: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nmoves: a",   // North's pit, South to move
		"position: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nmoves: C C", // the second C is South's pit on North's turn
		"position: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nmoves: C 7", // not a label
	} {
		parts, err := Body("Text.\n\n```board\n" + bad + "\n```\n")
		if err != nil || len(parts) != 2 || parts[1].Err == nil {
			t.Errorf("%q: not refused: %+v, %v", bad, parts, err)
		}
	}
}

// TestPageMarkdownSanitized: the renderer drops scripts, event handlers and
// javascript: links from a page body, and keeps tables and text.
func TestPageMarkdownSanitized(t *testing.T) {
	body := "## Rules\n\n## Tempo {#tempo}\n\n## Bad {onclick=\"alert(5)\"}\n\n<script>alert(1)</script>\n\nText <b onclick=\"alert(2)\">bold</b> " +
		"[link](javascript:alert(3)) <img src=x onerror=alert(4)>\n\n" +
		"<iframe src=\"https://example.com\"></iframe>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" +
		"[rules](/en/rules) [elsewhere](https://example.com/)\n"
	parts, err := Body(body)
	if err != nil || len(parts) != 1 {
		t.Fatalf("%+v, %v", parts, err)
	}
	h := parts[0].HTML
	for _, bad := range []string{"<script", "alert(1)", "onclick", "alert(5)", "javascript:", "onerror", "<iframe"} {
		if strings.Contains(h, bad) {
			t.Errorf("%q left in %s", bad, h)
		}
	}
	for _, good := range []string{"<h2>Rules</h2>", `<h2 id="tempo">Tempo</h2>`, "<h2>Bad</h2>", "<b>bold</b>", "<table>", "<td>2</td>",
		`<a href="/en/rules">rules</a>`, `<a href="https://example.com/" rel="nofollow">elsewhere</a>`} {
		if !strings.Contains(h, good) {
			t.Errorf("no %q in %s", good, h)
		}
	}
}

// TestBodyCache: a page body is rendered again only when its updated_at
// changes.
func TestBodyCache(t *testing.T) {
	var c BodyCache
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	first, err := c.Body("rules", "en", t0, "## One\n")
	if err != nil || len(first) != 1 || first[0].HTML != "<h2>One</h2>\n" {
		t.Fatalf("first: %+v, %v", first, err)
	}
	// The same updated_at: the stored rendering, even for another text
	// (a row is only ever changed with its updated_at).
	if again, _ := c.Body("rules", "en", t0, "## Two\n"); again[0].HTML != "<h2>One</h2>\n" {
		t.Errorf("same updated_at rendered again: %q", again[0].HTML)
	}
	if other, _ := c.Body("rules", "cs", t0, "## Dvě\n"); other[0].HTML != "<h2>Dvě</h2>\n" {
		t.Errorf("another locale: %q", other[0].HTML)
	}
	if later, _ := c.Body("rules", "en", t0.Add(time.Second), "## Two\n"); later[0].HTML != "<h2>Two</h2>\n" {
		t.Errorf("a later updated_at: %q", later[0].HTML)
	}
}
