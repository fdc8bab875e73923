// Package picture draws the board as an image (link previews, pictures of
// a position, the frames of a game's GIF). It follows the drawing rules of
// the board on screen (views/board.templ, static/app.css; DESIGN.md "The
// board on screen"): North's row on top shown f..a from left to right,
// South's below A..F, the board turned round when North is at the bottom;
// each pit its seeds as dots (at most 12), its count in a badge and its
// label; the last move's pit ringed; each side's plate beside its row with
// the name and the seeds it captured (and, in Nam-nam, its store and the
// owner of every pit).
package picture

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"golang.org/x/image/font"

	"oware/engine"
)

// Width and Height are the size of a link preview (Open Graph's
// recommended 1200×630); a picture of another width keeps its proportions.
const (
	Width  = 1200
	Height = 630
)

// MinWidth and MaxWidth bound the width of a picture in pixels (the size
// parameter of /board.png).
const (
	MinWidth = 200
	MaxWidth = 1200
)

// Options say what to draw besides the position.
type Options struct {
	// Bottom is the side whose row is at the bottom: South (the default,
	// also spectators and diagrams) or North (the board turned round).
	Bottom engine.Side
	// Last is the pit of the last move, ringed; -1 for none.
	Last int
	// Names are the texts of the plates by side (a player's name, or the
	// side's localized name); Notes a short note after each ("to move",
	// "won"), "" for none.
	Names, Notes [2]string
	// Match draws Nam-nam's owners of pits and stores (RULES.md 4).
	Match bool
}

// The colours of static/app.css (the light theme, the wooden board).
var (
	colBg      = rgb(0xf7f2ea)
	colInk     = rgb(0x1f1a15)
	colMuted   = rgb(0x5c5145)
	colWood    = rgb(0xcf9458)
	colWood2   = rgb(0xb8804a)
	colWoodInk = rgb(0x2a1708)
	colCup     = rgb(0x3f2411)
	colCup2    = rgb(0x24130a)
	colSeed    = rgb(0xf3e7cd)
	colSeedRim = rgb(0xb49a6a)
	colBadge   = rgb(0xfffaf1)
	colBadgeFg = rgb(0x24160b)
	colLast    = rgb(0xffc940)
	colSouth   = rgb(0x4aa3ff)
	colNorth   = rgb(0xffb347)
	colNobody  = rgb(0xc8c8c8)
	colShadow  = rgb(0x8a6238)
)

