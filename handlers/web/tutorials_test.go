package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"oware/handlers/handlerstest"
	"oware/models"
)

// tutorialStepPath is the URL of a tutorial step.
func tutorialStepPath(lang, slug string, step int) string {
	return "/" + lang + "/tutorials/" + slug + "/" + strconv.Itoa(step)
}

// TestTutorialPages: the index and every step of every tutorial render in
// every language without a missing message; steps outside the tutorial
// are 404; the last step links to a new game; htmx gets the partial.
func TestTutorialPages(t *testing.T) { handlerstest.EachDialect(t, tutorialPages) }

func tutorialPages(t *testing.T, db *models.DB) {
	s := handlerstest.NewSite(t, db)
	all := tutorialSources(t)
	for _, lang := range []string{"cs", "it", "en"} {
		code, _, page := s.Get(nil, "/"+lang+"/tutorials")
		checkPage(t, lang, "/tutorials", code, page)
		if code != http.StatusOK {
			t.Fatalf("%s index: %d", lang, code)
		}
		// The stages in models.Stages' order: the openings after the
		// endgames, before Nam-nam.
		var at []int
		for _, st := range []string{"rules", "endgames", "openings", "namnam"} {
			at = append(at, strings.Index(page, `id="stage-`+st+`"`))
		}
		if at[0] < 0 || at[1] < at[0] || at[2] < at[1] || at[3] < at[2] {
			t.Errorf("%s index: stages rules, endgames, openings, namnam at %v", lang, at)
		}
		for slug, byLang := range all {
			tu := byLang[lang]
			if !strings.Contains(page, tutorialStepPath(lang, slug, 1)) || !strings.Contains(page, htmlText(tu.Title)) {
				t.Errorf("%s index: no link to %s", lang, slug)
			}
			for i, st := range tu.Steps {
				path := tutorialStepPath(lang, slug, i+1)
				code, _, page := s.Get(nil, path)
				checkPage(t, lang, path, code, page)
				if code != http.StatusOK || !strings.Contains(page, `class="board"`) || !strings.Contains(page, `<progress max="`+strconv.Itoa(len(tu.Steps))+`" value="`+strconv.Itoa(i+1)+`"`) {
					t.Fatalf("%s: %d, no board or progress bar:\n%s", path, code, page)
				}
				if !strings.Contains(page, htmlText(st.Title)) {
					t.Errorf("%s: no title %q", path, st.Title)
				}
				last := i == len(tu.Steps)-1
				newGame := `/` + lang + `/games/new`
				if st.Rules == "namnam" || strings.HasPrefix(st.Rules, "namnam ") {
					// The Nam-nam tutorial leads to a Nam-nam game; its
					// boards show who owns each pit and the stores.
					newGame += `?rules=namnam`
					if !strings.Contains(page, `class="owner-legend"`) || strings.Count(page, `<span class="owner" aria-hidden="true">`) != 12 || !strings.Contains(page, `class="store"`) {
						t.Errorf("%s: a Nam-nam board without its owners and stores", path)
					}
				}
				if hasNew := strings.Contains(page, `href="`+newGame+`" class`) || strings.Contains(page, `class="button primary" href="`+newGame+`"`); hasNew != last {
					t.Errorf("%s: link to play a game (%s) %v, last step %v", path, newGame, hasNew, last)
				}
				if i > 0 && !strings.Contains(page, `rel="prev" href="`+tutorialStepPath(lang, slug, i)+`"`) {
					t.Errorf("%s: no link to the previous step", path)
				}
				if !last && !strings.Contains(page, `rel="next" href="`+tutorialStepPath(lang, slug, i+2)+`"`) {
					t.Errorf("%s: no link to the next step", path)
				}
			}
			for _, bad := range []string{"0", strconv.Itoa(len(tu.Steps) + 1), "01", "x", "-1"} {
				if code, _, _ := s.Get(nil, "/"+lang+"/tutorials/"+slug+"/"+bad); code != http.StatusNotFound {
					t.Errorf("%s/%s step %s: %d, want 404", lang, slug, bad, code)
				}
			}
		}
	}
	// The index lists the tutorials in order, Nam-nam (03) last.
	_, _, index := s.Get(nil, "/en/tutorials")
	one, two, three := strings.Index(index, `href="/en/tutorials/oware-step-by-step/1"`), strings.Index(index, `href="/en/tutorials/grand-slam/1"`), strings.Index(index, `href="/en/tutorials/namnam/1"`)
	if one < 0 || !(one < two && two < three) {
		t.Errorf("index order: oware-step-by-step at %d, grand-slam at %d, namnam at %d", one, two, three)
	}
	if code, _, _ := s.Get(nil, "/en/tutorials/no-such-thing/1"); code != http.StatusNotFound {
		t.Errorf("unknown tutorial: %d", code)
	}
	if code, hdr, _ := s.Get(nil, "/en/tutorials/grand-slam"); code != http.StatusFound || hdr.Get("Location") != "/en/tutorials/grand-slam/1" {
		t.Errorf("/en/tutorials/grand-slam: %d %s", code, hdr.Get("Location"))
	}
	// htmx navigation gets the inside of #tutorial only.
	code, _, part := s.Do(nil, http.MethodGet, "/en/tutorials/oware-step-by-step/2", nil, map[string]string{"HX-Request": "true"})
	if code != http.StatusOK || strings.Contains(part, "<html") || !strings.Contains(part, `rel="next"`) || !strings.Contains(part, "Step 2 of") {
		t.Errorf("htmx step: %d\n%s", code, part)
	}
	// The sitemap lists the steps.
	if _, _, sm := s.Get(nil, "/sitemap.xml"); !strings.Contains(sm, "/en/tutorials/grand-slam/8") {
		t.Errorf("sitemap without tutorial steps")
	}
}

