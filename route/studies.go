package route

import "strconv"

// Patterns of the studies (issue 32), under the language prefix.
const (
	StudiesPattern            = "/studies"
	NewStudyPattern           = StudiesPattern + "/new"
	StudyPattern              = StudiesPattern + "/:id"
	StudyEditPattern          = StudyPattern + "/edit"
	StudyForkPattern          = StudyPattern + "/fork"
	StudyDeletePattern        = StudyPattern + "/delete"
	StudyChaptersPattern      = StudyPattern + "/chapters"
	StudyChapterPattern       = StudyChaptersPattern + "/:n"
	StudyChapterEditPattern   = StudyChapterPattern + "/edit"
	StudyChapterMovePattern   = StudyChapterPattern + "/move"
	StudyChapterDeletePattern = StudyChapterPattern + "/delete"
	APIStudiesPattern         = "/api/v1/studies"
	APIStudyPattern           = APIStudiesPattern + "/:id"
)

// Studies lists and searches the public studies: "/{lang}/studies".
func Studies(lang string) string { return In(lang, StudiesPattern) }

// NewStudy is the form of a new study: "/{lang}/studies/new".
func NewStudy(lang string) string { return In(lang, NewStudyPattern) }

// Study is a study's page (its first chapter): "/{lang}/studies/{id}".
func Study(lang, id string) string { return In(lang, StudyPattern, id) }

// StudyEdit is a study's editor (GET) and its settings (POST): "/{lang}/studies/{id}/edit".
func StudyEdit(lang, id string) string { return In(lang, StudyEditPattern, id) }

// StudyFork copies a study into the visitor's own (POST): "/{lang}/studies/{id}/fork".
func StudyFork(lang, id string) string { return In(lang, StudyForkPattern, id) }

// StudyDelete deletes a study (POST): "/{lang}/studies/{id}/delete".
func StudyDelete(lang, id string) string { return In(lang, StudyDeletePattern, id) }

// StudyChapters adds a chapter (POST): "/{lang}/studies/{id}/chapters".
func StudyChapters(lang, id string) string { return In(lang, StudyChaptersPattern, id) }

// StudyChapter is a study's chapter n (from 1; POST answers its task with
// the field pit): "/{lang}/studies/{id}/chapters/{n}".
func StudyChapter(lang, id string, n int) string {
	return In(lang, StudyChapterPattern, id, strconv.Itoa(n))
}

// StudyChapterEdit is chapter n's form (GET) and its change (POST):
// "/{lang}/studies/{id}/chapters/{n}/edit".
func StudyChapterEdit(lang, id string, n int) string {
	return In(lang, StudyChapterEditPattern, id, strconv.Itoa(n))
}

// StudyChapterMove moves chapter n by the field "by" (POST):
// "/{lang}/studies/{id}/chapters/{n}/move".
func StudyChapterMove(lang, id string, n int) string {
	return In(lang, StudyChapterMovePattern, id, strconv.Itoa(n))
}

// StudyChapterDelete deletes chapter n (POST):
// "/{lang}/studies/{id}/chapters/{n}/delete".
func StudyChapterDelete(lang, id string, n int) string {
	return In(lang, StudyChapterDeletePattern, id, strconv.Itoa(n))
}

// APIStudy is a study over the API: "/api/v1/studies/{id}".
func APIStudy(id string) string { return Fill(APIStudyPattern, id) }
