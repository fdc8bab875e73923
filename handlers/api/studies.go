package api

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"oware/accounts"
	"oware/content"
	"oware/handlers/core"
	"oware/route"
)

// studyRoutes adds the studies (issue 32).
func (h *API) studyRoutes(g *echo.Group) {
	g.POST("/studies", h.apiCreateStudy)
	g.GET("/studies", h.apiStudies)
	g.GET("/studies/:id", h.apiStudy)
}

// studyJSON is a study over the API: what its author wrote, with its id,
// link, owner and times.
type studyJSON struct {
	ID         string            `json:"id"`
	URL        string            `json:"url"`
	Owner      string            `json:"owner"`
	Title      string            `json:"title"`
	Lang       string            `json:"lang"`
	Visibility string            `json:"visibility"`
	Chapters   []content.Chapter `json:"chapters"`
	ForkedFrom string            `json:"forked_from,omitempty"`
	CreatedAt  time.Time         `json:"created_at"`
	UpdatedAt  time.Time         `json:"updated_at"`
}

// studySummaryJSON is a study in the API's list: its chapters counted.
type studySummaryJSON struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Owner     string    `json:"owner"`
	Title     string    `json:"title"`
	Lang      string    `json:"lang"`
	Chapters  int       `json:"chapters"`
	UpdatedAt time.Time `json:"updated_at"`
}

func (h *API) studyURL(st *content.Study) string { return h.Base + route.Study(st.Lang, st.ID) }

// apiCreateStudy: POST /api/v1/studies {"title","lang","visibility",
// "chapters":[{"title","rules","position","text","task"}]} with an
// account's session cookie or token -> 201 {"id","url"}; 422 {"error"}
// with the reason (in the study's language) for a study the checks
// refuse; 401 without an account.
func (h *API) apiCreateStudy(c echo.Context) error {
	user, err := h.studyAuthor(c)
	if err != nil {
		return err
	}
	var in content.StudyInput
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	st, err := h.Content.Studies.Create(c.Request().Context(), user, in)
	if err != nil {
		return h.studyRefusal(c, in.Lang, err)
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": st.ID, "url": h.studyURL(st)})
}

// studyRefusal answers a study the service refused with 422 and its
// reason in lang (English when lang is none of the site's), or err.
func (h *API) studyRefusal(c echo.Context, lang string, err error) error {
	var se *content.StudyError
	if !errors.As(err, &se) {
		return err
	}
	l, ok := h.Localizers[lang]
	if !ok {
		l = h.Localizers[core.DefaultLang]
	}
	return c.JSON(http.StatusUnprocessableEntity, map[string]string{"error": se.Reason(l)})
}

// apiStudy: GET /api/v1/studies/{id} -> 200 the study; 404 for none, and
// for a private or hidden study of someone else.
func (h *API) apiStudy(c echo.Context) error {
	st, err := h.Content.Studies.Get(c.Request().Context(), c.Param("id"), h.UserID(c))
	if errors.Is(err, content.ErrNotFound) {
		return core.ErrNotFound
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, studyJSON{ID: st.ID, URL: h.studyURL(st), Owner: st.Owner, Title: st.Title, Lang: st.Lang,
		Visibility: st.Visibility, Chapters: st.Chapters, ForkedFrom: st.ForkedFrom, CreatedAt: st.CreatedAt, UpdatedAt: st.UpdatedAt})
}

// apiStudies: GET /api/v1/studies?lang=L&q=TEXT -> 200 the public studies
// in L (the latest changed first, at most content.MaxStudyList) whose
// text holds every word of q; 422 for another language.
func (h *API) apiStudies(c echo.Context) error {
	lang := c.QueryParam("lang")
	if !core.ValidLang(lang) {
		return &core.UserError{Status: http.StatusUnprocessableEntity, Key: "st_err_api_lang"}
	}
	list, err := h.Content.Studies.Search(c.Request().Context(), lang, c.QueryParam("q"))
	if err != nil {
		return err
	}
	out := make([]studySummaryJSON, 0, len(list))
	for i := range list {
		st := &list[i]
		out = append(out, studySummaryJSON{ID: st.ID, URL: h.studyURL(st), Owner: st.Owner, Title: st.Title, Lang: st.Lang,
			Chapters: len(st.Chapters), UpdatedAt: st.UpdatedAt})
	}
	return c.JSON(http.StatusOK, out)
}

// studyAuthor is the account that writes a study: the session's, or that
// of a bearer token with the scope study:write; 401 for none.
func (h *API) studyAuthor(c echo.Context) (uint, error) {
	if id := h.UserID(c); id != 0 {
		return id, nil
	}
	if secret := core.BearerToken(c); secret != "" {
		t, u, err := h.Accounts.ByToken(c.Request().Context(), secret)
		switch {
		case err == nil && slices.Contains(accounts.TokenScopes(t), accounts.ScopeStudyWrite):
			return u.ID, nil
		case err != nil && !errors.Is(err, accounts.ErrNotFound):
			return 0, err
		}
	}
	c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="oware"`)
	return 0, core.ErrNeedsAccount
}