// htmlText escapes s as templ writes text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestTutorialAnswers: right answers show the board after the move with
// the sowing and the captures; wrong ones get a hint that says why.
func TestTutorialAnswers(t *testing.T) { handlerstest.EachDialect(t, tutorialAnswers) }

func tutorialAnswers(t *testing.T, db *models.DB) {
	s := handlerstest.NewSite(t, db)
	const one, two, nn = "oware-step-by-step", "grand-slam", "namnam"
	pit := func(l string) url.Values { return url.Values{"pit": {l}} }
	for _, c := range []struct {
		slug  string
		step  int
		form  url.Values
		htmx  bool
		wants []string
	}{
		// Right answers.
		{one, 3, pit("C"), false, []string{"<html", "Right!", "C sows 4 seeds, the last one into a.", `class="drop" data-i="3"`}},
		{one, 5, pit("F"), true, []string{"Right!", "You capture 5 seeds (d, c).", `class="drop"`}},
		{one, 6, pit("F"), true, []string{"A grand slam: under Abapa it captures nothing"}},
		{one, 7, pit("E"), true, []string{"It puts 1 seed into your opponent&#39;s row"}},
		{one, 8, pit("F"), true, []string{"You capture 3 seeds (a).", "The game is over: South wins 25 to 6."}},
		{two, 3, url.Values{"pit": {"A", "B", "C", "D", "E"}}, true, []string{"Right!", "The legal moves are A, B, C, D, E."}},
		// North's row is empty and only E (2 seeds) reaches it (RULES.md 2.5).
		{"feeding", 5, pit("E"), true, []string{"Right!", "E is the only legal move."}},
		{two, 4, pit("E"), true, []string{"A grand slam: you capture the whole row, 7 seeds.", "South wins 26 to 22."}},
		{two, 5, pit("F"), true, []string{"you capture the whole row, 7 seeds.", "After a grand slam in Warri you move again."}},
		{two, 7, pit("F"), true, []string{"South wins 30 to 18."}},
		// Wrong answers and their hints.
		{one, 3, pit("A"), false, []string{"<html", "Not quite.", "This step asks you to play C."}},
		{one, 5, pit("a"), true, []string{"Not quite.", "Pit a is on your opponent&#39;s row; you sow only from your own row."}},
		{one, 5, pit("A"), true, []string{"The sowing of A ends on your own row, in D, so nothing is captured."}},
		{one, 5, pit("C"), true, []string{"The last seed of C lands in b, which then holds 5 seeds: only 2 or 3 are captured."}},
		{one, 8, pit("C"), true, []string{"Pit C is empty, there is nothing to sow."}},
		{one, 7, pit("A"), true, []string{"Your opponent&#39;s row is empty and A does not reach it: you must feed them."}},
		{one, 7, pit("Z"), true, []string{"There is no such pit."}},
		{two, 3, url.Values{"pit": {"A", "B", "C", "D", "E", "F"}}, true, []string{"F is not legal: F would be a grand slam, which Wari forbids while you have another move."}},
		{two, 3, url.Values{"pit": {"A", "B"}}, true, []string{"You missed 3 legal moves.", `value="A" checked`}},
		// Nam-nam: the relay, fours, the owner setting, endless sowings,
		// pit owners, the end of a round and of the match.
		{nn, 3, pit("C"), true, []string{"Right!", "C sows 3 seeds, the last one into F.", "F was empty, so the move ends there.", `class="owner-legend"`}},
		{nn, 4, pit("A"), false, []string{"<html", "A starts a relay: it lifts again from C, F and sows 7 seeds in all, the last one into b.", `class="drop"`}},
		{nn, 5, pit("D"), true, []string{"You capture 4 seeds (b)."}},
		{nn, 5, pit("B"), true, []string{"Not quite.", "The last seed of B lands in E, which was empty: the move ends there and nothing is captured."}},
		{nn, 5, pit("a"), true, []string{"Pit a belongs to your opponent this round: you sow only from the pits you own."}},
		{nn, 6, pit("D"), true, []string{"You capture 4 seeds (E).", "As the owner, your opponent takes 4 seeds (a).", "captures of four: Every four to the pit&#39;s owner"}},
		{nn, 7, url.Values{"pit": {"A", "C", "E"}}, true, []string{"A is not legal: the sowing of A would never end, so it is not allowed.", `value="f"`}},
		{nn, 7, url.Values{"pit": {"C", "E"}}, true, []string{"Right!", "The legal moves are C, E."}},
		{nn, 8, pit("C"), true, []string{"Fewer than 4 seeds are left: the round is over.", "South has 30 in all, North 18."}},
		{nn, 9, url.Values{"pit": {"a", "b", "c", "d", "e"}}, true, []string{"e is not legal: pit e belongs to nobody this round: no one may sow from it."}},
		{nn, 9, url.Values{"pit": {"a", "b", "c", "d"}}, true, []string{"The legal moves are a, b, c, d."}},
		{nn, 10, pit("C"), true, []string{"North cannot fill a single pit: South wins the match, 45 to 3."}},
	} {
		path := tutorialStepPath("en", c.slug, c.step)
		code, page := s.Answer(nil, path, c.form, c.htmx)
		if code != http.StatusOK {
			t.Errorf("%s %v: %d", path, c.form, code)
			continue
		}
		for _, w := range c.wants {
			if !strings.Contains(page, w) {
				t.Errorf("%s %v: no %q in\n%s", path, c.form, w, page)
			}
		}
		if c.htmx == strings.Contains(page, "<html") {
			t.Errorf("%s: htmx %v but whole page %v", path, c.htmx, !c.htmx)
		}
		wrong := strings.Contains(page, "Not quite.")
		if wrong != strings.Contains(page, `name="pit"`) {
			t.Errorf("%s %v: the answer form should stay exactly when the answer is wrong", path, c.form)
		}
	}
	// Every language has its hints.
	for lang, want := range map[string]string{"cs": "Jamka C je prázdná", "it": "La buca C è vuota", "en": "Pit C is empty"} {
		if _, page := s.Answer(nil, tutorialStepPath(lang, one, 8), pit("C"), true); !strings.Contains(page, want) {
			t.Errorf("%s: no hint %q", lang, want)
		}
	}
	// A step without a task sends an answer back to the step.
	code, _, _ := s.Post(nil, tutorialStepPath("en", one, 1), url.Values{}, nil)
	if code != http.StatusForbidden { // no CSRF token
		t.Errorf("POST without a token: %d", code)
	}
}

