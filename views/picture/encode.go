package picture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"

	"oware/engine"
)

// palette is the one palette of every picture: the colours of the board
// and the blends that anti-aliased edges between them need. An 8-bit PNG
// of it is a quarter of an RGBA one, and a GIF needs a palette anyway.
var palette = func() color.Palette {
	base := []color.RGBA{colBg, colInk, colMuted, colWood, colWood2, colWoodInk, colCup, colCup2,
		colSeed, colSeedRim, colBadge, colBadgeFg, colLast, colSouth, colNorth, colNobody, colShadow}
	p := color.Palette{}
	for _, c := range base {
		p = append(p, c)
	}
	for i, a := range base {
		for _, b := range base[i+1:] {
			p = append(p, blend(a, b, 1, 2))
		}
	}
	// Edges drawn most often get two more steps.
	edges := [][2]color.RGBA{{colBg, colInk}, {colBg, colMuted}, {colWood, colWoodInk}, {colBadge, colBadgeFg},
		{colWood, colCup}, {colCup, colSeedRim}, {colSeedRim, colSeed}, {colCup, colCup2}, {colWood, colLast},
		{colLast, colCup}, {colBg, colSouth}, {colBg, colNorth}, {colBg, colSeedRim}, {colBg, colWood2},
		{colWood2, colWood}, {colWood, colBadge}, {colCup, colBadge}, {colWood, colShadow}, {colBadge, colShadow},
		{colWood, colSouth}, {colWood, colNorth}, {colSouth, colCup}, {colNorth, colCup}, {colNobody, colCup},
		{colWood, colNobody}, {colBadge, colSeedRim}}
	for _, e := range edges {
		p = append(p, blend(e[0], e[1], 1, 4), blend(e[0], e[1], 3, 4))
	}
	return p
}()

// blend returns the colour n/d of the way from a to b.
func blend(a, b color.RGBA, n, d int) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8((int(x)*(d-n) + int(y)*n + d/2) / d) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// paletted returns img in the palette, each pixel its nearest colour (no
// dithering: the flat colours stay flat and compress well). near keeps the
// nearest colour of each distinct colour met, so it is found once (a GIF's
// frames share it); a pixel like the one before it costs no look-up.
func paletted(img *image.RGBA, near map[uint32]uint8) *image.Paletted {
	out := image.NewPaletted(img.Bounds(), palette)
	last, idx := uint32(1<<31), uint8(0)
	for i := 0; i+3 < len(img.Pix); i += 4 {
		px := img.Pix[i : i+4 : i+4]
		key := uint32(px[0])<<16 | uint32(px[1])<<8 | uint32(px[2])
		if key != last {
			var ok bool
			if idx, ok = near[key]; !ok {
				idx = uint8(palette.Index(color.RGBA{px[0], px[1], px[2], 0xff}))
				near[key] = idx
			}
			last = key
		}
		out.Pix[i/4] = idx
	}
	return out
}

// PNG draws position p (see Draw) and writes it as an 8-bit PNG.
func PNG(w io.Writer, p engine.Position, o Options, width int) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, paletted(Draw(p, o, width), make(map[uint32]uint8, 1024)))
}

// A Frame is one position of a game's GIF and the pit of the move that
// led to it (-1 for the start).
type Frame struct {
	Position engine.Position
	Last     int
}

// MaxGIFPlies bounds the plies of a GIF: a longer game is refused
// (ErrTooLong), so that one request draws at most MaxGIFPlies+1 frames.
const MaxGIFPlies = 400

// GIFWidth is the width in pixels of a GIF's frames.
const GIFWidth = 600

// ErrTooLong is returned for a game of more than MaxGIFPlies plies.
var ErrTooLong = errors.New("picture: the game is too long for a GIF")

