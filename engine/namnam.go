package engine

import (
	"encoding/binary"
	"fmt"
)

// FoursRule is Nam-nam's `fours` table setting (RULES.md 4.3a).
type FoursRule uint8

// The fours settings.
const (
	FoursLast  FoursRule = iota // only the last seed's four is captured, by the mover
	FoursOwner                  // also every four made mid-sowing, by the pit's owner
)

// String returns the setting's key: "last" or "owner".
func (f FoursRule) String() string {
	if f == FoursOwner {
		return "owner"
	}
	return "last"
}

// NamNam is the rule set of RULES.md section 4: relay sowing, captures of
// four on any pit, pit ownership and a match of rounds. It implements Rules
// and Rounds.
//
// The endless-sowing check (RULES.md 4.4) of a position can take millions of
// relay laps (0.2 s for the worst position known). Cache and Budget, both
// optional, bound that cost: give every NamNam of a process the same Cache,
// and a NamNam that works on a position a visitor supplied a Budget of its
// own. Neither changes which moves are legal.
type NamNam struct {
	Fours FoursRule
	// Cache, when not nil, keeps the legal moves of the positions checked.
	Cache *LegalCache
	// Budget, when not nil, bounds the laps of the checks. Once it runs
	// out, Play (and so Game.Play and ParseRecord) fails with an error
	// wrapping ErrTooMuchWork, and LegalMoves returns only the moves it
	// could decide: check Budget.Err before trusting it.
	Budget *Budget
}

// Name returns "namnam".
func (n NamNam) Name() string { return "namnam" }

// Start returns the first round: 4 seeds in every pit, each row owned by its
// side, empty stores, South to move.
func (n NamNam) Start() Position { return Oware{}.Start() }

// ParsePosition reads the extended position string of RULES.md 4:
// `<p0>-...-<p11>-<capS>-<capN>-<S|N>-<owners>-<storeS>-<storeN>`, owners
// being 12 letters S, N or x. Errors wrap ErrBadPosition.
func (n NamNam) ParsePosition(s string) (Position, error) { return parsePosition(s, true) }

// FormatPosition writes the extended position string of p.
func (n NamNam) FormatPosition(p Position) string { return formatPosition(p, true) }

// Settle ends the round: each player captures the seeds in the pits they
// own; a pit owned by nobody goes to the player whose row it is on (RULES.md 4.5).
func (n NamNam) Settle(p Position) Position {
	for i := range p.Pits {
		owner := p.Owner[i]
		if owner == Nobody {
			owner = RowOf(i)
		}
		p.Captured[owner] += p.Pits[i]
		p.Pits[i] = 0
	}
	return p
}

// LegalMoves returns the non-empty pits the player to move owns whose
// sowing ends (RULES.md 4.2, 4.4); empty when fewer than 4 seeds are left.
// See Budget for a check that ran out of work.
func (n NamNam) LegalMoves(p Position) Moves {
	m, _ := n.legalMoves(&p, false)
	return m
}

// legalMoves is LegalMoves with the budget's error. With first and no
// cache it stops at the first legal move (enough to know there is one).
func (n NamNam) legalMoves(p *Position, first bool) (Moves, error) {
	if p.BoardSeeds() < 4 {
		return 0, nil
	}
	key := legalKey{fours: n.Fours, toMove: p.ToMove, pits: p.Pits, owner: p.Owner}
	if n.Cache != nil {
		if m, ok := n.Cache.get(key); ok {
			return m, nil
		}
	}
	var m Moves
	laps := int64(0)
	for i := 0; i < NumPits; i++ {
		if p.Owner[i] != p.ToMove || p.Pits[i] == 0 {
			continue
		}
		endless, spent, err := n.endless(p, i)
		if err != nil {
			return m, err
		}
		laps += spent
		if !endless {
			m |= 1 << i
			if first && (n.Cache == nil || laps < cachedLaps) {
				return m, nil
			}
		}
	}
	if n.Cache != nil && laps >= cachedLaps {
		n.Cache.put(key, m)
	}
	return m, nil
}

// cachedLaps is the work from which a position's legal moves are worth
// keeping in a LegalCache (about 10 µs); cheaper ones are checked again.
const cachedLaps = 2048

// endless reports whether the sowing of pit never ends (RULES.md 4.4) and
// the laps it took to decide, or ErrTooMuchWork when the budget ran out
// first.
func (n NamNam) endless(p *Position, pit int) (bool, int64, error) {
	if n.Budget != nil && n.Budget.Err() != nil {
		return false, 0, ErrTooMuchWork
	}
	var endless, done bool
	var laps int64
	if n.Fours == FoursLast {
		endless, laps, done = endlessLast(p, pit, n.Budget)
	} else {
		_, endless, laps, done = n.relay(*p, pit, nil, n.Budget)
	}
	if !done {
		return false, laps, ErrTooMuchWork
	}
	return endless, laps, nil
}

