package accounts_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"oware/accounts"
	"oware/models"
	"oware/models/modelstest"
)

// TestTokens: a token is shown once, found by its secret, holds only the
// scopes asked for (known ones, at least one) and is refused once revoked.
func TestTokens(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			ctx := t.Context()
			s := accounts.New(modelstest.Open(t, d))
			u, err := s.Register(ctx, "aalina", "en", "", "correct horse")
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name   string
				scopes []string
				want   error
			}{
				{"", []string{"bot:play"}, accounts.ErrTokenName},
				{"   ", []string{"bot:play"}, accounts.ErrTokenName},
				{strings.Repeat("é", 41), []string{"bot:play"}, accounts.ErrTokenName},
				{"a\tb", []string{"bot:play"}, accounts.ErrTokenName},
				{"engine", nil, accounts.ErrScope},
				{"engine", []string{"bot:play", "admin"}, accounts.ErrScope},
			} {
				if _, _, err := s.CreateToken(ctx, u.ID, c.name, c.scopes); !errors.Is(err, c.want) {
					t.Errorf("CreateToken(%q, %q): %v, want %v", c.name, c.scopes, err, c.want)
				}
			}
			secret, tok, err := s.CreateToken(ctx, u.ID, " my engine ", []string{"bot:play", "bot:play", "challenge:write"})
			if err != nil || !strings.HasPrefix(secret, "oware_") || len(secret) != 49 || tok.Name != "my engine" || tok.Scopes != "bot:play challenge:write" {
				t.Fatalf("CreateToken: %q %+v %v", secret, tok, err)
			}
			got, owner, err := s.ByToken(ctx, secret)
			if err != nil || got.ID != tok.ID || owner.ID != u.ID || !accounts.HasScope(got, accounts.ScopeBotPlay) {
				t.Fatalf("ByToken: %+v %+v %v", got, owner, err)
			}
			if list, _ := s.Tokens(ctx, u.ID); len(list) != 1 || list[0].TokenHash == secret {
				t.Errorf("Tokens: %+v", list)
			}
			for _, bad := range []string{"", secret[:48], "x" + secret[1:], strings.Repeat("a", 100000)} {
				if _, _, err := s.ByToken(ctx, bad); !errors.Is(err, accounts.ErrNotFound) {
					t.Errorf("ByToken(%.20q): %v, want ErrNotFound", bad, err)
				}
			}
			if err := s.RevokeToken(ctx, u.ID, tok.ID); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.ByToken(ctx, secret); !errors.Is(err, accounts.ErrNotFound) {
				t.Errorf("revoked token: %v, want ErrNotFound", err)
			}
		})
	}
}

// TestBotProfile: an account becomes a bot before any game; only a bot
// has a profile, whose owner is a person's account.
func TestBotProfile(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			ctx := t.Context()
			s := accounts.New(modelstest.Open(t, d))
			bot, err := s.Register(ctx, "aalina-bot", "en", "", "correct horse")
			if err != nil {
				t.Fatal(err)
			}
			person, err := s.Register(ctx, "Kofi", "en", "", "correct horse")
			if err != nil {
				t.Fatal(err)
			}
			if err := s.SetBotProfile(ctx, bot, "x", ""); !errors.Is(err, accounts.ErrNotBot) {
				t.Errorf("profile before the upgrade: %v, want ErrNotBot", err)
			}
			if err := s.UpgradeToBot(ctx, bot.ID); err != nil {
				t.Fatal(err)
			}
			bot, _ = s.ByID(ctx, bot.ID)
			for _, c := range []struct {
				engine, owner string
				want          error
			}{
				{strings.Repeat("x", 61), "", accounts.ErrBotEngine},
				{"a\nb", "", accounts.ErrBotEngine},
				{"oware-engine", "nobody", accounts.ErrBotOwner},
				{"oware-engine", "aalina-bot", accounts.ErrBotOwner},
			} {
				if err := s.SetBotProfile(ctx, bot, c.engine, c.owner); !errors.Is(err, c.want) {
					t.Errorf("SetBotProfile(%q, %q): %v, want %v", c.engine, c.owner, err, c.want)
				}
			}
			if err := s.SetBotProfile(ctx, bot, " oware-engine 0.1 level 5 ", "kofi"); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.ByID(ctx, bot.ID); got.BotEngine != "oware-engine 0.1 level 5" || got.BotOwnerID == nil || *got.BotOwnerID != person.ID {
				t.Errorf("stored profile: %q %v", got.BotEngine, got.BotOwnerID)
			}
		})
	}
}

// TestBotLeaderboard: bots and people are ranked apart: the people's
// leaderboard leaves the bots out, the bots' has only them.
func TestBotLeaderboard(t *testing.T) {
	for _, d := range modelstest.Dialects() {
		t.Run(d, func(t *testing.T) {
			ctx := t.Context()
			db := modelstest.Open(t, d)
			s := accounts.New(db)
			var ids []uint
			for _, name := range []string{"ama", "aalina-bot", "kofi", "kwame-bot"} {
				u, err := s.Register(ctx, name, "en", "", "correct horse")
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(name, "-bot") {
					if err := s.UpgradeToBot(ctx, u.ID); err != nil {
						t.Fatal(err)
					}
				}
				ids = append(ids, u.ID)
			}
			for i, id := range ids {
				r := models.Rating{UserID: id, Category: "abapa-realtime", Rating: 1400 + 100*float64(i), Deviation: 60, Volatility: 0.06, Games: 12, UpdatedAt: time.Now().UTC()}
				if err := db.Gorm.Create(&r).Error; err != nil {
					t.Fatal(err)
				}
			}
			names := func(ls []accounts.Leader, err error) string {
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, l := range ls {
					out = append(out, l.Username)
				}
				return strings.Join(out, " ")
			}
			if got := names(s.Leaderboard(ctx, "abapa-realtime", 10, 30*24*time.Hour, 10)); got != "kofi ama" {
				t.Errorf("people's leaderboard: %q, want kofi ama", got)
			}
			if got := names(s.BotLeaderboard(ctx, "abapa-realtime", 10, 30*24*time.Hour, 10)); got != "kwame-bot aalina-bot" {
				t.Errorf("bots' leaderboard: %q, want kwame-bot aalina-bot", got)
			}
		})
	}
}
