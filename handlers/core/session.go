package core

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/game"
)

// sessionName is the name of the session cookie.
const sessionName = "oware"

// The keys of the session's values; only this file reads them.
const (
	keyVisitor   = "visitor"   // the random visitor id that names the browser's guest seats on the server (game.VisitorSeat)
	keySeats     = "seats"     // before issue 14: "id:token" entries kept in the cookie, moved to the server when seen
	keyFlash     = "flash"     // the message id of a refusal for the next page
	keyTutorials = "tutorials" // "slug:step:solved[:done]" entries (solved "2.3.6") separated by spaces
	keyPractice  = "practice"  // "slug:step:game" of the visitor's last practice game
	keyUser      = "uid"       // the logged-in User.ID (uint)
	keyEpoch     = "epoch"     // the User.Epoch when the session was made (int)
	keySID       = "sid"       // a random id that makes every new session unique
	keyChallenge = "challenge" // the id of the visitor's open challenge in the lobby
	keyBrowser   = "browser"   // a random key of the browser, its lobby identity without an account
)

// NewCookieStore returns the signed and encrypted cookie store of the
// sessions; its hash and encryption keys are derived from secret.
func NewCookieStore(secret []byte, secure bool) *sessions.CookieStore {
	s := sessions.NewCookieStore(derive(secret, "oware session hash key"), derive(secret, "oware session encryption key"))
	s.Options = &sessions.Options{
		Path:     "/",
		MaxAge:   90 * 24 * 3600,
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	}
	return s
}

// session is the visitor's cookie session with typed values: the visitor
// id that names their guest seats, a flash message, their tutorial
// progress and their account.
type session struct {
	s     *sessions.Session
	store *sessions.CookieStore
	c     echo.Context
}

// session returns the request's session (a new one when the cookie is
// missing or invalid).
func (h *Handlers) session(c echo.Context) *session {
	s, _ := h.Sessions.Get(c.Request(), sessionName)
	return &session{s: s, store: h.Sessions, c: c}
}

// Save writes the session cookie.
func (s *session) Save() error { return s.s.Save(s.c.Request(), s.c.Response()) }

// str returns a string value, or "".
func (s *session) str(key string) string {
	v, _ := s.s.Values[key].(string)
	return v
}

// Visitor returns the browser's visitor id, or "" before it has one.
func (s *session) Visitor() string { return s.str(keyVisitor) }

// newVisitor gives the session a new random visitor id and returns it (the
// caller saves).
func (s *session) newVisitor() string {
	id := game.NewToken()
	s.s.Values[keyVisitor] = id
	return id
}

// takeCookieSeats returns and forgets the seats an older cookie keeps,
// bearer tokens by game id (the caller saves).
func (s *session) takeCookieSeats() map[string]string {
	var out map[string]string
	for _, e := range strings.Fields(s.str(keySeats)) {
		if id, tok, ok := strings.Cut(e, ":"); ok {
			if out == nil {
				out = map[string]string{}
			}
			out[id] = tok
		}
	}
	delete(s.s.Values, keySeats)
	return out
}

// SetFlash keeps the message id of a refusal for the next page the visitor
// sees (the no-JavaScript flow redirects after a POST) and saves.
func (s *session) SetFlash(key string) error {
	s.s.Values[keyFlash] = key
	return s.Save()
}

// TakeFlash returns and forgets the kept message id, or "".
func (s *session) TakeFlash() (string, error) {
	key := s.str(keyFlash)
	if key == "" {
		return "", nil
	}
	delete(s.s.Values, keyFlash)
	return key, s.Save()
}

// Progress is a learner's progress in one lesson.
type Progress struct {
	Step int // the furthest step reached, 0 for none
	// Solved lists the task steps answered right ("2 3 6"); Done is set
	// once every task step was (models.SolvedAll).
	Solved string
	Done   bool
}