// Play sows pit for the player to move with relays and captures of four
// (RULES.md 4.2-4.4). When the round ends (fewer than 4 seeds on the board,
// or the next player has no legal move) the returned position is settled and
// the Move says RoundOver; Game starts the next round. Errors: see Rules.Play.
func (n NamNam) Play(p Position, pit int) (Position, Move, error) {
	if err := n.check(&p, pit); err != nil {
		return p, Move{}, err
	}
	mv := Move{Pit: pit, Mover: p.ToMove, Lifts: []int{pit}}
	next, reason, err := n.turn(p, pit, &mv)
	if err != nil {
		return p, Move{}, err
	}
	if reason == "" {
		return next, mv, nil
	}
	mv.RoundOver, mv.RoundReason = true, reason
	settled := n.Settle(next)
	for s := South; s <= North; s++ {
		mv.FinalCaptures[s] = int(settled.Captured[s] - next.Captured[s])
	}
	return settled, mv, nil
}

// Apply plays pit in place as Play does, without recording the move: the
// search's move, whose cost and memory stay those of the legality checks
// (Play records every lap of a relay). It reports whether the round ended
// (p is then settled). An illegal move, or a Budget that ran out, returns
// Play's error and leaves p unchanged.
func (n NamNam) Apply(p *Position, pit int) (roundOver bool, err error) {
	if err := n.check(p, pit); err != nil {
		return false, err
	}
	next, reason, err := n.turn(*p, pit, nil)
	switch {
	case err != nil:
		return false, err
	case reason == "":
		*p = next
		return false, nil
	}
	*p = n.Settle(next)
	return true, nil
}

// turn sows pit (checked legal) from p, recording the laps in mv unless it
// is nil, and hands the move to the opponent: the position after it, not
// settled, and why the round ends there ("" while it goes on). An error
// (a Budget that ran out deciding the next moves) leaves no position.
func (n NamNam) turn(p Position, pit int, mv *Move) (Position, Reason, error) {
	next, _, _, _ := n.relay(p, pit, mv, nil)
	next.ToMove = p.ToMove.Opponent()
	if next.BoardSeeds() < 4 {
		return next, ReasonFewSeeds, nil
	}
	m, err := n.legalMoves(&next, true)
	switch {
	case err != nil:
		return p, "", fmt.Errorf("%w: the moves after %s", err, Label(pit))
	case m != 0:
		return next, "", nil
	}
	return next, ReasonNoMoves, nil
}

func (n NamNam) check(p *Position, pit int) error {
	switch {
	case pit < 0 || pit >= NumPits:
		return fmt.Errorf("%w: %d", ErrBadPit, pit)
	case p.BoardSeeds() < 4:
		return ErrGameOver
	case p.Owner[pit] != p.ToMove:
		return fmt.Errorf("%w: pit %s belongs to %s", ErrNotOwnPit, Label(pit), p.Owner[pit])
	case p.Pits[pit] == 0:
		return fmt.Errorf("%w: pit %s", ErrEmptyPit, Label(pit))
	}
	var endless bool
	var err error
	if n.Cache != nil {
		var m Moves
		m, err = n.legalMoves(p, false)
		endless = !m.Has(pit)
	} else {
		endless, _, err = n.endless(p, pit)
	}
	switch {
	case err != nil:
		return fmt.Errorf("%w: pit %s", err, Label(pit))
	case endless:
		return fmt.Errorf("%w: pit %s", ErrEndlessSowing, Label(pit))
	}
	return nil
}

// packedLap is a relay lap of the `last` setting with the pits packed a
// byte each into two words (see sow), so that a lap is a few additions.
type packedLap struct {
	lo         uint64 // pits 0..7
	hi         uint32 // pits 8..11
	from, hand uint
}

// endlessLast is relay's cycle detection for the `last` setting, without
// recording: the same laps as step, about ten times faster. It returns the
// laps taken; done is false when the budget ran out before the answer.
func endlessLast(p *Position, pit int, b *Budget) (endless bool, laps int64, done bool) {
	hare := packedLap{from: uint(pit), hand: uint(p.Pits[pit])}
	pits := p.Pits
	pits[pit] = 0
	hare.lo = binary.LittleEndian.Uint64(pits[:8])
	hare.hi = binary.LittleEndian.Uint32(pits[8:])
	ones := &sowingOnes
	tortoise := hare
	defer func() { b.charge(laps % budgetChunk) }()
	for power, length := 1, 0; ; {
		if laps++; hare.step(ones) {
			return false, laps, true
		}
		if length++; hare == tortoise {
			return true, laps, true
		}
		if length == power {
			tortoise, power, length = hare, power*2, 0
		}
		if laps%budgetChunk == 0 && !b.charge(budgetChunk) {
			return false, laps, false
		}
	}
}

