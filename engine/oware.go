package engine

import (
	"encoding/binary"
	"fmt"
)

// GrandSlamRule is the table setting of RULES.md section 3.
type GrandSlamRule uint8

// The grand slam rules.
const (
	Abapa GrandSlamRule = iota // legal, captures nothing (the standard)
	Wari                       // legal only as the last resort; captures the row and ends the game
	Warri                      // legal, captures the row, the mover moves again and must feed
)

// String returns the setting's key: "abapa", "wari" or "warri".
func (g GrandSlamRule) String() string { return [...]string{"abapa", "wari", "warri", "?"}[g&3] }

// Oware is the rule set of RULES.md sections 2 and 3: the standard Abapa
// rules with one of the three grand slam settings.
type Oware struct {
	GrandSlam GrandSlamRule
}

// Name returns the rule set key: the grand slam setting's key.
func (o Oware) Name() string { return o.GrandSlam.String() }

// Start returns 4 seeds in every pit, nothing captured, South to move.
func (o Oware) Start() Position {
	p := Position{ToMove: South, Owner: rowOwners()}
	for i := range p.Pits {
		p.Pits[i] = 4
	}
	return p
}

// ParsePosition reads `<p0>-...-<p11>-<captured South>-<captured North>-<S|N>`
// (RULES.md section 1). Errors wrap ErrBadPosition.
func (o Oware) ParsePosition(s string) (Position, error) {
	return parsePosition(s, false)
}

// FormatPosition writes p as an Oware position string.
func (o Oware) FormatPosition(p Position) string { return formatPosition(p, false) }

// Settle gives each player the seeds on their own row (RULES.md 2.6).
func (o Oware) Settle(p Position) Position {
	for i := range p.Pits {
		p.Captured[RowOf(i)] += p.Pits[i]
		p.Pits[i] = 0
	}
	return p
}

// LegalMoves returns the player to move's non-empty pits, restricted to the
// moves that feed when the opponent's row is empty (RULES.md 2.5) and, under
// wari, without grand slams while another move is legal (RULES.md 3). It is
// empty once a player has 25 captured.
func (o Oware) LegalMoves(p Position) Moves {
	if p.Captured[South] >= WinningCaptures || p.Captured[North] >= WinningCaptures {
		return 0
	}
	return o.legal(&p)
}

func (o Oware) legal(p *Position) Moves {
	me := p.ToMove
	start := RowStart(me)
	oppEmpty := rowBytes(p, me.Opponent()) == 0
	var m Moves
	for i := start; i < start+PitsPerRow; i++ {
		n := int(p.Pits[i])
		if n > 0 && (!oppEmpty || feeds(p, i)) {
			m |= 1 << i
		}
	}
	if o.GrandSlam == Wari && m != 0 && grandSlamPossible(p) {
		m = withoutGrandSlams(p, m)
	}
	return m
}

// feeds reports whether sowing pit puts a seed into the opponent's row: its
// seeds pass the end of the mover's row (RULES.md 2.5).
func feeds(p *Position, pit int) bool {
	return int(p.Pits[pit]) >= RowStart(RowOf(pit))+PitsPerRow-pit
}

// hasMove reports whether the player to move has a legal move: the fast
// form of legal(p) != 0 (wari's filter never removes every move).
func (o Oware) hasMove(p *Position) bool {
	lo := binary.LittleEndian.Uint64(p.Pits[:8])
	south, north := lo&0xFFFF_FFFF_FFFF, lo>>48|uint64(binary.LittleEndian.Uint32(p.Pits[8:]))<<16
	own, opp := south, north
	if p.ToMove == North {
		own, opp = north, south
	}
	if own == 0 || opp != 0 {
		return own != 0
	}
	return o.legal(p) != 0
}

// rowBytes returns the six pit counts of side s's row packed a byte each,
// pit RowStart(s) in the lowest byte: zero exactly when the row is empty.
func rowBytes(p *Position, s Side) uint64 {
	lo := binary.LittleEndian.Uint64(p.Pits[:8])
	if s == South {
		return lo & 0xFFFF_FFFF_FFFF
	}
	return lo>>48 | uint64(binary.LittleEndian.Uint32(p.Pits[8:]))<<16
}