// TestTutorialProgress: a visitor's progress is kept in the session, a
// registered player's in the database; the index shows it. A lesson is
// done when its tasks were answered right (game-end: C, then F, then the
// legal move E), not when its last step was seen.
func TestTutorialProgress(t *testing.T) { handlerstest.EachDialect(t, tutorialProgress) }

func tutorialProgress(t *testing.T, db *models.DB) {
	s := handlerstest.NewSite(t, db)
	const one, two = "oware-step-by-step", "grand-slam"
	steps := len(tutorialSources(t)[one]["en"].Steps)
	index := func(c *http.Client) string {
		t.Helper()
		_, _, page := s.Get(c, "/en/tutorials")
		return page
	}
	visitor := s.Browser()
	if page := index(visitor); strings.Contains(page, "In progress") || strings.Contains(page, "Done") {
		t.Fatalf("a new visitor has progress:\n%s", page)
	}
	s.Get(visitor, tutorialStepPath("en", one, 3))
	s.Get(visitor, tutorialStepPath("en", one, 2)) // going back keeps the furthest step
	page := index(visitor)
	if !strings.Contains(page, "In progress: step 3 of "+strconv.Itoa(steps)) || !strings.Contains(page, `href="`+tutorialStepPath("en", one, 3)+`"`) {
		t.Errorf("visitor after step 3:\n%s", page)
	}
	s.Get(visitor, tutorialStepPath("en", one, steps))
	s.Get(visitor, tutorialStepPath("en", two, 2))
	page = index(visitor)
	if strings.Contains(page, "Done") || !strings.Contains(page, "In progress: step 2 of 8") {
		t.Errorf("visitor after the last step, no task answered:\n%s", page)
	}
	answerEnd := func(c *http.Client, tasks int) {
		t.Helper()
		for _, a := range []struct {
			step int
			pit  string
		}{{1, "A"}, {1, "C"}, {2, "F"}, {4, "E"}}[:tasks] {
			code, out := s.Answer(c, tutorialStepPath("en", "game-end", a.step), url.Values{"pit": {a.pit}}, false)
			right := a.pit != "A"
			if code != http.StatusOK || strings.Contains(out, `data-verdict="right"`) != right {
				t.Fatalf("game-end step %d, %s: %d, right %v", a.step, a.pit, code, right)
			}
		}
	}
	answerEnd(visitor, 3)
	if page = index(visitor); strings.Contains(page, "Done") {
		t.Errorf("visitor with one task of game-end left: done")
	}
	answerEnd(visitor, 4)
	if page = index(visitor); !strings.Contains(page, "Done") {
		t.Errorf("visitor after every task of game-end:\n%s", page)
	}
	if strings.Contains(index(s.Browser()), "Done") {
		t.Errorf("another visitor sees the progress")
	}

	// A registered player: the progress goes into the database.
	player := s.Browser()
	_, _, reg := s.Get(player, "/en/register")
	code, _, _ := s.Post(player, "/en/register", url.Values{"_csrf": {s.Csrf(reg)}, "username": {"learner"}, "password": {"correct horse battery"}}, nil)
	if code != http.StatusSeeOther {
		t.Fatalf("register: %d", code)
	}
	s.Get(player, tutorialStepPath("en", one, 4))
	s.Get(player, tutorialStepPath("cs", two, 5))
	var rows []models.TutorialProgress
	if err := db.Gorm.Order("tutorial_slug").Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].TutorialSlug != two || rows[0].Step != 5 || rows[0].Done || rows[0].UserID == nil ||
		rows[1].TutorialSlug != one || rows[1].Step != 4 {
		t.Fatalf("progress rows %+v", rows)
	}
	s.Get(player, tutorialStepPath("en", two, 8))
	s.Get(player, tutorialStepPath("en", two, 1))
	if err := db.Gorm.Order("tutorial_slug").Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Step != 8 || rows[0].Done {
		t.Fatalf("progress rows after the last step %+v", rows)
	}
	answerEnd(player, 4)
	if err := db.Gorm.Where("tutorial_slug = ?", "game-end").Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Solved != "1 2 4" || !rows[0].Done {
		t.Fatalf("game-end progress %+v", rows)
	}
	if page := index(player); !strings.Contains(page, "Done") || !strings.Contains(page, "In progress: step 4 of") {
		t.Errorf("player's index:\n%s", page)
	}
	// The same account in a fresh browser (logged in again) sees it too.
	again := s.Browser()
	_, _, login := s.Get(again, "/en/login")
	if code, _, _ := s.Post(again, "/en/login", url.Values{"_csrf": {s.Csrf(login)}, "username": {"learner"}, "password": {"correct horse battery"}}, nil); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	if page := index(again); !strings.Contains(page, "Done") {
		t.Errorf("the player's progress is not in the database:\n%s", page)
	}

	// A visitor who registers keeps what they reached as a visitor.
	newcomer := s.Browser()
	s.Get(newcomer, tutorialStepPath("en", one, 6))
	_, _, reg = s.Get(newcomer, "/en/register")
	if code, _, _ := s.Post(newcomer, "/en/register", url.Values{"_csrf": {s.Csrf(reg)}, "username": {"newcomer"}, "password": {"correct horse battery"}}, nil); code != http.StatusSeeOther {
		t.Fatalf("register: %d", code)
	}
	s.Get(newcomer, tutorialStepPath("en", two, 1))
	var kept []models.TutorialProgress
	if err := db.Gorm.Joins("JOIN users ON users.id = tutorial_progress.user_id").
		Where("users.username = ? AND tutorial_slug = ?", "newcomer", one).Find(&kept).Error; err != nil {
		t.Fatal(err)
	}
	if len(kept) != 1 || kept[0].Step != 6 {
		t.Errorf("the visitor's progress did not join the account: %+v", kept)
	}
}