// onesTable holds, for k = 0..23, the words with a one in each pit of
// 0..k-1 counted round the board: for k > 12 a whole lap plus pits
// 0..k-13. A sowing of fewer than 12 seeds into pits a..b-1 (b may pass
// 12) adds ones[b] - ones[a], with no byte borrowing from the next.
type onesTable [2 * NumPits]struct {
	lo uint64
	hi uint32
}

// sowingOnes is the onesTable of every check, filled once.
var sowingOnes = *newOnesTable()

// newOnesTable fills an onesTable.
func newOnesTable() *onesTable {
	var t onesTable
	for k := range t {
		t[k].lo, t[k].hi = onesBelow(min(k, NumPits))
		if k > NumPits {
			lo, hi := onesBelow(k - NumPits)
			t[k].lo += lo
			t[k].hi += hi
		}
	}
	return &t
}

// step sows the seeds in hand, skipping no pit, and lifts the last pit
// unless the sowing ends there (it was empty, or held 3: a capture). It
// reports whether the sowing ended. Apart from the rare hand of 12 or more
// it has no branch that depends on the board.
func (l *packedLap) step(ones *onesTable) bool {
	rest := l.hand
	if rest >= NumPits {
		laps := rest / NumPits
		rest -= laps * NumPits
		l.lo += uint64(laps) * bytesLo
		l.hi += uint32(laps) * bytesHi
	}
	a, b := l.from+1, l.from+1+rest
	l.lo += ones[b].lo - ones[a].lo
	l.hi += ones[b].hi - ones[a].hi
	last := l.from + rest
	if last >= NumPits {
		last -= NumPits
	}
	// One of the two shifts is out of range (64 or more, or wrapped
	// round), which gives 0: the byte comes from, and is cleared in, the
	// word that holds it.
	shLo, shHi := 8*last, 8*last-64
	seeds := uint(l.lo>>shLo&0xff) | uint(l.hi>>shHi&0xff)
	l.lo &^= 0xff << shLo
	l.hi &^= 0xff << shHi
	l.from, l.hand = last, seeds
	return seeds == 1 || seeds == 4
}

// lap is the state of a relay when seeds have just been lifted: everything
// the rest of the sowing depends on.
type lap struct {
	pits     [NumPits]uint8
	captured [2]uint8
	from     uint8 // the pit just emptied
	hand     uint8 // seeds in hand
	done     bool  // the sowing has ended
}

// same reports whether two laps continue identically. Captures only grow and
// take seeds off the board, so equal pits mean equal captures.
func (a *lap) same(b *lap) bool { return a.pits == b.pits && a.from == b.from && a.hand == b.hand }

// relay plays the sowing of pit by p.ToMove and returns the position after
// it (player to move unchanged) and whether the sowing never ends. It finds
// an endless sowing with Brent's cycle detection over laps, in constant
// memory (RULES.md 4.4). With mv it records the sowing. It returns the laps
// taken; done is false when budget b ran out before the answer.
func (n NamNam) relay(p Position, pit int, mv *Move, b *Budget) (after Position, endless bool, laps int64, done bool) {
	hare := lap{pits: p.Pits, captured: p.Captured, from: uint8(pit), hand: p.Pits[pit]}
	hare.pits[pit] = 0
	tortoise := hare
	power, length := 1, 0
	defer func() { b.charge(laps % budgetChunk) }()
	for {
		laps++
		n.step(&hare, &p, mv)
		if hare.done {
			p.Pits, p.Captured = hare.pits, hare.captured
			return p, false, laps, true
		}
		if length++; hare.same(&tortoise) {
			return p, true, laps, true
		}
		if length == power {
			tortoise, power, length = hare, power*2, 0
		}
		if laps%budgetChunk == 0 && !b.charge(budgetChunk) {
			return p, false, laps, false
		}
	}
}

