package content

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"

	"oware/engine"
	"oware/tutor"
)

// markdown turns a page body into HTML: CommonMark with GitHub's tables,
// raw HTML let through to the sanitizer, and heading attributes, so that
// "## Tempo {#tempo}" gives the heading an id the other pages link to
// (the glossary's anchors, the same in every language).
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough),
	goldmark.WithParserOptions(parser.WithAttribute()),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

// sanitizer keeps the HTML of user-generated content (text, links, lists,
// tables, images) and drops scripts, event handlers, styles and
// javascript: URLs: a page edited in the database can never inject code.
// Links to other sites get rel="nofollow", links within the site do not.
var sanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoFollowOnLinks(false)
	p.RequireNoFollowOnFullyQualifiedLinks(true)
	return p
}()

// Markdown renders Markdown (a page body, a tutorial step's text) to
// sanitized HTML.
func Markdown(src string) (string, error) {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(src), &buf); err != nil {
		return "", err
	}
	return sanitizer.Sanitize(buf.String()), nil
}

// Part is a piece of a page body: sanitized HTML, a board diagram, or
// (Err) a diagram the engine refused.
type Part struct {
	HTML    string
	Diagram *Diagram
	Err     error
}

// Diagram is a board diagram of a page: a position checked by the engine,
// the pits to highlight, a caption, and the moves the text plays from the
// position (pits 0..11, legal in turn; none for a diagram that only shows
// a position).
type Diagram struct {
	Rules     engine.Rules
	Position  engine.Position
	Highlight engine.Moves
	Caption   string
	Moves     []int
}

// diagramFence opens a board diagram in a page body; a line of three
// backticks closes it.
const diagramFence = "```board"

// Body splits a page body at its ```board blocks: the Markdown between
// them becomes sanitized HTML, each block a board diagram. A block that is
// not a legal position becomes a part with Err set.
func Body(body string) ([]Part, error) {
	var parts []Part
	var text, block []string
	inBlock := false
	flush := func() error {
		if strings.TrimSpace(strings.Join(text, "")) == "" {
			text = nil
			return nil
		}
		h, err := Markdown(strings.Join(text, "\n"))
		if err != nil {
			return err
		}
		parts = append(parts, Part{HTML: h})
		text = nil
		return nil
	}
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !inBlock && trimmed == diagramFence:
			if err := flush(); err != nil {
				return nil, err
			}
			inBlock, block = true, nil
		case inBlock && trimmed == "```":
			d, err := parseDiagram(block)
			if err != nil {
				parts = append(parts, Part{Err: err})
			} else {
				parts = append(parts, Part{Diagram: &d})
			}
			inBlock = false
		case inBlock:
			block = append(block, line)
		default:
			text = append(text, line)
		}
	}
	if inBlock {
		parts = append(parts, Part{Err: fmt.Errorf("diagram not closed by ```")})
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return parts, nil
}

// parseDiagram reads the lines of a ```board block ("key: value"):
// position (a RULES.md position string, required), highlight (labels
// separated by spaces), caption, rules (the rule set that parses the
// position, "abapa" when absent) and moves (labels separated by spaces,
// played in turn from the position: what the caption tells). The engine
// checks the position and the moves, so a diagram can never show an
// impossible one.
func parseDiagram(lines []string) (Diagram, error) {
	var d Diagram
	rules, pos, moves := "abapa", "", ""
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return d, fmt.Errorf("diagram line %q is not key: value", line)
		}
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "position":
			pos = value
		case "rules":
			rules = value
		case "caption":
			d.Caption = value
		case "moves":
			moves = value
		case "highlight":
			h, err := tutor.ParseLabels(value)
			if err != nil {
				return d, fmt.Errorf("diagram highlight: %w", err)
			}
			d.Highlight = h
		default:
			return d, fmt.Errorf("diagram: unknown key %q", key)
		}
	}
	r, err := engine.RulesByName(rules)
	if err != nil {
		return d, fmt.Errorf("diagram: %w", err)
	}
	if d.Position, err = r.ParsePosition(pos); err != nil {
		return d, fmt.Errorf("diagram %q: %w", pos, err)
	}
	d.Rules = r
	if moves != "" {
		if d.Moves, err = engine.ParseMoves(moves); err != nil {
			return d, fmt.Errorf("diagram moves: %w", err)
		}
		if _, err := engine.ReplayGame(r, d.Position, d.Moves); err != nil {
			return d, fmt.Errorf("diagram %q, moves %q: %w", pos, moves, err)
		}
	}
	return d, nil
}
