package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// kappa places the control points of a cubic Bézier quarter circle.
const kappa = 0.5522847498

// canvas is an RGBA image with the rasterizer that fills its shapes. The
// rasterizer is sized to each shape's bounding box, not to the image, so a
// small shape costs what it covers.
type canvas struct {
	img *image.RGBA
	r   vector.Rasterizer
}

// fill paints the path that path draws (in image coordinates, inside box)
// with colour c, anti-aliased.
func (cv *canvas) fill(box image.Rectangle, c color.RGBA, path func(r *vector.Rasterizer, dx, dy float32)) {
	box = box.Intersect(cv.img.Bounds())
	if box.Empty() {
		return
	}
	cv.r.Reset(box.Dx(), box.Dy())
	path(&cv.r, float32(-box.Min.X), float32(-box.Min.Y))
	cv.r.Draw(cv.img, box, image.NewUniform(c), image.Point{})
}

// circle fills a disc of radius r around (x, y).
func (cv *canvas) circle(x, y, r float64, c color.RGBA) {
	box := image.Rect(int(math.Floor(x-r)), int(math.Floor(y-r)), int(math.Ceil(x+r))+1, int(math.Ceil(y+r))+1)
	cv.fill(box, c, func(z *vector.Rasterizer, dx, dy float32) {
		cx, cy, rr, k := float32(x)+dx, float32(y)+dy, float32(r), float32(r*kappa)
		z.MoveTo(cx+rr, cy)
		z.CubeTo(cx+rr, cy+k, cx+k, cy+rr, cx, cy+rr)
		z.CubeTo(cx-k, cy+rr, cx-rr, cy+k, cx-rr, cy)
		z.CubeTo(cx-rr, cy-k, cx-k, cy-rr, cx, cy-rr)
		z.CubeTo(cx+k, cy-rr, cx+rr, cy-k, cx+rr, cy)
		z.ClosePath()
	})
}

// roundRect fills the rectangle (x0, y0)-(x1, y1), its sides rounded to
// whole pixels, with corners of radius r: two crossed rectangles and a
// disc at each corner, so only the corners go through the rasterizer.
func (cv *canvas) roundRect(x0, y0, x1, y1, r float64, c color.RGBA) {
	x0, y0, x1, y1 = math.Round(x0), math.Round(y0), math.Round(x1), math.Round(y1)
	r = min(r, (x1-x0)/2, (y1-y0)/2)
	u := image.NewUniform(c)
	ri := int(math.Ceil(r))
	a, b, e, f := int(x0), int(y0), int(x1), int(y1)
	draw.Draw(cv.img, image.Rect(a+ri, b, e-ri, f), u, image.Point{}, draw.Src)
	draw.Draw(cv.img, image.Rect(a, b+ri, e, f-ri), u, image.Point{}, draw.Src)
	cv.circle(x0+float64(ri), y0+float64(ri), float64(ri), c)
	cv.circle(x1-float64(ri), y0+float64(ri), float64(ri), c)
	cv.circle(x0+float64(ri), y1-float64(ri), float64(ri), c)
	cv.circle(x1-float64(ri), y1-float64(ri), float64(ri), c)
}

// background fills the whole image with c.
func (cv *canvas) background(c color.RGBA) {
	draw.Draw(cv.img, cv.img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
}
