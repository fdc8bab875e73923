package search

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"oware/engine"
)

// pitCounts is how many seed counts a PitTable tells apart: 0 to 14, and
// 15 or more.
const pitCounts = 16

// PitTable is the learned part of the evaluation: a value in centi-seeds
// for each pit, counted from the player to move's first pit (0..5 their
// row, 6..11 the opponent's), and each seed count of it (0..14, then 15
// or more), added up over the twelve pits. It is fitted to labels by
// FitPits (oware-engine tune --pits) on top of the Weights' terms.
type PitTable [engine.NumPits][pitCounts]int32

// evaluate sums p's pits' values for the player to move.
func (t *PitTable) evaluate(p *engine.Position) int32 {
	first := engine.RowStart(p.ToMove)
	var v int32
	for r := range engine.NumPits {
		v += t[r][min(int(p.Pits[(first+r)%engine.NumPits]), pitCounts-1)]
	}
	return v
}

// defaultPits is the pit table DefaultWeights play with, fitted by
// oware-engine tune --pits (docs/engine.md, "Fitting the evaluation").
//
//go:embed pits.txt
var defaultPits string

// DefaultPits returns the pit table the default weights play with.
func DefaultPits() *PitTable {
	t, err := ReadPitTable(strings.NewReader(defaultPits))
	if err != nil {
		panic("search: the embedded pit table: " + err.Error())
	}
	return t
}

// pitsHeader starts a pit table file.
const pitsHeader = "oware-pits 1"

// Write writes t as ReadPitTable reads it: the header, then a line a pit
// (from the mover's first) of its 16 values.
func (t *PitTable) Write(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintln(b, pitsHeader)
	for r := range t {
		for c, v := range t[r] {
			if c > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(int(v)))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ReadPitTable reads a pit table file (see Write); values -10000..10000.
func ReadPitTable(rd io.Reader) (*PitTable, error) {
	sc := bufio.NewScanner(rd)
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != pitsHeader {
		return nil, fmt.Errorf("pit table: want %q first", pitsHeader)
	}
	var t PitTable
	for r := range t {
		if !sc.Scan() {
			return nil, fmt.Errorf("pit table: %d lines of values, want %d", r, engine.NumPits)
		}
		f := strings.Fields(sc.Text())
		if len(f) != pitCounts {
			return nil, fmt.Errorf("pit table: line %d has %d values, want %d", r+2, len(f), pitCounts)
		}
		for c, s := range f {
			v, err := strconv.Atoi(s)
			if err != nil || v < -10000 || v > 10000 {
				return nil, fmt.Errorf("pit table: line %d: %q is not a value -10000..10000", r+2, s)
			}
			t[r][c] = int32(v)
		}
	}
	return &t, sc.Err()
}

// FitPits fits a pit table to samples on top of w's terms (w's own table
// left out): full-batch gradient descent, rounds steps of rate, on Loss
// with a small pull of every value towards 0 (so that rare counts stay
// near it). The result depends only on its arguments.
func FitPits(samples []Sample, w Weights, rounds int, rate float64) *PitTable {
	w.Pits = nil
	base := make([]float64, len(samples))
	feats := make([][engine.NumPits]int, len(samples))
	for i := range samples {
		p := &samples[i].Pos
		base[i] = float64(w.evaluate(p))
		first := engine.RowStart(p.ToMove)
		for r := range engine.NumPits {
			feats[i][r] = r*pitCounts + min(int(p.Pits[(first+r)%engine.NumPits]), pitCounts-1)
		}
	}
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v/fitScale)) }
	var x, grad [engine.NumPits * pitCounts]float64
	const decay = 1e-7
	for range rounds {
		clear(grad[:])
		for i := range samples {
			e := base[i]
			for _, f := range feats[i] {
				e += x[f]
			}
			s := sig(e)
			d := 2 * (s - sig(float64(samples[i].Target))) * s * (1 - s) / fitScale
			for _, f := range feats[i] {
				grad[f] += d
			}
		}
		for f := range x {
			x[f] -= rate * (grad[f]/float64(len(samples)) + decay*x[f])
		}
	}
	var t PitTable
	for f, v := range x {
		t[f/pitCounts][f%pitCounts] = int32(math.Round(v))
	}
	return &t
}
