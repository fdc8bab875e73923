package engine

import (
	"errors"
	"testing"
)

// FuzzParsePosition: any string either parses to a position that formats
// back to the same string and sums to 48, or is refused with ErrBadPosition.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
		"0-0-0-0-0-0-0-0-0-0-0-0-24-24-N",
		"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0",
		"-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
		"48-0-0-0-0-0-0-0-0-0-0-0-0-0-X",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range []Rules{Oware{}, Oware{GrandSlam: Warri}} {
			p, err := r.ParsePosition(s)
			if err != nil {
				if !errors.Is(err, ErrBadPosition) {
					t.Fatalf("%q: error %v does not wrap ErrBadPosition", s, err)
				}
				continue
			}
			if got := r.FormatPosition(p); got != s {
				// Leading zeros are the only other spelling: the canonical
				// form must parse to the same position.
				q, err := r.ParsePosition(got)
				if err != nil || q != p {
					t.Fatalf("%q formats as %q, which parses to %+v, %v", s, got, q, err)
				}
			}
			if sum := p.BoardSeeds() + int(p.Captured[0]) + int(p.Captured[1]); sum != TotalSeeds {
				t.Fatalf("%q parsed with %d seeds", s, sum)
			}
		}
	})
}

// positionFrom builds a valid position from arbitrary bytes: the first 12
// bytes share out the seeds, the rest go to the captures.
func positionFrom(data []byte, toMove byte) Position {
	p := Oware{}.Start()
	p.Pits = [NumPits]uint8{}
	left := TotalSeeds
	for i := 0; i < NumPits && i < len(data); i++ {
		n := int(data[i]) % (left + 1)
		p.Pits[i] = uint8(n)
		left -= n
	}
	p.Captured[South] = uint8(left / 2)
	p.Captured[North] = uint8(left - left/2)
	p.ToMove = Side(toMove & 1)
	return p
}

// FuzzPlay: from any valid position, under every setting, each pit is either
// played (seeds still sum to 48, the result is a valid position string) or
// refused with the position unchanged; nothing panics.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, byte(0))
	f.Add([]byte{0, 0, 0, 0, 0, 23, 0, 1, 1, 1, 1, 1}, byte(0))
	f.Add([]byte{1, 0, 0, 0, 0, 17}, byte(0))
	f.Fuzz(func(t *testing.T, data []byte, toMove byte) {
		start := positionFrom(data, toMove)
		for _, r := range []Oware{{Abapa}, {Wari}, {Warri}} {
			legal := r.LegalMoves(start)
			for pit := 0; pit < NumPits; pit++ {
				after, _, err := r.Play(start, pit)
				if err != nil {
					if legal.Has(pit) || after != start {
						t.Fatalf("%s %s pit %d: %v (legal %v)", r.Name(), r.FormatPosition(start), pit, err, legal.Labels())
					}
					continue
				}
				if sum := after.BoardSeeds() + int(after.Captured[0]) + int(after.Captured[1]); sum != TotalSeeds {
					t.Fatalf("%s %s pit %d: %d seeds after", r.Name(), r.FormatPosition(start), pit, sum)
				}
				if _, err := r.ParsePosition(r.FormatPosition(after)); err != nil {
					t.Fatalf("position after is invalid: %v", err)
				}
			}
		}
	})
}

// FuzzReadRecord: any text is read or refused with a *RecordError, never a
// panic, within a visitor's work budget; a record that is read is written
// by Format as a record that reads back to the same game and is written
// again the same.
func FuzzReadRecord(f *testing.F) {
	for _, s := range []string{
		"[Variant \"Oware Abapa\"] [Event \"x\"]\n{c} 1. C d+2 2.B (2. F {x} (f)) a ; y\n1-0",
		"[Variant \"Nam-nam (fours: owner)\"]\n= 1. a = =\n",
		"[FEN \"1-0-0-0-0-1-1-1-0-0-0-0-23-21-S\"]\n1. F+2 b 2. A 25-21\n",
		"[Variant \"Warri\"]\n[FEN \"5-5-5-5-5-3-1-2-1-0-0-0-8-8-S\"]\n[Termination \"resignation; north wins\"]\n1. F+7 E 2. a\n",
		"[Variant \"namnam\"]\n[FEN \"" + worstNamNam + "\"]\n1. c\n",
		"[Variant \"ab\\\"apa\\\\\"]\r\n%x\r1...f",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := ReadRecord(text, ReadOptions{Budget: NewBudget(VisitorLaps)})
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) || !errors.Is(err, ErrBadRecord) || re.Line < 1 {
				t.Fatalf("%q: error %v is not a RecordError with a line", text, err)
			}
			return
		}
		out := rec.Format()
		back, err := ReadRecord(out, ReadOptions{Budget: NewBudget(VisitorLaps)})
		if err != nil {
			t.Fatalf("%q wrote %q, which reads as %v", text, out, err)
		}
		if g, h := rec.Game(), back.Game(); g.Position != h.Position || g.Over != h.Over || g.Result != h.Result || len(back.Moves) != len(rec.Moves) {
			t.Fatalf("%q wrote %q, which reads back to another game", text, out)
		}
		if again := back.Format(); again != out {
			t.Fatalf("%q: written %q, then %q", text, out, again)
		}
	})
}
