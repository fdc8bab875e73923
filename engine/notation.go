package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// parsePosition reads a position string of RULES.md section 1 and, with
// extended, the Nam-nam form of section 4:
// `<p0>-...-<p11>-<capS>-<capN>-<S|N>[-<owners>-<storeS>-<storeN>]`.
// Without extended, every pit is owned by its row's side.
func parsePosition(s string, extended bool) (Position, error) {
	fields := strings.Split(s, "-")
	want := 15
	if extended {
		want = 18
	}
	if len(fields) != want {
		return Position{}, badPosition(s, "has %d fields separated by '-', want %d", len(fields), want)
	}
	var p Position
	total := 0
	for i := 0; i < NumPits+2; i++ {
		n, err := seedCount(fields[i])
		if err != nil {
			return Position{}, badPosition(s, "%s: %v", fieldName(i), err)
		}
		total += n
		if i < NumPits {
			p.Pits[i] = uint8(n)
		} else {
			p.Captured[i-NumPits] = uint8(n)
		}
	}
	switch fields[14] {
	case "S":
		p.ToMove = South
	case "N":
		p.ToMove = North
	default:
		return Position{}, badPosition(s, "player to move is %q, want S or N", fields[14])
	}
	p.Owner = rowOwners()
	if extended {
		if err := parseOwners(&p, fields[15]); err != nil {
			return Position{}, badPosition(s, "%v", err)
		}
		for i, f := range fields[16:] {
			n, err := seedCount(f)
			if err != nil {
				return Position{}, badPosition(s, "store of %s: %v", Side(i), err)
			}
			total += n
			p.Store[i] = uint8(n)
		}
	}
	if total != TotalSeeds {
		return Position{}, badPosition(s, "holds %d seeds, want %d", total, TotalSeeds)
	}
	return p, nil
}

func badPosition(s, format string, args ...any) error {
	return fmt.Errorf("%w %q: %s", ErrBadPosition, s, fmt.Sprintf(format, args...))
}

// fieldName names field i of a position string for error messages.
func fieldName(i int) string {
	switch i {
	case NumPits:
		return "captures of South"
	case NumPits + 1:
		return "captures of North"
	}
	return "pit " + Label(i)
}

// seedCount reads a count of seeds: plain decimal digits, 0..48.
func seedCount(f string) (int, error) {
	if f == "" {
		return 0, fmt.Errorf("empty count (counts are whole numbers 0..%d, never negative)", TotalSeeds)
	}
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a count of seeds (a whole number 0..%d)", f, TotalSeeds)
		}
	}
	n, err := strconv.Atoi(f)
	if err != nil || n > TotalSeeds {
		return 0, fmt.Errorf("%q is more than the %d seeds of the game", f, TotalSeeds)
	}
	return n, nil
}

func parseOwners(p *Position, f string) error {
	if len(f) != NumPits {
		return fmt.Errorf("owners %q: want %d letters S, N or x", f, NumPits)
	}
	for i := 0; i < NumPits; i++ {
		switch f[i] {
		case 'S':
			p.Owner[i] = South
		case 'N':
			p.Owner[i] = North
		case 'x':
			p.Owner[i] = Nobody
		default:
			return fmt.Errorf("owner of pit %s is %q, want S, N or x", Label(i), f[i])
		}
	}
	return nil
}

// formatPosition writes the position string of p; extended adds the owners
// and stores of the Nam-nam form.
func formatPosition(p Position, extended bool) string {
	b := make([]byte, 0, 64)
	for _, n := range p.Pits {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, '-')
	}
	b = strconv.AppendInt(b, int64(p.Captured[South]), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(p.Captured[North]), 10)
	b = append(b, '-', p.ToMove.Letter())
	if extended {
		b = append(b, '-')
		for _, o := range p.Owner {
			b = append(b, o.Letter())
		}
		b = append(b, '-')
		b = strconv.AppendInt(b, int64(p.Store[South]), 10)
		b = append(b, '-')
		b = strconv.AppendInt(b, int64(p.Store[North]), 10)
	}
	return string(b)
}

// ParseMoves reads a game record's moves: labels separated by spaces, such
// as "C d B a". Move numbers like "1." are skipped. Errors name the word and
// wrap ErrBadLabel.
func ParseMoves(s string) ([]int, error) {
	var pits []int
	for _, w := range strings.Fields(s) {
		if w = stripMoveNumber(w); strings.Trim(w, ".…") == "" {
			continue
		}
		pit, err := ParseLabel(w)
		if err != nil {
			return nil, err
		}
		pits = append(pits, pit)
	}
	return pits, nil
}
