package views

import (
	"context"
	"strings"
	"testing"
)

// TestShareBox: the box gives the link and the iframe's code as text to
// copy (escaped in the page, so that it shows as code), and the replay's
// buttons lead to the picture and the GIF; a view without them shows no
// button.
func TestShareBox(t *testing.T) {
	v := ShareView{Link: "https://o.example/en/games/g1/replay", Embed: "https://o.example/embed/games/g1", Picture: "/en/games/g1/ply/3.png", GIF: "/games/g1.gif"}
	var b strings.Builder
	if err := ShareBox(plain{}, v).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if err := ShareButtons(plain{}, v).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`value="https://o.example/en/games/g1/replay"`,
		`&lt;iframe src=&#34;https://o.example/embed/games/g1&#34;`,
		`href="/en/games/g1/ply/3.png" download>sh_picture</a>`,
		`href="/games/g1.gif" download>sh_gif</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in\n%s", want, html)
		}
	}
	b.Reset()
	if err := ShareButtons(plain{}, ShareView{}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 0 {
		t.Errorf("no picture nor GIF: %q", b.String())
	}
}
