package views

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// stackTables prepares the tables of a page body (sanitized HTML) to stack
// on a phone: each table gets the class "stack" and each body cell a
// data-label with its column's heading, which app.css shows before the
// cell when the rows are stacked one cell a line. HTML that does not parse
// comes back as it was.
func stackTables(body string) string {
	if !strings.Contains(body, "<table") {
		return body
	}
	nodes, err := html.ParseFragment(strings.NewReader(body), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return body
	}
	var b strings.Builder
	for _, n := range nodes {
		if n.DataAtom == atom.Table {
			labelCells(n)
		}
		for d := range n.Descendants() {
			if d.DataAtom == atom.Table {
				labelCells(d)
			}
		}
		if err := html.Render(&b, n); err != nil {
			return body
		}
	}
	return b.String()
}

// labelCells marks one table as stackable and labels its body cells with
// the headings of their columns.
func labelCells(table *html.Node) {
	table.Attr = append(table.Attr, html.Attribute{Key: "class", Val: "stack"})
	var heads []string
	for n := range table.Descendants() {
		if n.DataAtom == atom.Th && n.Parent != nil && n.Parent.Parent != nil && n.Parent.Parent.DataAtom == atom.Thead {
			heads = append(heads, strings.TrimSpace(textOf(n)))
		}
	}
	for n := range table.Descendants() {
		if n.DataAtom != atom.Tr || n.Parent == nil || n.Parent.DataAtom != atom.Tbody {
			continue
		}
		col := 0
		for cell := n.FirstChild; cell != nil; cell = cell.NextSibling {
			if cell.DataAtom != atom.Td && cell.DataAtom != atom.Th {
				continue
			}
			if col < len(heads) && heads[col] != "" {
				cell.Attr = append(cell.Attr, html.Attribute{Key: "data-label", Val: heads[col]})
			}
			col++
		}
	}
}

// textOf returns the text inside n.
func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
