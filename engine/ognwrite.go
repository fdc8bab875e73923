package engine

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// rosterTags are the tags that Aualé writes first, in this order, "?" for
// an unknown value.
var rosterTags = [...]string{"Variant", "Event", "Site", "Date", "Round", "South", "North", "Result"}

// FormatRecord writes game g as an OGN record laid out as Aualé writes its
// own, so that Aualé reads it with the same meaning and writes it back the
// same: the tags Variant (VariantTag), Event, Site, Date, Round, South,
// North (from tags, "?" when not given) and Result (the final score, see
// below), then FEN when the game did not start from the start position,
// Termination when the game is over ("resignation; north wins": how it
// ended and who won), then the other given tags in their order; a blank
// line and the move text: "1." before every other move (see MoveNumber),
// each move with its capture mark ("d+3": the seeds the mover gained,
// counting as Aualé does the seeds taken from their own pits when the move
// ends the game), "=" for the agreements that end a Nam-nam round or match,
// and the final score when the game is over; lines shorter than 80
// characters, no trailing spaces. The Result is "*" while the game goes on,
// else the captures (Nam-nam: each player's seeds) where it ended; after a
// resignation the winner is also credited with the seeds the loser had not
// won, so that the score names the winner also then. Variant, FEN, Result
// and Termination are written from g; given ones are ignored.
func FormatRecord(g *Game, tags []Tag) string {
	var extra []Tag
	if g.Over {
		extra = append(extra, Tag{"Termination", terminationTag(g)})
	}
	for _, t := range tags {
		if !strings.EqualFold(t.Name, "Termination") {
			extra = append(extra, t)
		}
	}
	return formatRecord(g, extra, nil)
}

// Format writes the record as FormatRecord writes its game, with its own
// tags (Termination and the others as read) and its comments and
// variations. A record that Format wrote, read again, is written again
// byte for byte the same; so is one that Aualé wrote, unless it has moves
// after the end of the game (they are left out).
// When the game ended in a way its moves do not show (a resignation, an
// Oware agreement), the Termination tag says so.
func (r *Record) Format() string {
	g := r.Game()
	_, rounds := g.Rules.(Rounds)
	if !g.Over || !(g.Reason == ReasonResignation || g.Reason == ReasonAgreement && !rounds) {
		return formatRecord(g, r.Tags, r.Notes)
	}
	tags := slices.Clone(r.Tags)
	i := slices.IndexFunc(tags, func(t Tag) bool { return strings.EqualFold(t.Name, "Termination") })
	if i < 0 {
		i, tags = len(tags), append(tags, Tag{Name: "Termination"})
	}
	tags[i].Value = terminationTag(g)
	return formatRecord(g, tags, r.Notes)
}

// formatRecord writes the tags and the move text of g with notes.
func formatRecord(g *Game, tags []Tag, notes []Note) string {
	var b strings.Builder
	value := func(name string) string {
		for _, t := range tags {
			if strings.EqualFold(t.Name, name) && t.Value != "" {
				return t.Value
			}
		}
		return "?"
	}
	for _, name := range rosterTags {
		v := value(name)
		switch name {
		case "Variant":
			v = VariantTag(g.Rules)
		case "Result":
			v = resultTag(g)
		}
		writeTag(&b, name, v)
	}
	if g.Start != g.Rules.Start() {
		writeTag(&b, "FEN", g.Rules.FormatPosition(g.Start))
	}
	for _, t := range tags {
		if !isComputedTag(t.Name) {
			writeTag(&b, t.Name, t.Value)
		}
	}
	if tokens := moveTokens(g, notes); len(tokens) > 0 {
		b.WriteString("\n")
		wrapTokens(&b, tokens)
	}
	return b.String()
}

// isComputedTag reports whether formatRecord writes the tag from the game
// (or, for the roster, in its place).
func isComputedTag(name string) bool {
	for _, r := range rosterTags {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return strings.EqualFold(name, "FEN")
}

// writeTag writes `[Name "value"]`, escaping \ and " as Aualé does; line
// breaks and tabs become spaces.
func writeTag(b *strings.Builder, name, value string) {
	value = strings.Map(func(c rune) rune {
		if c == '\n' || c == '\r' || c == '\t' {
			return ' '
		}
		return c
	}, value)
	value = strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
	b.WriteString("[" + name + ` "` + value + "\"]\n")
}

// moveTokens lists the words of g's move text with the notes in place;
// none when there is no move, note or agreement to write.
func moveTokens(g *Game, notes []Note) []string {
	var tokens []string
	_, rounds := g.Rules.(Rounds)
	addNotes := func(ply int, last bool) {
		for len(notes) > 0 && (notes[0].Ply <= ply || last) {
			open, closing := "{", "}"
			if notes[0].Variation {
				open, closing = "(", ")"
			}
			tokens = append(tokens, open)
			tokens = append(tokens, strings.Fields(notes[0].Text)...)
			tokens = append(tokens, closing)
			notes = notes[1:]
		}
	}
	addNotes(0, false)
	agreed := false
	_, _ = ReplayMatch(g.Rules, g.Start, g.Moves, g.Agreements, func(after *Game, mv Move, agreement bool) {
		if agreement {
			if rounds {
				tokens = append(tokens, "=")
				agreed = true
			}
			return
		}
		if mv.Number.First {
			tokens = append(tokens, strconv.Itoa(mv.Number.Number)+".")
		}
		label := Label(mv.Pit)
		if gain, _ := captureMark(mv); gain > 0 {
			label += "+" + strconv.Itoa(gain)
		}
		tokens = append(tokens, label)
		addNotes(len(after.Moves), false)
	})
	addNotes(0, true)
	if len(g.Moves) == 0 && len(tokens) == 0 && !agreed {
		return nil
	}
	if g.Over {
		tokens = append(tokens, resultTag(g))
	}
	return tokens
}

// wrapTokens writes the tokens separated by spaces in lines shorter than
// 80 characters (a longer token stands alone), as Aualé does.
func wrapTokens(b *strings.Builder, tokens []string) {
	line, n := tokens[0], utf8.RuneCountInString(tokens[0])
	for _, t := range tokens[1:] {
		tn := utf8.RuneCountInString(t)
		if 1+n+tn < 80 {
			line, n = line+" "+t, n+1+tn
			continue
		}
		b.WriteString(line + "\n")
		line, n = t, tn
	}
	b.WriteString(line + "\n")
}
