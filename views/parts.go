package views

import (
	"bytes"
	"context"
	"io"

	"github.com/a-h/templ"
)

// A live game panel is sent to spectators as what changed since the
// version before (handlers' live events): its parts that change with a
// move (the status line, each pit, each name plate, the move count and
// last move, each entry of the move list) are marked while the panel
// renders for the event stream (WithParts), Cut splits the marked panel
// into its parts and the rest (the skeleton), and Delta writes the parts
// of one version that differ from the version before as htmx
// out-of-band swaps. Marks are NUL bytes, which no text of the panel
// holds; a panel rendered without WithParts has none.

// The marks around a part (its key between partOpen and markEnd) and
// around an entry of the move list (itemOpen).
const (
	partOpen  = "\x00{"
	itemOpen  = "\x00["
	markEnd   = "\x00"
	partClose = "\x00}\x00"
	itemClose = "\x00]\x00"
)

// MoveListAppend is where Delta appends new entries of the move list: the
// last list of the game panel's moves section (Nam-nam lists the rounds
// before the current one above it).
const MoveListAppend = ".moves ol:last-of-type"

// partsKey is the context key that asks for marks.
type partsKey struct{}

// WithParts returns ctx asking the components it renders to mark the
// parts of a live game panel (for Cut).
func WithParts(ctx context.Context) context.Context {
	return context.WithValue(ctx, partsKey{}, true)
}

// part marks its children as the part key, whose root element has the id
// key (Delta replaces it there), when ctx asks for marks; key "" marks
// nothing.
func part(key string) templ.Component { return marked(partOpen, partClose, key) }

// item marks its children as the entry key of the move list, whose root
// element has the id key: Delta replaces a changed entry and appends new
// ones to MoveListAppend.
func item(key string) templ.Component { return marked(itemOpen, itemClose, key) }

// marked renders its children between open+key+markEnd and close when the
// context asks for marks, else the children alone.
func marked(open, close, key string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		children := templ.GetChildren(ctx)
		ctx = templ.ClearChildren(ctx)
		on, _ := ctx.Value(partsKey{}).(bool)
		on = on && key != ""
		if on {
			if _, err := io.WriteString(w, open+key+markEnd); err != nil {
				return err
			}
		}
		if err := children.Render(ctx, w); err != nil {
			return err
		}
		if on {
			_, err := io.WriteString(w, close)
			return err
		}
		return nil
	})
}

// Parts is a panel rendered with marks, cut up (Cut).
type Parts struct {
	// Full is the panel without its marks, as the page shows it.
	Full []byte
	// Skeleton is the panel with each part replaced by its key between
	// marks and the entries of the move list left out (one mark for them).
	Skeleton []byte
	keys     []string          // the parts, in order
	items    []string          // the move list's entries, in order
	bodies   map[string][]byte // the parts and the entries by key
}

// Cut splits a panel rendered with WithParts into its parts. A panel
// without marks is all skeleton.
func Cut(b []byte) Parts {
	p := Parts{bodies: map[string][]byte{}}
	full := make([]byte, 0, len(b))
	var skel []byte
	for {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			full, skel = append(full, b...), append(skel, b...)
			break
		}
		full, skel = append(full, b[:i]...), append(skel, b[:i]...)
		b = b[i:]
		open := string(b[:2])
		if open != partOpen && open != itemOpen {
			// A stray NUL (none is written): keep it as it is.
			full, skel, b = append(full, 0), append(skel, 0), b[1:]
			continue
		}
		end := bytes.IndexByte(b[2:], 0)
		closing := partClose
		if open == itemOpen {
			closing = itemClose
		}
		stop := -1
		if end >= 0 {
			stop = bytes.Index(b, []byte(closing))
		}
		if stop < 0 { // unbalanced marks: keep the rest as it is
			full, skel = append(full, b...), append(skel, b...)
			break
		}
		key := string(b[2 : 2+end])
		body := b[2+end+1 : stop]
		full = append(full, body...)
		p.bodies[key] = body
		if open == partOpen {
			p.keys = append(p.keys, key)
			skel = append(skel, partOpen+key+markEnd...)
		} else {
			if len(p.items) == 0 {
				skel = append(skel, itemOpen...)
			}
			p.items = append(p.items, key)
		}
		b = b[stop+len(closing):]
	}
	p.Full, p.Skeleton = full, skel
	return p
}

// Delta returns the out-of-band swaps that turn the panel prev into next
// (both of one viewer, prev of the version before): every part that
// changed and every part that is itself out of band (the status line,
// which screen readers hear at each event), each entry of the move list
// that changed, and the new entries appended to MoveListAppend. It
// returns false when only a whole panel does it: anything outside the
// parts changed, or the move list is not prev's with entries added.
func Delta(prev, next Parts) ([]byte, bool) {
	if !bytes.Equal(prev.Skeleton, next.Skeleton) || len(next.items) < len(prev.items) {
		return nil, false
	}
	for i, k := range prev.items {
		if next.items[i] != k {
			return nil, false
		}
	}
	var out []byte
	for _, k := range next.keys {
		body := next.bodies[k]
		if bytes.Contains(firstTag(body), []byte("hx-swap-oob")) {
			out = append(out, body...)
		} else if !bytes.Equal(body, prev.bodies[k]) {
			out = appendOOB(out, body)
		}
	}
	for _, k := range prev.items {
		if body := next.bodies[k]; !bytes.Equal(body, prev.bodies[k]) {
			out = appendOOB(out, body)
		}
	}
	if added := next.items[len(prev.items):]; len(added) > 0 {
		out = append(out, `<ol hx-swap-oob="beforeend:`+MoveListAppend+`">`...)
		for _, k := range added {
			out = append(out, next.bodies[k]...)
		}
		out = append(out, "</ol>"...)
	}
	return out, true
}

// firstTag returns the first tag of b ("<div id=...>").
func firstTag(b []byte) []byte {
	if i := bytes.IndexByte(b, '>'); i >= 0 {
		return b[:i+1]
	}
	return b
}

// appendOOB appends body, an element with an id, marked to replace the
// element of that id (hx-swap-oob="true").
func appendOOB(out, body []byte) []byte {
	i := bytes.IndexByte(body, '<')
	if i < 0 {
		return append(out, body...)
	}
	j := i + 1
	for j < len(body) && body[j] != ' ' && body[j] != '>' && body[j] != '/' {
		j++
	}
	out = append(out, body[:j]...)
	out = append(out, ` hx-swap-oob="true"`...)
	return append(out, body[j:]...)
}
