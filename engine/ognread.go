package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ReadOptions tune ReadRecord for a Nam-nam record: the Cache and Budget
// of the NamNam rules it plays with (see NamNam). Oware records ignore them.
type ReadOptions struct {
	Cache  *LegalCache
	Budget *Budget
}

// ParseRecord is ReadRecord without options.
func ParseRecord(text string) (*Record, error) { return ReadRecord(text, ReadOptions{}) }

// ReadRecord reads an OGN game record and replays its moves with the
// engine. It reads what Aualé writes and more:
//   - tags `[Name "value"]` (`\"` and `\\` escaped), several on a line or
//     one a line, before the move text;
//   - the Variant tag with any name of the rule sets, in any case, with or
//     without "Oware" (see VariantTag; missing: Abapa), a FEN tag with
//     either player to move (for Nam-nam also the Oware form: rows owned by
//     their sides);
//   - move text over any number of lines, with or without move numbers
//     ("12." and "12..." before a move or alone), moves as pit labels with
//     an optional capture mark ("F+3", checked: it must give the seeds the
//     move captures, or Aualé's count, which adds the seeds the mover takes
//     from their own pits when the move ends the game), "!" and "?" and
//     "$n" annotations (skipped), "=" for an agreement;
//   - comments in braces, also over lines and before the first move, ";"
//     comments to the end of the line, variations in parentheses, also
//     nested (kept in Notes, never played);
//   - a result at the end ("26-22", "*", "1-0", "0-1", "1/2-1/2");
//   - the Termination tag written by Format: a resignation or an agreed end
//     that the moves do not show ends the game (Record.End);
//   - moves after the end of the game: counted in Ignored, not played.
//
// Errors are a *RecordError naming the line and, in the move text, the
// move; see the Err* variables of ogn.go. Records over MaxRecordBytes,
// MaxRecordMoves or MaxRecordNotes are refused. ReadRecord never panics,
// and its work is linear in the text except for Nam-nam's endless-sowing checks, which
// opt.Budget bounds.
func ReadRecord(text string, opt ReadOptions) (*Record, error) {
	if len(text) > MaxRecordBytes {
		return nil, &RecordError{Line: 1, Err: fmt.Errorf("%w: %d bytes (at most %d)", ErrRecordTooLarge, len(text), MaxRecordBytes)}
	}
	rd := &reader{text: strings.TrimPrefix(text, "\ufeff"), line: 1, rec: &Record{Rules: Oware{}}}
	if err := rd.read(opt); err != nil {
		return nil, err
	}
	rd.rec.applyEnd(rd.game)
	return rd.rec, nil
}

// reader is the state of ReadRecord: the text, where it is, and the game
// being replayed once the tags are read.
type reader struct {
	text string
	pos  int
	line int
	rec  *Record
	game *Game // nil while reading the tags
	done bool  // a result was read: only notes may follow
	ply  int   // move words read, ignored ones included
	fen  int   // the line of the FEN tag
}

func (rd *reader) fail(err error, word string) *RecordError {
	e := &RecordError{Line: rd.line, Word: word, Err: err}
	if rd.game != nil {
		e.Move = rd.ply + 1
		e.Number = rd.game.NextNumber()
	}
	return e
}

func (rd *reader) read(opt ReadOptions) error {
	for {
		rd.skipSpace()
		if rd.pos >= len(rd.text) {
			break
		}
		var err error
		switch c := rd.text[rd.pos]; {
		case c == '[':
			err = rd.readTag()
		case c == '{' || c == '(':
			err = rd.readNote(opt)
		case c == ';' || (c == '%' && rd.atLineStart()):
			rd.skipLine()
		default:
			err = rd.readWord(opt)
		}
		if err != nil {
			return err
		}
	}
	if rd.game == nil {
		return rd.begin(opt)
	}
	return nil
}

func (rd *reader) skipSpace() {
	for rd.pos < len(rd.text) {
		c := rd.text[rd.pos]
		if c == '\n' || (c == '\r' && !strings.HasPrefix(rd.text[rd.pos:], "\r\n")) {
			rd.line++
		} else if c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v' {
			return
		}
		rd.pos++
	}
}

func (rd *reader) atLineStart() bool { return rd.pos == 0 || rd.text[rd.pos-1] == '\n' }

func (rd *reader) skipLine() {
	if i := strings.IndexAny(rd.text[rd.pos:], "\r\n"); i >= 0 {
		rd.pos += i
	} else {
		rd.pos = len(rd.text)
	}
}

