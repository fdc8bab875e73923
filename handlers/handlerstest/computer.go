package handlerstest

import (
	"net/http"
	"net/url"
	"regexp"
)

// VsComputer starts a game against the computer through the form (no
// JavaScript) in browser c (a new one when nil) and returns it on the
// game's page.
func (s *Site) VsComputer(c *http.Client, lang, rules, level, seat string) Seated {
	s.T.Helper()
	if c == nil {
		c = s.Browser()
	}
	p := Seated{C: c}
	code, _, page := s.Get(p.C, "/"+lang+"/computer")
	if code != http.StatusOK {
		s.T.Fatalf("computer form: %d", code)
	}
	code, hdr, _ := s.Post(p.C, "/"+lang+"/computer", url.Values{"_csrf": {s.Csrf(page)}, "rules": {rules},
		"level": {level}, "seat": {seat}}, nil)
	if code != http.StatusSeeOther {
		s.T.Fatalf("start against the computer: %d", code)
	}
	p.Game = hdr.Get("Location")
	return p
}

// MovesShown returns the move list of a game page as its labels ("Cd").
func MovesShown(page string) string {
	list := regexp.MustCompile(`(?s)<ol class="move-list">(.*?)</ol>`).FindStringSubmatch(page)
	if list == nil {
		return ""
	}
	text := regexp.MustCompile(`<[^>]*>|\d+\.|\s`).ReplaceAllString(list[1], "")
	return text
}
