package picture

import (
	"image"
	"image/color"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The typefaces are the Go fonts (golang.org/x/image/font/gofont, BSD
// licence, embedded in the binary): bold for names, counts and labels,
// regular for notes.
var (
	boldFont    = mustParse(gobold.TTF)
	regularFont = mustParse(goregular.TTF)
)

func mustParse(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic("picture: the embedded Go font does not parse: " + err.Error())
	}
	return f
}

// faces are the font faces of one drawing, by font and size in pixels. A
// face is not safe for concurrent use, so each drawing opens its own.
type faces map[faceKey]font.Face

type faceKey struct {
	f    *opentype.Font
	size int
}

// face returns the face of f at size pixels.
func (fs faces) face(f *opentype.Font, size float64) font.Face {
	k := faceKey{f, max(int(size+0.5), 6)}
	if fc, ok := fs[k]; ok {
		return fc
	}
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(k.size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic("picture: a face of the embedded Go font: " + err.Error())
	}
	fs[k] = fc
	return fc
}

// close closes every face.
func (fs faces) close() {
	for _, fc := range fs {
		fc.Close()
	}
}

// width returns the advance of s in face fc, in pixels.
func width(fc font.Face, s string) float64 {
	return float64(font.MeasureString(fc, s)) / 64
}

// text draws s in face fc and colour c with its baseline's left end at
// (x, y).
func text(img *image.RGBA, fc font.Face, c color.RGBA, x, y float64, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: fc, Dot: fixed.P(int(x+0.5), int(y+0.5))}
	d.DrawString(s)
}

// fit returns s, cut with an ellipsis where it is wider than w pixels in
// face fc.
func fit(fc font.Face, s string, w float64) string {
	if width(fc, s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && width(fc, string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