// grandSlamPossible is a quick test: sowing only adds seeds to the opponent's
// row, so a pit already holding 4 or more can never be captured.
func grandSlamPossible(p *Position) bool {
	start := RowStart(p.ToMove.Opponent())
	for _, c := range p.Pits[start : start+PitsPerRow] {
		if c > 3 {
			return false
		}
	}
	return true
}

// withoutGrandSlams removes the grand slams from m unless only grand slams are left.
func withoutGrandSlams(p *Position, m Moves) Moves {
	var quiet Moves
	for i := 0; i < NumPits; i++ {
		if m.Has(i) {
			if !isGrandSlam(*p, i) {
				quiet |= 1 << i
			}
		}
	}
	if quiet == 0 {
		return m
	}
	return quiet
}

// Play sows pit for the player to move (RULES.md 2 and 3). See Rules.Play.
func (o Oware) Play(p Position, pit int) (Position, Move, error) {
	if err := o.check(&p, pit); err != nil {
		return p, Move{}, err
	}
	mv := Move{Pit: pit, Mover: p.ToMove, Sown: sowingOrder(pit, int(p.Pits[pit]))}
	o.apply(&p, pit, &mv)
	return p, mv, nil
}

// Apply plays pit for the player to move on p in place, as Play does but
// without checking the move and without its record: pit must be one of
// LegalMoves(*p). It reports whether the game ended (p is then as Play
// returns it, settled when the game ended without 25 captured). Apply never
// reads the captures except for the 25-seed end, so callers may start from
// captures of their own (the endgame tables play from none, which ignores
// the 25-seed end for up to 24 seeds on the board). It is the fast form of
// Play for searches: no allocation.
func (o Oware) Apply(p *Position, pit int) (over bool) { return o.apply(p, pit, nil) }

// check explains why pit is not a legal move in p, or returns nil.
func (o Oware) check(p *Position, pit int) error {
	if pit < 0 || pit >= NumPits {
		return fmt.Errorf("%w: %d", ErrBadPit, pit)
	}
	legal := o.LegalMoves(*p)
	switch {
	case legal.Has(pit):
		return nil
	case legal == 0:
		return ErrGameOver
	case RowOf(pit) != p.ToMove:
		return fmt.Errorf("%w: pit %s is on the other player's row", ErrNotOwnPit, Label(pit))
	case p.Pits[pit] == 0:
		return fmt.Errorf("%w: pit %s", ErrEmptyPit, Label(pit))
	case !feeds(p, pit):
		return fmt.Errorf("%w: pit %s", ErrMustFeed, Label(pit))
	}
	return fmt.Errorf("%w: pit %s", ErrGrandSlamForbidden, Label(pit))
}

// apply plays the legal move pit on p in place and runs the end checks of
// RULES.md 3 ("Fine points"), in order. When mv is not nil it records what
// happened. It returns whether the game ended.
func (o Oware) apply(p *Position, pit int, mv *Move) bool {
	me := p.ToMove
	last := sow(p, pit)
	from, taken, gs := captureChain(p, last)
	take := taken > 0 && (!gs || o.GrandSlam != Abapa)
	if take {
		if mv != nil {
			for i := last; i >= from; i-- {
				mv.Captures = append(mv.Captures, Capture{Pit: i, Seeds: int(p.Pits[i]), By: me})
			}
		}
		for i := from; i <= last; i++ {
			p.Pits[i] = 0
		}
		p.Captured[me] += uint8(taken)
	}
	extra := gs && o.GrandSlam == Warri
	if !extra {
		p.ToMove = me.Opponent()
	}
	if mv != nil {
		mv.GrandSlam, mv.ExtraTurn = gs, extra
	}
	return o.endChecks(p, me, gs, mv)
}

