package picture

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"

	"oware/engine"
)

// The geometry of a 1200×630 picture, worked out by hand from the layout's
// rules: the board from x 40 to 1160, padding 30, gap 22, so a pit is
// (1120-60-110)/6 = 158.33 wide; the board is 2·158.33+22+60 = 398.67
// high and centred (y from 115.67); a pit's cup is 0.88 of its radius
// (69.67) and the last move's ring 2·0.045·158.33 = 14.25 beyond it.
const (
	pitD      = 158.33
	col0X     = 149.17 // 40 + 30 + 158.33/2
	row0Y     = 224.83 // 115.67 + 30 + 158.33/2
	pitStep   = 180.33 // 158.33 + 22
	cupRadius = 69.67
)

// centre returns the centre of the pit at column col, row (0 top) by hand.
func centre(col, row int) (float64, float64) {
	return col0X + float64(col)*pitStep, row0Y + float64(row)*pitStep
}

// decode draws p as PNG and decodes it again, so the test sees the pixels
// a browser gets.
func decode(t *testing.T, p engine.Position, o Options, width int) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := PNG(&buf, p, o, width); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func at(img image.Image, x, y float64) color.RGBA {
	r, g, b, _ := img.At(int(x), int(y)).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

func position(t *testing.T, s string) engine.Position {
	t.Helper()
	p, err := engine.Oware{}.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPictureSeedsAndEmptyPits: with 4 seeds a pit draws them two by two
// (the cup class r2: dots 22 % of the pit, gaps 4 %), so the first seed's
// centre lies 0.13 of the pit left of and above the pit's centre; that
// point is a seed's colour in a pit with seeds and the cup's in an empty
// pit. Seen from South pit A is the bottom row's first and pit f the top
// row's first; seen from North pit A is the top row's last.
func TestPictureSeedsAndEmptyPits(t *testing.T) {
	// A and f have 4 seeds, B and e none; the rest 4 each.
	p := position(t, "4-0-4-4-4-4-4-4-4-4-0-4-8-0-S")
	seed := func(col, row int) (float64, float64) {
		x, y := centre(col, row)
		return x - 0.13*pitD, y - 0.13*pitD
	}
	south := decode(t, p, Options{Last: -1}, Width)
	north := decode(t, p, Options{Bottom: engine.North, Last: -1}, Width)
	for _, c := range []struct {
		name     string
		img      image.Image
		col, row int
		want     color.RGBA
	}{
		{"from South, A (bottom left), 4 seeds", south, 0, 1, colSeed},
		{"from South, B (bottom, second), empty", south, 1, 1, colCup},
		{"from South, f (top left), 4 seeds", south, 0, 0, colSeed},
		{"from South, e (top, second), empty", south, 1, 0, colCup},
		{"from North, A (top right), 4 seeds", north, 5, 0, colSeed},
		{"from North, B (top, fifth), empty", north, 4, 0, colCup},
		{"from North, e (bottom, fifth), empty", north, 4, 1, colCup},
		{"from North, f (bottom right), 4 seeds", north, 5, 1, colSeed},
	} {
		if x, y := seed(c.col, c.row); at(c.img, x, y) != c.want {
			t.Errorf("%s: %v, want %v", c.name, at(c.img, x, y), c.want)
		}
	}
}

// TestPictureLastMove: the last move's pit has a ring of the colour of
// --last (#ffc940) just outside its cup, where any other pit shows the
// wood (#cf9458).
func TestPictureLastMove(t *testing.T) {
	p := engine.Oware{}.Start()
	img := decode(t, p, Options{Last: 2}, Width) // C: bottom row, third
	ring := cupRadius + 7
	x, y := centre(2, 1)
	if got := at(img, x-ring, y); got != colLast {
		t.Errorf("left of C's cup: %v, want the last move's %v", got, colLast)
	}
	x, y = centre(3, 1)
	if got := at(img, x-ring, y); got != colWood {
		t.Errorf("left of D's cup: %v, want the wood's %v", got, colWood)
	}
	x, y = centre(2, 1)
	if got := at(decode(t, p, Options{Last: -1}, Width), x-ring, y); got != colWood {
		t.Errorf("left of C's cup without a last move: %v, want the wood's %v", got, colWood)
	}
}

// TestPictureSize: a picture is the width asked for (bounded) and 630/1200
// as high, and a full 1200×630 preview of a busy board (every pit with
// seeds, in rows of two and three, long names and notes: the largest of
// the boards tried, 37.7 KB) stays under 60 KB.
func TestPictureSize(t *testing.T) {
	p := position(t, "4-5-6-7-4-5-4-5-2-3-1-2-0-0-S")
	o := Options{Last: 5, Names: [2]string{"Wolfgang Amadeus Mozartovič", "Giuseppina Strepponi-Verdi"}, Notes: [2]string{"na tahu", "ha vinto"}}
	var buf bytes.Buffer
	if err := PNG(&buf, p, o, Width); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 60<<10 {
		t.Errorf("busiest preview: %d bytes, want at most 61,440", buf.Len())
	}
	for _, c := range []struct{ ask, w, h int }{{1200, 1200, 630}, {600, 600, 315}, {5000, 1200, 630}, {10, 200, 105}} {
		if b := Draw(p, o, c.ask).Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Errorf("width %d: %v, want %d×%d", c.ask, b, c.w, c.h)
		}
	}
}

// game returns the moves of a game of n plies from the start: at each ply
// the legal move at (ply·5) modulo their number (this game lasts 117
// plies).
func game(t testing.TB, n int) []int {
	g := engine.NewGame(engine.Oware{}, engine.Oware{}.Start())
	for i := range n {
		legal := g.LegalMoves().Pits()
		if g.Over || len(legal) == 0 {
			t.Fatalf("the game ended after %d plies", i)
		}
		if _, err := g.Play(legal[(i*5)%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
	return g.Moves
}

// TestGIFFrames: a GIF of a game has one frame a ply and one for the
// start, each ply's frame PlyDelay, the last frame LastDelay (longer), and
// it does not loop; the first frame is the whole picture, and a frame
// where one pit was sown covers less.
func TestGIFFrames(t *testing.T) {
	moves := game(t, 12)
	frames, err := Frames(engine.Oware{}, engine.Oware{}.Start(), moves, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := GIF(context.Background(), &buf, frames, Options{Names: [2]string{"alice", "bob"}}); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 13 {
		t.Fatalf("%d frames, want 13 (12 plies and the start)", len(g.Image))
	}
	for i, d := range g.Delay {
		want := 80
		if i == 12 {
			want = 400
		}
		if d != want {
			t.Errorf("frame %d: delay %d, want %d", i, d, want)
		}
	}
	if g.LoopCount != -1 {
		t.Errorf("loop count %d, want -1 (play once)", g.LoopCount)
	}
	if b := g.Image[0].Bounds(); b != image.Rect(0, 0, 600, 315) {
		t.Errorf("first frame %v, want 600×315", b)
	}
	if b := g.Image[1].Bounds(); b.Dx()*b.Dy() >= 600*315 {
		t.Errorf("second frame %v, want a part of the picture", b)
	}
}

// TestGIFBounds: a game of more than MaxGIFPlies plies gets no frames
// (ErrTooLong), nor does an illegal move, and GIF refuses too many frames.
func TestGIFBounds(t *testing.T) {
	long := make([]int, MaxGIFPlies+1)
	if _, err := Frames(engine.Oware{}, engine.Oware{}.Start(), long, nil); !errors.Is(err, ErrTooLong) {
		t.Errorf("%d plies: %v, want ErrTooLong", len(long), err)
	}
	if _, err := Frames(engine.Oware{}, engine.Oware{}.Start(), []int{6}, nil); err == nil {
		t.Error("South sowing North's pit a: no error")
	}
	frames := make([]Frame, MaxGIFPlies+2)
	if err := GIF(context.Background(), &bytes.Buffer{}, frames, Options{}); !errors.Is(err, ErrTooLong) {
		t.Errorf("%d frames: %v, want ErrTooLong", len(frames), err)
	}
}
