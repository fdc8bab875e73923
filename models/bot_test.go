package models_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"oware/models"
)

func TestAccountTokens(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		u := &models.User{Username: "aalina", PasswordHash: "h"}
		other := &models.User{Username: "kofi", PasswordHash: "k"}
		for _, x := range []*models.User{u, other} {
			if err := db.CreateUser(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		tok := &models.AccountToken{UserID: u.ID, Name: "engine", TokenHash: models.HashToken("secret"), Scopes: "bot:play"}
		if err := db.CreateAccountToken(ctx, tok); err != nil || tok.ID == 0 {
			t.Fatalf("CreateAccountToken: %v (id %d)", err, tok.ID)
		}
		got, owner, err := db.AccountTokenUser(ctx, models.HashToken("secret"))
		if err != nil || got.ID != tok.ID || got.Scopes != "bot:play" || owner.ID != u.ID {
			t.Fatalf("AccountTokenUser: %+v %+v %v", got, owner, err)
		}
		if _, _, err := db.AccountTokenUser(ctx, models.HashToken("other")); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("unknown token: %v, want ErrNotFound", err)
		}
		// Another account cannot delete it; its owner can, once.
		if err := db.DeleteAccountToken(ctx, other.ID, tok.ID); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("delete by another account: %v, want ErrNotFound", err)
		}
		if err := db.DeleteAccountToken(ctx, u.ID, tok.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.DeleteAccountToken(ctx, u.ID, tok.ID); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("deleted twice: %v, want ErrNotFound", err)
		}
		if _, _, err := db.AccountTokenUser(ctx, models.HashToken("secret")); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("deleted token: %v, want ErrNotFound", err)
		}
		// The cap holds for tokens made at once: 25 tries, 20 stored.
		var wg sync.WaitGroup
		errs := make(chan error, 25)
		for i := range 25 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- db.CreateAccountToken(ctx, &models.AccountToken{UserID: u.ID, Name: "t", TokenHash: models.HashToken(fmt.Sprint("t", i)), Scopes: "bot:play"})
			}()
		}
		wg.Wait()
		close(errs)
		refused := 0
		for err := range errs {
			switch {
			case errors.Is(err, models.ErrTokenLimit):
				refused++
			case err != nil:
				t.Errorf("CreateAccountToken at once: %v", err)
			}
		}
		ts, err := db.AccountTokens(ctx, u.ID)
		if err != nil || len(ts) != models.MaxAccountTokens || refused < 25-models.MaxAccountTokens {
			t.Errorf("after 25 at once: %d tokens (%v), %d refused; want %d", len(ts), err, refused, models.MaxAccountTokens)
		}
		// A deleted account's tokens go with it.
		if err := db.DeleteUser(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if ts, _ := db.AccountTokens(ctx, u.ID); len(ts) != 0 {
			t.Errorf("%d tokens after the account's deletion", len(ts))
		}
		if err := db.CreateAccountToken(ctx, &models.AccountToken{UserID: u.ID, Name: "x", TokenHash: "x", Scopes: "bot:play"}); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("token of a deleted account: %v, want ErrNotFound", err)
		}
	})
}

func TestUpgradeToBot(t *testing.T) {
	each(t, func(t *testing.T, db *models.DB) {
		ctx := t.Context()
		bot := &models.User{Username: "aalina-bot", PasswordHash: "h"}
		player := &models.User{Username: "ama", PasswordHash: "h"}
		for _, x := range []*models.User{bot, player} {
			if err := db.CreateUser(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SetBotProfile(ctx, bot.ID, "x", nil); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("profile of a person: %v, want ErrNotFound", err)
		}
		if err := db.UpgradeToBot(ctx, bot.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.UpgradeToBot(ctx, bot.ID); err != nil {
			t.Errorf("a bot again: %v", err)
		}
		if err := db.SetBotProfile(ctx, bot.ID, "oware-engine 1.2", &player.ID); err != nil {
			t.Fatal(err)
		}
		if u, _ := db.UserByID(ctx, bot.ID); !u.Bot || u.BotEngine != "oware-engine 1.2" || u.BotOwnerID == nil || *u.BotOwnerID != player.ID {
			t.Errorf("bot after the upgrade: %+v", u)
		}
		// A player seated in a game (even one waiting) has played.
		g := newGame(t, db)
		if ok, err := db.ClaimSeat(ctx, g.ID, "south", player.ID); !ok || err != nil {
			t.Fatalf("ClaimSeat: %v %v", ok, err)
		}
		if err := db.UpgradeToBot(ctx, player.ID); !errors.Is(err, models.ErrConflict) {
			t.Errorf("a player with a game: %v, want ErrConflict", err)
		}
		if u, _ := db.UserByID(ctx, player.ID); u.Bot {
			t.Error("the player became a bot")
		}
		if err := db.UpgradeToBot(ctx, 9999); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("no such account: %v, want ErrNotFound", err)
		}
	})
}