// Tutorials returns a visitor's lesson progress by slug. An entry of
// before the course ("slug:step:done", the last step seen) keeps its step
// only: a lesson is done by its answers.
func (s *session) Tutorials() map[string]Progress {
	out := map[string]Progress{}
	for _, e := range strings.Fields(s.str(keyTutorials)) {
		parts := strings.Split(e, ":")
		if len(parts) < 2 {
			continue
		}
		n, _ := strconv.Atoi(parts[1])
		p := Progress{Step: n}
		if len(parts) > 2 && parts[2] != "done" {
			p.Solved = strings.ReplaceAll(parts[2], ".", " ")
			p.Done = len(parts) > 3 && parts[3] == "done"
		}
		out[parts[0]] = p
	}
	return out
}

// SetTutorials replaces a visitor's lesson progress; nil forgets it.
func (s *session) SetTutorials(all map[string]Progress) {
	if all == nil {
		delete(s.s.Values, keyTutorials)
		return
	}
	var entries []string
	for slug, p := range all {
		e := slug + ":" + strconv.Itoa(p.Step) + ":" + strings.ReplaceAll(p.Solved, " ", ".")
		if p.Done {
			e += ":done"
		}
		entries = append(entries, e)
	}
	slices.Sort(entries)
	s.s.Values[keyTutorials] = strings.Join(entries, " ")
}

// Practice returns the visitor's last practice game: the lesson, its step
// and the game's id; "" for none.
func (s *session) Practice() (slug string, step int, id string) {
	parts := strings.Split(s.str(keyPractice), ":")
	if len(parts) != 3 {
		return "", 0, ""
	}
	n, _ := strconv.Atoi(parts[1])
	return parts[0], n, parts[2]
}

// SetPractice remembers the visitor's practice game id of step of the
// lesson slug (one at a time: a new one replaces it).
func (s *session) SetPractice(slug string, step int, id string) {
	s.s.Values[keyPractice] = slug + ":" + strconv.Itoa(step) + ":" + id
}

// account returns the logged-in account's id and the epoch the session was
// made in; 0 for a visitor.
func (s *session) account() (uint, int) {
	id, _ := s.s.Values[keyUser].(uint)
	epoch, _ := s.s.Values[keyEpoch].(int)
	return id, epoch
}

// Renew replaces the session by a new one for u (session rotation at
// login): only the visitor id (and with it the guest seats), the tutorial
// progress and the lobby's keys are carried over. Its new id gives the
// forms a new CSRF token (csrf.go).
func (s *session) Renew(u *accounts.User) error {
	fresh := sessions.NewSession(s.store, sessionName)
	opts := *s.store.Options
	fresh.Options, fresh.IsNew = &opts, true
	for _, carried := range []string{keyVisitor, keyTutorials, keyPractice, keyChallenge, keyBrowser} {
		if v, ok := s.s.Values[carried]; ok {
			fresh.Values[carried] = v
		}
	}
	fresh.Values[keyUser] = u.ID
	fresh.Values[keyEpoch] = u.Epoch
	fresh.Values[keySID] = game.NewToken()
	s.s = fresh
	return s.Save()
}

// End deletes the session cookie.
func (s *session) End() error {
	fresh := sessions.NewSession(s.store, sessionName)
	opts := *s.store.Options
	opts.MaxAge = -1
	fresh.Options = &opts
	s.s = fresh
	return s.Save()
}

// Challenge returns the id of the visitor's open challenge, or "".
func (s *session) Challenge() string { return s.str(keyChallenge) }

// SetChallenge keeps the id of the visitor's open challenge ("" forgets
// it); the caller saves.
func (s *session) SetChallenge(id string) {
	if id == "" {
		delete(s.s.Values, keyChallenge)
		return
	}
	s.s.Values[keyChallenge] = id
}

// BrowserKey returns the browser's random key, making one when missing
// (the caller saves).
func (s *session) BrowserKey() string {
	k := s.str(keyBrowser)
	if k == "" {
		k = game.NewToken()[:16]
		s.s.Values[keyBrowser] = k
	}
	return k
}

// derive returns the key of purpose derived from the site's secret
// (HMAC-SHA256): the session cookie's keys and the CSRF tokens' key.
func derive(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}
