package search

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"math/bits"
	"sort"

	"oware/engine"
)

// The opening book: Abapa positions near the start with a value for each
// legal move, found by our own search (oware-engine book, drop-out
// expansion; see BuildBook) and embedded in the binary. Levels 6 to 8
// play from it (Level.UsesBook); Searcher.BookMove picks among the moves
// within BookMargin of the best, the better the likelier.
//
// The file: the 8 bytes bookMagic, then records of bookRecord bytes sorted
// by their key: the position packed (pits 0..11, South's and North's
// captures, the player to move, a zero byte), then the value of sowing
// each pit of the mover's row in centi-seeds for the mover, int16 little
// endian, noMove for a pit that is not a legal move.
//
//go:embed book/abapa.book
var abapaBook []byte

const (
	bookMagic  = "OWAREBK1"
	bookKey    = 16
	bookRecord = bookKey + 2*engine.PitsPerRow
	noMove     = -32768
	// BookMargin is how far below the best move's value (centi-seeds) a
	// book move may be and still be played.
	BookMargin = 30
)

// bookKeyOf packs p as a book record's key.
func bookKeyOf(p *engine.Position) [bookKey]byte {
	var k [bookKey]byte
	copy(k[:], p.Pits[:])
	k[12], k[13], k[14] = p.Captured[0], p.Captured[1], byte(p.ToMove)
	return k
}

// Book is an opening book in the file format above (read-only; safe for
// concurrent use).
type Book struct{ data []byte }

// ErrBadBook is returned for a book file that is not one.
var ErrBadBook = errors.New("search: not an opening book")

// ParseBook checks a book file's shape and returns the book over it.
func ParseBook(data []byte) (*Book, error) {
	if len(data) < len(bookMagic) || string(data[:len(bookMagic)]) != bookMagic || (len(data)-len(bookMagic))%bookRecord != 0 {
		return nil, ErrBadBook
	}
	b := &Book{data: data[len(bookMagic):]}
	for i := 1; i < b.Len(); i++ {
		if bytes.Compare(b.key(i-1), b.key(i)) >= 0 {
			return nil, ErrBadBook
		}
	}
	return b, nil
}

// DefaultBook returns the Abapa book embedded in the binary.
func DefaultBook() *Book {
	b, err := ParseBook(abapaBook)
	if err != nil {
		return &Book{}
	}
	return b
}

// Len is the number of positions in the book.
func (b *Book) Len() int { return len(b.data) / bookRecord }

func (b *Book) key(i int) []byte { return b.data[i*bookRecord : i*bookRecord+bookKey] }

// Moves returns the values of the moves of p in the book (centi-seeds for
// the player to move, indexed by pit; ok false when p is not in it).
func (b *Book) Moves(p *engine.Position) (values [engine.NumPits]int, legal engine.Moves, ok bool) {
	k := bookKeyOf(p)
	i := sort.Search(b.Len(), func(i int) bool { return bytes.Compare(b.key(i), k[:]) >= 0 })
	if i == b.Len() || !bytes.Equal(b.key(i), k[:]) {
		return values, 0, false
	}
	rec := b.data[i*bookRecord+bookKey : (i+1)*bookRecord]
	start := engine.RowStart(p.ToMove)
	for j := range engine.PitsPerRow {
		v := int16(binary.LittleEndian.Uint16(rec[2*j:]))
		if v != noMove {
			values[start+j] = int(v)
			legal |= 1 << (start + j)
		}
	}
	return values, legal, legal != 0
}

// Choose picks a move of p from the book: one of the moves within margin
// centi-seeds of the best, at random by seed with weights that fall from
// margin+1 (the best) to 1 (margin below it). ok is false when p is not
// in the book.
func (b *Book) Choose(p *engine.Position, margin int, seed uint64) (pit int, ok bool) {
	values, legal, ok := b.Moves(p)
	if !ok {
		return -1, false
	}
	best := -1 << 30
	for m := uint16(legal); m != 0; m &= m - 1 {
		best = max(best, values[bits.TrailingZeros16(m)])
	}
	var pits [engine.NumPits]int
	var weights [engine.NumPits]int
	n, total := 0, 0
	for m := uint16(legal); m != 0; m &= m - 1 {
		pit := bits.TrailingZeros16(m)
		if gap := best - values[pit]; gap <= margin {
			pits[n], weights[n] = pit, margin-gap+1
			total += weights[n]
			n++
		}
	}
	state := seed ^ bookSeedKey(p)
	r := int(splitmix64(&state) % uint64(total))
	for i := range n {
		if r < weights[i] {
			return pits[i], true
		}
		r -= weights[i]
	}
	return pits[n-1], true
}

// bookSeedKey mixes the position into the choice, so that one game's seed
// picks independently at each position.
func bookSeedKey(p *engine.Position) uint64 {
	k := bookKeyOf(p)
	return binary.LittleEndian.Uint64(k[:8]) ^ binary.LittleEndian.Uint64(k[8:])*0x9E3779B97F4A7C15
}

// UsesBook reports whether the level plays from the opening book: levels
// 6 to 8.
func (l Level) UsesBook() bool { return l >= 6 && l <= MaxLevel }

// BookMove returns the book's move for g at level with seed (the game's
// seed varies the choice), ok false when the level plays no book, g is not
// Abapa, its position is not in the book, or the move would end the game
// (a repetition the book does not know about).
func (s *Searcher) BookMove(g *engine.Game, level Level, seed uint64) (int, bool) {
	if s.Book == nil || !level.UsesBook() || g.Over {
		return -1, false
	}
	if o, ok := g.Rules.(engine.Oware); !ok || o.GrandSlam != engine.Abapa {
		return -1, false
	}
	pit, ok := s.Book.Choose(&g.Position, BookMargin, seed)
	if !ok || !g.LegalMoves().Has(pit) {
		return -1, false
	}
	after := g.Clone()
	if _, err := after.Play(pit); err != nil || after.Over {
		return -1, false
	}
	return pit, true
}

// appendBookRecord appends the record of p with the move values (indexed
// by pit; legal says which count) to a book file under construction;
// records must come in key order.
func appendBookRecord(dst []byte, p *engine.Position, values [engine.NumPits]int, legal engine.Moves) []byte {
	k := bookKeyOf(p)
	dst = append(dst, k[:]...)
	start := engine.RowStart(p.ToMove)
	for j := range engine.PitsPerRow {
		v := int16(noMove)
		if legal.Has(start + j) {
			v = int16(max(min(values[start+j], 32767), -32767))
		}
		dst = binary.LittleEndian.AppendUint16(dst, uint16(v))
	}
	return dst
}