// Frames returns the frames of a game: its start and the position after
// each of its moves (plies), with that move's pit. Agreements (Nam-nam's
// rounds ended by agreement, see engine.ReplayMatch) add no frame. An
// illegal move is the engine's error; more than MaxGIFPlies moves is
// ErrTooLong.
func Frames(r engine.Rules, start engine.Position, moves, agreements []int) ([]Frame, error) {
	if len(moves) > MaxGIFPlies {
		return nil, fmt.Errorf("%w: %d plies, at most %d", ErrTooLong, len(moves), MaxGIFPlies)
	}
	frames := []Frame{{Position: start, Last: -1}}
	_, err := engine.ReplayMatch(r, start, moves, agreements, func(g *engine.Game, mv engine.Move, agreed bool) {
		if agreed {
			frames[len(frames)-1].Position = g.Position
			return
		}
		frames = append(frames, Frame{Position: g.Position, Last: mv.Pit})
	})
	if err != nil {
		return nil, err
	}
	return frames, nil
}

// Frame delays of a GIF, in hundredths of a second: each ply, and the
// last frame (the end of the game), which stays longer.
const (
	PlyDelay  = 80
	LastDelay = 400
)

// GIF writes the animated GIF of frames (at most MaxGIFPlies+1), one frame
// a ply, GIFWidth pixels wide, each frame the board after its move with
// that move's pit ringed and the captures on the plates (o.Last is
// ignored). It plays once and stays on the last frame. After the first, a
// frame holds only the rectangle that changed since the one before, its
// unchanged pixels transparent (runs that LZW packs well). It stops with
// ctx's error when ctx ends first, and with ErrTooLong when the GIF would
// pass MaxGIFBytes.
func GIF(ctx context.Context, w io.Writer, frames []Frame, o Options) error {
	if len(frames) == 0 || len(frames) > MaxGIFPlies+1 {
		return fmt.Errorf("%w: %d frames", ErrTooLong, len(frames))
	}
	out := gif.GIF{LoopCount: -1}
	var prev *image.Paletted
	near := make(map[uint32]uint8, 1024)
	for i, f := range frames {
		if err := ctx.Err(); err != nil {
			return err
		}
		o.Last = f.Last
		img := paletted(Draw(f.Position, o, GIFWidth), near)
		img.Palette = gifPalette
		frame := img
		if prev != nil {
			frame = changed(prev, img)
		}
		prev = img
		delay := PlyDelay
		if i == len(frames)-1 {
			delay = LastDelay
		}
		out.Image = append(out.Image, frame)
		out.Delay = append(out.Delay, delay)
		out.Disposal = append(out.Disposal, gif.DisposalNone)
	}
	out.Config = image.Config{ColorModel: gifPalette, Width: prev.Rect.Dx(), Height: prev.Rect.Dy()}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &out); err != nil {
		return err
	}
	if buf.Len() > MaxGIFBytes {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrTooLong, buf.Len(), MaxGIFBytes)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// MaxGIFBytes bounds the size of a GIF.
const MaxGIFBytes = 4 << 20

// gifPalette is the palette and, last, the transparent colour of the
// frames after the first.
var gifPalette = append(palette[:len(palette):len(palette)], color.RGBA{})

// transparent is the index of gifPalette's transparent colour.
var transparent = uint8(len(gifPalette) - 1)

// changed returns b cut to the smallest rectangle where it differs from a
// (both of one size), with the pixels that did not change transparent; one
// transparent pixel when nothing changed (a GIF frame cannot be empty).
func changed(a, b *image.Paletted) *image.Paletted {
	w, h := b.Rect.Dx(), b.Rect.Dy()
	x0, y0, x1, y1 := w, h, 0, 0
	for y := range h {
		row := y * b.Stride
		for x := range w {
			if a.Pix[row+x] != b.Pix[row+x] {
				x0, x1 = min(x0, x), max(x1, x+1)
				y0, y1 = min(y0, y), max(y1, y+1)
			}
		}
	}
	if x0 >= x1 {
		x0, y0, x1, y1 = 0, 0, 1, 1
	}
	out := image.NewPaletted(image.Rect(x0, y0, x1, y1), gifPalette)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			i := y*b.Stride + x
			px := b.Pix[i]
			if a.Pix[i] == px {
				px = transparent
			}
			out.Pix[(y-y0)*out.Stride+x-x0] = px
		}
	}
	return out
}
