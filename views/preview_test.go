package views

import (
	"context"
	"strings"
	"testing"

	"oware/views/picture"
)

// TestPreviewTags: a page with a preview carries the Open Graph and
// Twitter card tags, the image absolute on the base URL with its size
// (1200×630, the size picture draws) and alt text, the preview's title
// over the page's; a page without one carries none.
func TestPreviewTags(t *testing.T) {
	if PreviewWidth != picture.Width || PreviewHeight != picture.Height {
		t.Fatalf("preview %d×%d, picture draws %d×%d", PreviewWidth, PreviewHeight, picture.Width, picture.Height)
	}
	p := Page{L: plain{}, Lang: "it", Title: "Partita", Description: "Una partita di oware", Path: "/games/abc", BaseURL: "https://oware.example",
		Preview: &Preview{Title: "alice – bob", Image: "/it/games/abc/preview.png", Alt: "Il tavoliere"}}
	var b strings.Builder
	if err := Layout(p).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`<meta property="og:title" content="alice – bob">`,
		`<meta property="og:description" content="Una partita di oware">`,
		`<meta property="og:locale" content="it_IT">`,
		`<meta property="og:url" content="https://oware.example/it/games/abc">`,
		`<meta property="og:image" content="https://oware.example/it/games/abc/preview.png">`,
		`<meta property="og:image:width" content="1200">`,
		`<meta property="og:image:height" content="630">`,
		`<meta property="og:image:alt" content="Il tavoliere">`,
		`<meta name="twitter:card" content="summary_large_image">`,
		`<meta name="twitter:image" content="https://oware.example/it/games/abc/preview.png">`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in the head", want)
		}
	}
	p.Preview = nil
	b.Reset()
	if err := Layout(p).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "og:") || strings.Contains(b.String(), "twitter:") {
		t.Error("a page without a preview has preview tags")
	}
}
