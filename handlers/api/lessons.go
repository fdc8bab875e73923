package api

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"oware/handlers/core"
	"oware/locales"
)

// errLessonLang refuses a lessons list in a language the site has not.
var errLessonLang = &core.UserError{Status: http.StatusUnprocessableEntity, Key: "course_err_lang"}

// lessonJSON is a lesson of the course in the API: steps and tasks are
// counts.
type lessonJSON struct {
	Slug  string `json:"slug"`
	Stage string `json:"stage"`
	Title string `json:"title"`
	Steps int    `json:"steps"`
	Tasks int    `json:"tasks"`
}

// apiLessons: GET /api/v1/lessons?lang=L, the course's lessons in course
// order (issue 32); 422 for a language other than cs, it, en.
func (h *API) apiLessons(c echo.Context) error {
	lang := c.QueryParam("lang")
	if !slices.Contains(locales.Langs, lang) {
		return errLessonLang
	}
	list, err := h.Content.Course(c.Request().Context(), lang)
	if err != nil {
		return err
	}
	out := make([]lessonJSON, len(list))
	for i, l := range list {
		out[i] = lessonJSON{Slug: l.Slug, Stage: l.Stage, Title: l.Title, Steps: l.Steps, Tasks: l.Tasks}
	}
	return c.JSON(http.StatusOK, out)
}