// TestTutorialTabOrder: on a move task, the opponent's six pits are
// buttons (a click gets its hint) but no Tab stops; the mover's are.
func TestTutorialTabOrder(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	// oware-step-by-step step 3: South to move, "play C".
	code, _, page := s.Get(nil, "/en/tutorials/oware-step-by-step/3")
	if code != http.StatusOK {
		t.Fatalf("%d", code)
	}
	for _, l := range []string{"a", "b", "c", "d", "e", "f"} {
		if !regexp.MustCompile(`<button[^>]*id="pit-` + l + `"[^>]*tabindex="-1"`).MatchString(page) {
			t.Errorf("pit %s: a button in the Tab order", l)
		}
	}
	for _, l := range []string{"A", "B", "C", "D", "E", "F"} {
		if b := regexp.MustCompile(`<button[^>]*id="pit-` + l + `"[^>]*>`).FindString(page); b == "" || strings.Contains(b, "tabindex") {
			t.Errorf("pit %s: %q, want a button in the Tab order", l, b)
		}
	}
}

// TestPracticeBanner: the learner's practice game names its goal and
// leads back to the lesson's step; a spectator of it sees neither.
func TestPracticeBanner(t *testing.T) {
	s := handlerstest.NewSite(t, handlerstest.ModelsOpenSQLite(t))
	c := s.Browser()
	const step = "/en/tutorials/rules-practice/3"
	_, _, page := s.Get(c, step)
	code, hdr, _ := s.Post(c, step+"/practice", url.Values{"_csrf": {s.Csrf(page)}}, nil)
	if code != http.StatusSeeOther || !strings.HasPrefix(hdr.Get("Location"), "/en/games/") {
		t.Fatalf("practice: %d %v", code, hdr)
	}
	_, _, game := s.Get(c, hdr.Get("Location"))
	if !strings.Contains(game, `class="practice-banner"`) || !strings.Contains(game, "Play this position out against the computer (level 1) and win.") ||
		!strings.Contains(game, `href="`+step+`"`) || !strings.Contains(game, "Back to the lesson") {
		t.Errorf("the practice game shows no goal or way back:\n%s", game)
	}
	if _, _, other := s.Get(s.Browser(), hdr.Get("Location")); strings.Contains(other, "practice-banner") {
		t.Error("another browser sees the learner's practice line")
	}
}