// readTag reads `[Name "value"]`.
func (rd *reader) readTag() error {
	if rd.game != nil {
		return rd.fail(fmt.Errorf("%w: a tag after the moves (a record holds one game)", ErrRecordSyntax), "")
	}
	line := rd.line
	rd.pos++
	rd.skipSpace()
	start := rd.pos
	for rd.pos < len(rd.text) && isTagNameByte(rd.text[rd.pos]) {
		rd.pos++
	}
	name := rd.text[start:rd.pos]
	rd.skipSpace()
	if name == "" || rd.pos >= len(rd.text) || rd.text[rd.pos] != '"' {
		rd.line = line
		return rd.fail(fmt.Errorf("%w: a tag is [Name \"value\"], the value in double quotes", ErrRecordSyntax), name)
	}
	var value strings.Builder
	for rd.pos++; ; rd.pos++ {
		if rd.pos >= len(rd.text) || rd.text[rd.pos] == '\n' || rd.text[rd.pos] == '\r' {
			rd.line = line
			return rd.fail(fmt.Errorf("%w: the value of tag %s has no closing quote", ErrRecordSyntax, name), "")
		}
		c := rd.text[rd.pos]
		if c == '"' {
			break
		}
		if c == '\\' && rd.pos+1 < len(rd.text) && (rd.text[rd.pos+1] == '"' || rd.text[rd.pos+1] == '\\') {
			rd.pos++
			c = rd.text[rd.pos]
		}
		value.WriteByte(c)
	}
	rd.pos++
	rd.skipSpace()
	if rd.pos >= len(rd.text) || rd.text[rd.pos] != ']' {
		rd.line = line
		return rd.fail(fmt.Errorf("%w: tag %s must end with ]", ErrRecordSyntax, name), "")
	}
	rd.pos++
	rd.rec.Tags = append(rd.rec.Tags, Tag{name, strings.TrimSpace(value.String())})
	return rd.checkTag(name)
}

func isTagNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// checkTag reads the tags that matter to the game as soon as they come, so
// that an error names their line.
func (rd *reader) checkTag(name string) error {
	rec := rd.rec
	value := rec.Tags[len(rec.Tags)-1].Value
	var err error
	switch strings.ToLower(name) {
	case "variant":
		if rec.Rules, err = rulesFromVariant(value); err != nil {
			return rd.fail(err, value)
		}
	case "fen":
		rd.fen = rd.line
	case "termination":
		rec.End, rec.Loser = readTermination(value)
	}
	return nil
}

// parseFEN reads the FEN tag under the record's rules; Nam-nam also takes
// the Oware form, each row owned by its side and empty stores.
func (rd *reader) parseFEN(fen string) (Position, error) {
	p, err := rd.rec.Rules.ParsePosition(fen)
	if _, rounds := rd.rec.Rules.(Rounds); err != nil && rounds {
		if q, err2 := (Oware{}).ParsePosition(fen); err2 == nil {
			return q, nil
		}
	}
	return p, err
}

// begin starts the game when the move text begins: the rules with the
// options, and the start from the FEN tag (the Variant may follow it).
func (rd *reader) begin(opt ReadOptions) error {
	rec := rd.rec
	if n, ok := rec.Rules.(NamNam); ok {
		n.Cache, n.Budget = opt.Cache, opt.Budget
		rec.Rules = n
	}
	rec.Start = rec.Rules.Start()
	if fen := rec.Tag("FEN"); fen != "" {
		var err error
		if rec.Start, err = rd.parseFEN(fen); err != nil {
			rd.line = rd.fen
			return rd.fail(err, "")
		}
	}
	rd.game = NewGame(rec.Rules, rec.Start)
	return nil
}