// endChecks applies the end of game after a move by mover (RULES.md 3, fine points).
func (o Oware) endChecks(p *Position, mover Side, gs bool, mv *Move) bool {
	var reason Reason
	switch {
	case p.Captured[mover] >= WinningCaptures:
		if mv != nil {
			mv.Over, mv.Reason, mv.Result = true, ReasonMajority, Winner(mover)
		}
		return true
	case gs && o.GrandSlam == Wari:
		reason = ReasonGrandSlam
	case !o.hasMove(p):
		reason = noMoveReason(p)
	default:
		return false
	}
	settled := o.Settle(*p)
	if mv != nil {
		mv.Over, mv.Reason = true, reason
		mv.Result = resultByCaptures(&settled)
		for s := South; s <= North; s++ {
			mv.FinalCaptures[s] = int(settled.Captured[s] - p.Captured[s])
		}
	}
	*p = settled
	return true
}

// noMoveReason tells why the player to move in p has no legal move.
func noMoveReason(p *Position) Reason {
	if p.RowSeeds(p.ToMove) == 0 {
		return ReasonNoMoves
	}
	return ReasonCannotFeed
}

// sow lifts the seeds of pit and sows them one by one into the following
// pits, skipping pit itself on every lap (RULES.md 2.1, 2.2). It returns the
// last pit sown. The pits are added to as two words, a byte a pit: no count
// can pass 48, so no byte ever carries into the next.
func sow(p *Position, pit int) int {
	n := int(p.Pits[pit])
	p.Pits[pit] = 0
	lo := binary.LittleEndian.Uint64(p.Pits[:8])
	hi := binary.LittleEndian.Uint32(p.Pits[8:])
	last := -1
	if n >= NumPits {
		laps := n / (NumPits - 1)
		lo += uint64(laps) * bytesLo
		hi += uint32(laps) * bytesHi
		if pit < 8 {
			lo -= uint64(laps) << (8 * pit)
		} else {
			hi -= uint32(laps) << (8 * (pit - 8))
		}
		if n %= NumPits - 1; n == 0 {
			last = (pit + NumPits - 1) % NumPits
		}
	}
	if last < 0 {
		a, b := pit+1, pit+1+n
		if b > NumPits {
			addOnes(&lo, &hi, 0, b-NumPits)
			b = NumPits
		}
		addOnes(&lo, &hi, a, b)
		last = (pit + n) % NumPits
	}
	binary.LittleEndian.PutUint64(p.Pits[:8], lo)
	binary.LittleEndian.PutUint32(p.Pits[8:], hi)
	return last
}

// A one in every byte of the low and high words of the pits.
const (
	bytesLo = 0x0101_0101_0101_0101
	bytesHi = 0x0101_0101
)

// addOnes adds one seed to each of the pits a..b-1 (0 <= a <= b <= 12).
func addOnes(lo *uint64, hi *uint32, a, b int) {
	bl, bh := onesBelow(b)
	al, ah := onesBelow(a)
	*lo += bl - al
	*hi += bh - ah
}

// onesBelow returns the words with a one in the bytes of pits 0..k-1
// (0 <= k <= 12). Shifts of 64 or 32 and more give 0 in Go.
func onesBelow(k int) (uint64, uint32) {
	return bytesLo >> (64 - 8*min(k, 8)), bytesHi >> (96 - 8*max(k, 8))
}

// captureChain finds the capture of RULES.md 2.3 after a sowing by the player
// to move that ended in pit last: the pits from..last on the opponent's row,
// the seeds they hold, and whether they are all the seeds on that row (a
// grand slam, RULES.md 2.4). taken is 0 when nothing can be captured.
func captureChain(p *Position, last int) (from, taken int, grandSlam bool) {
	opp := p.ToMove.Opponent()
	start := RowStart(opp)
	if RowOf(last) != opp {
		return last, 0, false
	}
	from = last
	for from >= start && (p.Pits[from] == 2 || p.Pits[from] == 3) {
		taken += int(p.Pits[from])
		from--
	}
	from++
	return from, taken, taken > 0 && taken == p.RowSeeds(opp)
}

// isGrandSlam reports whether sowing pit in p would be a grand slam.
func isGrandSlam(p Position, pit int) bool {
	_, _, gs := captureChain(&p, sow(&p, pit))
	return gs
}

// sowingOrder lists the pits that n seeds sown from pit fall into, in order.
func sowingOrder(pit, n int) []int {
	order := make([]int, 0, n)
	for j := pit; len(order) < n; {
		if j = (j + 1) % NumPits; j != pit {
			order = append(order, j)
		}
	}
	return order
}