func rgb(v uint32) color.RGBA {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// sideColour is the colour of a side's mark and of the pits it owns.
func sideColour(s engine.Side) color.RGBA {
	switch s {
	case engine.South:
		return colSouth
	case engine.North:
		return colNorth
	}
	return colNobody
}

// layout is the geometry of a picture, in pixels of its width.
type layout struct {
	s                      float64 // scale: width / Width
	w, h                   int
	woodX0, woodY0, woodX1 float64
	woodY1                 float64
	pad, gap, d            float64 // the board's padding, the gap between pits, a pit's diameter
	topY, lowY             float64 // the vertical centres of the two plates
}

// newLayout returns the geometry of a picture width pixels wide (Width×Height
// scaled).
func newLayout(width int) layout {
	s := float64(width) / Width
	l := layout{s: s, w: width, h: int(math.Round(Height * s))}
	l.pad, l.gap = 30*s, 22*s
	l.woodX0, l.woodX1 = 40*s, float64(width)-40*s
	l.d = (l.woodX1 - l.woodX0 - 2*l.pad - 5*l.gap) / engine.PitsPerRow
	woodH := 2*l.d + l.gap + 2*l.pad
	l.woodY0 = (float64(l.h) - woodH) / 2
	l.woodY1 = l.woodY0 + woodH
	l.topY = l.woodY0 / 2
	l.lowY = (l.woodY1 + float64(l.h)) / 2
	return l
}

// pitCentre returns the centre of the pit at column col (0..5, left to
// right) of row (0 top, 1 bottom).
func (l layout) pitCentre(col, row int) (x, y float64) {
	x = l.woodX0 + l.pad + l.d/2 + float64(col)*(l.d+l.gap)
	y = l.woodY0 + l.pad + l.d/2 + float64(row)*(l.d+l.gap)
	return x, y
}

// rowPits returns the pits of the top and the bottom row, left to right
// (views.rowPits: from South, 11..6 on top and 0..5 below; from North, the
// board turned round).
func rowPits(bottom engine.Side) (top, low [engine.PitsPerRow]int) {
	for i := range engine.PitsPerRow {
		if bottom == engine.North {
			top[i], low[i] = 5-i, 6+i
		} else {
			top[i], low[i] = 11-i, i
		}
	}
	return top, low
}

// PitCentre returns the centre, in pixels, of pit (0..11) in a picture
// width pixels wide seen with bottom at the bottom.
func PitCentre(width int, bottom engine.Side, pit int) image.Point {
	l := newLayout(width)
	top, low := rowPits(bottom)
	for col := range engine.PitsPerRow {
		for row, pits := range [2][engine.PitsPerRow]int{top, low} {
			if pits[col] == pit {
				x, y := l.pitCentre(col, row)
				return image.Pt(int(x), int(y))
			}
		}
	}
	return image.Point{}
}

// PitRadius returns the radius in pixels of a pit in a picture width
// pixels wide.
func PitRadius(width int) float64 { return newLayout(width).d / 2 }

// Draw returns the picture of position p, width pixels wide (clamped to
// MinWidth..MaxWidth) and Height/Width as high.
func Draw(p engine.Position, o Options, width int) *image.RGBA {
	width = min(max(width, MinWidth), MaxWidth)
	l := newLayout(width)
	cv := &canvas{img: image.NewRGBA(image.Rect(0, 0, l.w, l.h))}
	fs := faces{}
	defer fs.close()
	cv.background(colBg)
	cv.roundRect(l.woodX0, l.woodY0+4*l.s, l.woodX1, l.woodY1+4*l.s, 44*l.s, colShadow)
	cv.roundRect(l.woodX0, l.woodY0, l.woodX1, l.woodY1, 44*l.s, colWood2)
	cv.roundRect(l.woodX0+3*l.s, l.woodY0+3*l.s, l.woodX1-3*l.s, l.woodY1-3*l.s, 41*l.s, colWood)
	top, low := rowPits(o.Bottom)
	for col := range engine.PitsPerRow {
		for row, pits := range [2][engine.PitsPerRow]int{top, low} {
			x, y := l.pitCentre(col, row)
			drawPit(cv, fs, l, p, o, pits[col], x, y)
		}
	}
	drawPlate(cv, fs, l, p, o, o.Bottom.Opponent(), l.topY)
	drawPlate(cv, fs, l, p, o, o.Bottom, l.lowY)
	return cv.img
}

// drawPit draws pit at centre (x, y): the last move's ring, Nam-nam's
// owner ring, the cup, the seeds, the label and the count's badge.
func drawPit(cv *canvas, fs faces, l layout, p engine.Position, o Options, pit int, x, y float64) {
	r := l.d / 2
	cup := r * 0.88
	ring := l.d * 0.045
	if o.Last == pit {
		cv.circle(x, y, cup+2*ring, colLast)
	}
	if o.Match {
		cv.circle(x, y, cup+ring, sideColour(p.Owner[pit]))
	}
	cv.circle(x, y, cup, colCup)
	cv.circle(x, y-cup*0.12, cup*0.8, colCup2)
	cv.circle(x, y, cup*0.72, colCup)
	drawSeeds(cv, l, int(p.Pits[pit]), x, y)

	label := fs.face(boldFont, 0.16*l.d)
	text(cv.img, label, colWoodInk, x-r, y-r+0.13*l.d, engine.Label(pit))

	fc := fs.face(boldFont, 0.2*l.d)
	n := itoa(int(p.Pits[pit]))
	size := 0.2 * l.d
	bh := 1.55 * size
	bw := max(1.7*size, width(fc, n)+0.6*size)
	bx1, by1 := x+r+0.02*l.d, y+r+0.02*l.d
	if p.Pits[pit] == 0 {
		cv.roundRect(bx1-bw-l.s, by1-bh-l.s, bx1+l.s, by1+l.s, bh/2, colSeedRim)
	} else {
		cv.roundRect(bx1-bw, by1-bh+2*l.s, bx1, by1+2*l.s, bh/2, colShadow)
	}
	cv.roundRect(bx1-bw, by1-bh, bx1, by1, bh/2, colBadge)
	text(cv.img, fc, colBadgeFg, bx1-bw/2-width(fc, n)/2, by1-bh/2+capHeight(fc)/2, n)
}

// maxSeedDots is how many seeds a pit draws at most (views.maxSeedDots);
// its count is always written too.
const maxSeedDots = 12

// drawSeeds draws n seeds (at most maxSeedDots) in the cup centred at
// (x, y), in rows as the cup classes r2, r3 and r4 of app.css set them:
// a dot's diameter and the gap are shares of the pit's width.
func drawSeeds(cv *canvas, l layout, n int, x, y float64) {
	n = min(n, maxSeedDots)
	if n == 0 {
		return
	}
	perRow, dot, gap := 2, 0.22, 0.04
	switch {
	case n > 9:
		perRow, dot, gap = 4, 0.14, 0.022
	case n > 4:
		perRow, dot, gap = 3, 0.17, 0.03
	}
	dot, gap = dot*l.d, gap*l.d
	rows := (n + perRow - 1) / perRow
	y0 := y - (float64(rows)*dot+float64(rows-1)*gap)/2 + dot/2
	for i := range rows {
		k := min(perRow, n-i*perRow)
		x0 := x - (float64(k)*dot+float64(k-1)*gap)/2 + dot/2
		for j := range k {
			cx, cy := x0+float64(j)*(dot+gap), y0+float64(i)*(dot+gap)
			cv.circle(cx, cy, dot/2, colSeedRim)
			cv.circle(cx-dot*0.06, cy-dot*0.07, dot*0.4, colSeed)
		}
	}
}

// drawPlate draws side's plate centred on line y: its mark, name and note
// on the left, the seeds it captured (and its store) on the right.
func drawPlate(cv *canvas, fs faces, l layout, p engine.Position, o Options, side engine.Side, y float64) {
	size := 40 * l.s
	bold, reg := fs.face(boldFont, size), fs.face(regularFont, size*0.8)
	x := l.woodX0 + 10*l.s
	cv.circle(x+size*0.35, y, size*0.35, sideColour(side))
	x += size
	count := itoa(int(p.Captured[side]))
	if o.Match {
		count += " + " + itoa(int(p.Store[side]))
	}
	right := l.woodX1 - 10*l.s - width(bold, count)
	iconX := right - size*0.75
	cv.circle(iconX, y, size*0.32, colSeedRim)
	cv.circle(iconX-size*0.03, y-size*0.03, size*0.25, colSeed)
	text(cv.img, bold, colInk, right, y+capHeight(bold)/2, count)

	room := iconX - size - x
	name := fit(bold, o.Names[side], room)
	text(cv.img, bold, colInk, x, y+capHeight(bold)/2, name)
	if note := o.Notes[side]; note != "" {
		nx := x + width(bold, name) + size*0.4
		if left := iconX - size - nx; left > size {
			text(cv.img, reg, colMuted, nx, y+capHeight(bold)/2, fit(reg, note, left))
		}
	}
}

// capHeight returns the height of a capital letter of fc in pixels.
func capHeight(fc font.Face) float64 {
	m := fc.Metrics()
	if m.CapHeight > 0 {
		return float64(m.CapHeight) / 64
	}
	return float64(m.Ascent) / 64 * 0.7
}

func itoa(n int) string { return strconv.Itoa(n) }
