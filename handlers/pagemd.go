package handlers

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"oware/engine"
	"oware/views"
)

// pageMarkdown turns a page body into HTML: CommonMark with GitHub's tables,
// raw HTML let through to the pageSanitizer.
var pageMarkdown = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

// pageSanitizer keeps the HTML of user-generated content (text, links, lists,
// tables, images) and drops scripts, event handlers, styles and
// javascript: URLs: a page edited in the database can never inject code.
// Links to other sites get rel="nofollow", links within the site do not.
var pageSanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoFollowOnLinks(false)
	p.RequireNoFollowOnFullyQualifiedLinks(true)
	return p
}()

// renderPageMarkdown renders Markdown to sanitized HTML.
func renderPageMarkdown(src string) (string, error) {
	var buf bytes.Buffer
	if err := pageMarkdown.Convert([]byte(src), &buf); err != nil {
		return "", err
	}
	return pageSanitizer.Sanitize(buf.String()), nil
}

// pageDiagramFence opens a board diagram in a page body; a line of three
// backticks closes it.
const pageDiagramFence = "```board"

// renderPageBody splits a page body at its ```board blocks: the Markdown between
// them becomes sanitized HTML, each block a board diagram drawn by the
// board component. A block that is not a legal position becomes a part
// with Err set (the handler logs it and the view shows a notice).
func renderPageBody(body string) ([]views.ArticlePart, error) {
	var parts []views.ArticlePart
	var text, block []string
	inBlock := false
	flush := func() error {
		if strings.TrimSpace(strings.Join(text, "")) == "" {
			text = nil
			return nil
		}
		h, err := renderPageMarkdown(strings.Join(text, "\n"))
		if err != nil {
			return err
		}
		parts = append(parts, views.ArticlePart{HTML: h})
		text = nil
		return nil
	}
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !inBlock && trimmed == pageDiagramFence:
			if err := flush(); err != nil {
				return nil, err
			}
			inBlock, block = true, nil
		case inBlock && trimmed == "```":
			d, err := parsePageDiagram(block)
			if err != nil {
				parts = append(parts, views.ArticlePart{Err: err})
			} else {
				parts = append(parts, views.ArticlePart{Diagram: &d})
			}
			inBlock = false
		case inBlock:
			block = append(block, line)
		default:
			text = append(text, line)
		}
	}
	if inBlock {
		parts = append(parts, views.ArticlePart{Err: fmt.Errorf("diagram not closed by ```")})
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return parts, nil
}

// parsePageDiagram reads the lines of a ```board block ("key: value"):
// position (a RULES.md position string, required), highlight (labels
// separated by spaces), caption, and rules (the rule set that parses the
// position, "abapa" when absent). The engine checks the position, so a
// diagram can never show an impossible one.
func parsePageDiagram(lines []string) (views.Diagram, error) {
	var d views.Diagram
	rules, pos := "abapa", ""
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
			d.Options.Caption = value
		case "highlight":
			h, err := parseLabels(value)
			if err != nil {
				return d, fmt.Errorf("diagram highlight: %w", err)
			}
			d.Options.Highlight = h
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
	d.Options.Last = -1
	return d, nil
}