// step sows the seeds in hand from l.from + 1 on, skipping no pit, and
// applies RULES.md 4.3 to the last seed: an empty pit ends the move, a pit
// that held 3 is captured by the mover and ends it, any other is lifted.
func (n NamNam) step(l *lap, p *Position, mv *Move) {
	at := int(l.from)
	for hand := l.hand; hand > 0; hand-- {
		if at++; at == NumPits {
			at = 0
		}
		l.pits[at]++
		if mv != nil {
			mv.Steps++
			if len(mv.Sown) < MaxRecordedSown {
				mv.Sown = append(mv.Sown, at)
			}
		}
		if hand > 1 && n.Fours == FoursOwner && l.pits[at] == 4 && p.Owner[at] != Nobody {
			n.capture(l, at, p.Owner[at], mv)
		}
	}
	switch l.pits[at] {
	case 1:
		l.done = true
	case 4:
		n.capture(l, at, p.ToMove, mv)
		l.done = true
	default:
		l.from, l.hand = uint8(at), l.pits[at]
		l.pits[at] = 0
		if mv != nil {
			mv.Lifts = append(mv.Lifts, at)
		}
	}
}

// capture gives the seeds of pit at to side by.
func (n NamNam) capture(l *lap, at int, by Side, mv *Move) {
	if mv != nil {
		mv.Captures = append(mv.Captures, Capture{Pit: at, Seeds: int(l.pits[at]), By: by})
	}
	l.captured[by] += l.pits[at]
	l.pits[at] = 0
}

// Totals returns each player's seeds: captures, store and owned pits (a pit
// owned by nobody counts for the player whose row it is on).
func (n NamNam) Totals(p Position) [2]int {
	p = n.Settle(p)
	return [2]int{int(p.Captured[South] + p.Store[South]), int(p.Captured[North] + p.Store[North])}
}

// NextRound refills the board for the next round (RULES.md 4.6-4.7): the
// player with less fills their own row from the left, 4 seeds a pit; the
// other fills their own row, then the opponent's unfilled pits from the right
// end, owning them; 1..3 leftover seeds go to the store; unfilled pits belong
// to nobody. The player with less starts; with equal totals, the player who
// did not start the last round. A player with fewer than 4 seeds loses the
// match.
func (n NamNam) NextRound(end Position, lastStarter Side) (Position, bool, Result) {
	totals := n.Totals(end)
	for s := South; s <= North; s++ {
		if totals[s] < 4 {
			return end, true, Winner(s.Opponent())
		}
	}
	next := Position{}
	for i := range next.Owner {
		next.Owner[i] = Nobody
	}
	less, starter := South, lastStarter.Opponent()
	switch {
	case totals[North] < totals[South]:
		less, starter = North, North
	case totals[South] < totals[North]:
		starter = South
	}
	more := less.Opponent()
	next.Store[less] = uint8(fill(&next, less, less, totals[less]))
	next.Store[more] = uint8(fill(&next, more, less, fill(&next, more, more, totals[more])))
	next.ToMove = starter
	return next, false, NoResult
}

// fill puts 4 seeds into each unfilled pit of row's row, as far as seeds go,
// owned by side: from the left when it is side's own row, from the right end
// on the opponent's. It returns the seeds left over.
func fill(p *Position, side, row Side, seeds int) int {
	first, last, dir := RowStart(row), RowStart(row)+PitsPerRow-1, 1
	if side != row {
		first, last, dir = last, first, -1
	}
	for i := first; seeds >= 4 && i != last+dir; i += dir {
		if p.Owner[i] == Nobody {
			p.Pits[i], p.Owner[i] = 4, side
			seeds -= 4
		}
	}
	return seeds
}

// Perft counts the positions reached after exactly depth plies from p
// within the round: the end of a round is a leaf at its own depth and is
// not counted at deeper depths (who starts the next round can depend on the
// match record, which a position does not hold). Repetitions along the path
// end the round.
func (n NamNam) Perft(p Position, depth int) uint64 {
	return n.perft(p, depth, nil)
}

func (n NamNam) perft(p Position, depth int, path []Position) uint64 {
	if depth == 0 {
		return 1
	}
	m := n.LegalMoves(p)
	if m == 0 {
		return 0
	}
	path = append(path, p)
	var count uint64
	for pit := 0; pit < NumPits; pit++ {
		if !m.Has(pit) {
			continue
		}
		if depth == 1 {
			count++
			continue
		}
		q, mv, _ := n.Play(p, pit)
		if !mv.RoundOver && !onPathWithOwners(path, &q) {
			count += n.perft(q, depth-1, path)
		}
	}
	return count
}

// onPathWithOwners reports whether q's pits, owners and player to move
// occur on the path: the repetition rule of RULES.md 2.6 and 4.5.
func onPathWithOwners(path []Position, q *Position) bool {
	for i := range path {
		if path[i].Pits == q.Pits && path[i].ToMove == q.ToMove && path[i].Owner == q.Owner {
			return true
		}
	}
	return false
}