// readNote reads a comment in braces or a variation in parentheses (which
// may nest and hold comments).
func (rd *reader) readNote(opt ReadOptions) error {
	if rd.game == nil {
		if err := rd.begin(opt); err != nil {
			return err
		}
	}
	if len(rd.rec.Notes) >= MaxRecordNotes {
		return rd.fail(fmt.Errorf("%w: more than %d comments and variations", ErrRecordTooLarge, MaxRecordNotes), "")
	}
	line, start := rd.line, rd.pos
	variation := rd.text[rd.pos] == '('
	depth, inComment := 0, false
	for ; rd.pos < len(rd.text); rd.pos++ {
		switch c := rd.text[rd.pos]; {
		case c == '\n' || (c == '\r' && !strings.HasPrefix(rd.text[rd.pos:], "\r\n")):
			rd.line++
		case inComment:
			inComment = c != '}'
		case c == '{':
			inComment = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
		if !inComment && depth == 0 && (variation || rd.text[rd.pos] == '}') {
			break
		}
	}
	if rd.pos >= len(rd.text) {
		rd.line = line
		what := "a comment opened with { is never closed"
		if variation {
			what = "a variation opened with ( is never closed"
		}
		return rd.fail(fmt.Errorf("%w: %s", ErrRecordSyntax, what), "")
	}
	rd.pos++
	text := strings.Join(strings.Fields(rd.text[start+1:rd.pos-1]), " ")
	rd.rec.Notes = append(rd.rec.Notes, Note{Ply: rd.ply, Text: text, Variation: variation})
	return nil
}

// readWord reads a word of the move text: a move number, a move, "=", an
// annotation or the result.
func (rd *reader) readWord(opt ReadOptions) error {
	if rd.game == nil {
		if err := rd.begin(opt); err != nil {
			return err
		}
	}
	start := rd.pos
	for rd.pos < len(rd.text) && !isSpace(rd.text[rd.pos]) && !strings.ContainsRune("{}()[];", rune(rd.text[rd.pos])) {
		rd.pos++
	}
	word := rd.text[start:rd.pos]
	if word == "" { // a stray } ] or )
		rd.pos++
		return rd.fail(fmt.Errorf("%w: %q closes nothing", ErrRecordSyntax, rd.text[start:rd.pos]), "")
	}
	if !utf8.ValidString(word) {
		return rd.fail(fmt.Errorf("%w: not text", ErrBadLabel), strings.ToValidUTF8(word, "?"))
	}
	move := stripMoveNumber(word)
	switch {
	case strings.Trim(move, ".…") == "" || move[0] == '$' || strings.Trim(move, "!?") == "":
		return nil
	case rd.done:
		return rd.fail(fmt.Errorf("%w: text after the result", ErrRecordSyntax), word)
	case isResultToken(move):
		rd.done = true
		return nil
	case move == "=":
		return rd.agree()
	}
	return rd.playWord(word, move)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// stripMoveNumber removes a move number ("12.", "12...", "12…") from the
// front of a word.
func stripMoveNumber(w string) string {
	digits := strings.TrimLeft(w, "0123456789")
	if digits == w {
		return w
	}
	rest := strings.TrimLeft(digits, ".")
	rest = strings.TrimLeft(rest, "…")
	if rest == digits {
		return w // "25-19", or a word that only starts with digits
	}
	return rest
}

// isResultToken matches "*", "25-19", "1/2-1/2" and "½-½".
func isResultToken(w string) bool {
	if w == "*" || w == "1/2-1/2" || w == "½-½" {
		return true
	}
	a, b, ok := strings.Cut(w, "-")
	return ok && isDigits(a) && isDigits(b)
}

func isDigits(s string) bool {
	return s != "" && len(s) <= 3 && strings.Trim(s, "0123456789") == ""
}

// agree applies a "=": an agreement to end, or nothing after the end.
func (rd *reader) agree() error {
	g := rd.game
	if g.Over {
		return nil
	}
	if _, err := g.Agree(); err != nil {
		return rd.fail(err, "=")
	}
	rd.rec.Agreements = append(rd.rec.Agreements, len(rd.rec.Moves))
	return nil
}

// playWord reads a move with its capture mark and annotations and plays it,
// or counts it as ignored after the end of the game.
func (rd *reader) playWord(word, move string) error {
	move = strings.TrimRight(move, "!?")
	label, mark, hasMark := strings.Cut(move, "+")
	pit, err := ParseLabel(label)
	if err != nil || (hasMark && !isDigits(mark)) {
		if err == nil {
			err = fmt.Errorf("%w: %q (a capture mark is + and a number)", ErrBadLabel, move)
		}
		return rd.fail(err, word)
	}
	if rd.ply >= MaxRecordMoves {
		return rd.fail(fmt.Errorf("%w: more than %d moves", ErrRecordTooLarge, MaxRecordMoves), "")
	}
	g := rd.game
	if g.Over {
		rd.ply++
		rd.rec.Ignored++
		return nil
	}
	number := g.NextNumber()
	mv, err := g.Play(pit)
	if err != nil {
		return rd.fail(err, word)
	}
	if hasMark {
		n, _ := strconv.Atoi(mark)
		if gain, taken := captureMark(mv); n != gain && n != taken && n != mv.Captured() {
			e := rd.fail(&CaptureMarkError{Mark: n, Captured: gain}, word)
			e.Number = number
			return e
		}
	}
	rd.ply++
	rd.rec.Moves = append(rd.rec.Moves, pit)
	return nil
}

// captureMark returns the capture mark of a move as Format writes it (the
// seeds the mover gained: captured, plus those taken from their own pits
// when the move ended the game or round, as Aualé counts) and the seeds the
// mover captured alone.
func captureMark(mv Move) (gain, taken int) {
	for _, c := range mv.Captures {
		if c.By == mv.Mover {
			taken += c.Seeds
		}
	}
	return taken + mv.FinalCaptures[mv.Mover], taken
}
