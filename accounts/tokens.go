package accounts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"oware/models"
)

// Token is an account's API token (models.AccountToken) without its secret.
type Token = models.AccountToken

// The scopes a token may hold (issue 35).
const (
	// ScopeBotPlay lets a token play as its bot account through the Bot
	// API (/api/v1/bot/...), and upgrade its account to a bot.
	ScopeBotPlay = "bot:play"
	// ScopeChallengeWrite lets a token send challenges for its account
	// (POST /api/v1/challenge/{name}); bot:play includes it for bots.
	ScopeChallengeWrite = "challenge:write"
	// ScopeStudyWrite lets a token write studies for its account
	// (POST /api/v1/studies, issue 32).
	ScopeStudyWrite = "study:write"
)

// Scopes lists every scope a token may hold, in the order the settings page
// offers them.
var Scopes = []string{ScopeBotPlay, ScopeChallengeWrite, ScopeStudyWrite}

// MaxTokenName is the longest name of a token, in characters.
const MaxTokenName = 40

// MaxBotEngine is the longest engine name and version of a bot, in
// characters.
const MaxBotEngine = 60

// The errors of the tokens and the bots.
var (
	// ErrTokenName: a token's name is empty, longer than MaxTokenName or
	// holds a control character.
	ErrTokenName = errors.New("a token's name is 1 to 40 characters, without control characters")
	// ErrScope: a token asked for no scope or an unknown one.
	ErrScope = errors.New("unknown or missing scope")
	// ErrTokenLimit: the account holds models.MaxAccountTokens tokens.
	ErrTokenLimit = models.ErrTokenLimit
	// ErrHasGames: an account that has played cannot become a bot.
	ErrHasGames = errors.New("the account has played games: it cannot become a bot")
	// ErrNotBot: a bot's action asked by an account that is no bot.
	ErrNotBot = errors.New("the account is not a bot")
	// ErrBotEngine: a bot's engine text is too long or holds a control
	// character.
	ErrBotEngine = errors.New("the engine's name is at most 60 characters, without control characters")
	// ErrBotOwner: a bot's owner is not a person's existing account.
	ErrBotOwner = errors.New("the owner is not a player's account")
)

// TokenScopes returns the scopes of t as a list.
func TokenScopes(t *Token) []string { return strings.Fields(t.Scopes) }

// HasScope reports whether t holds scope.
func HasScope(t *Token, scope string) bool { return slices.Contains(TokenScopes(t), scope) }

// CreateToken makes a token of account id named name with the scopes (each
// one of Scopes, at least one; repeats are dropped) and returns the secret,
// shown once: only its hash is kept. Errors: ErrTokenName, ErrScope,
// ErrTokenLimit, ErrNotFound (no such account).
func (s *Service) CreateToken(ctx context.Context, id uint, name string, scopes []string) (string, *Token, error) {
	name = strings.TrimSpace(name)
	if !plainText(name, 1, MaxTokenName) {
		return "", nil, ErrTokenName
	}
	var kept []string
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return "", nil, fmt.Errorf("%w: %q", ErrScope, sc)
		}
		if !slices.Contains(kept, sc) {
			kept = append(kept, sc)
		}
	}
	if len(kept) == 0 {
		return "", nil, ErrScope
	}
	secret := "oware_" + models.NewToken()
	t := &Token{UserID: id, Name: name, TokenHash: models.HashToken(secret), Scopes: strings.Join(kept, " ")}
	if err := s.db.CreateAccountToken(ctx, t); err != nil {
		return "", nil, err
	}
	return secret, t, nil
}

// Tokens returns the tokens of account id, oldest first.
func (s *Service) Tokens(ctx context.Context, id uint) ([]Token, error) {
	return s.db.AccountTokens(ctx, id)
}

// RevokeToken deletes token tokenID of account id: it is refused from then
// on. ErrNotFound when the account has no such token.
func (s *Service) RevokeToken(ctx context.Context, id, tokenID uint) error {
	return s.db.DeleteAccountToken(ctx, id, tokenID)
}

// ByToken returns the token whose secret is secret and its account;
// ErrNotFound for an unknown or revoked token, or a deleted account.
func (s *Service) ByToken(ctx context.Context, secret string) (*Token, *User, error) {
	if !strings.HasPrefix(secret, "oware_") || len(secret) > 64 {
		return nil, nil, ErrNotFound
	}
	return s.db.AccountTokenUser(ctx, models.HashToken(secret))
}

// UpgradeToBot makes account id a bot, for good. ErrHasGames when the
// account has a game (played, in play or waiting).
func (s *Service) UpgradeToBot(ctx context.Context, id uint) error {
	err := s.db.UpgradeToBot(ctx, id)
	if errors.Is(err, models.ErrConflict) {
		return ErrHasGames
	}
	return err
}

// SetBotProfile stores what bot u shows on its profile: its engine's name
// and version (at most MaxBotEngine characters; "" for none) and the name
// of the person's account that runs it ("" for none). Errors: ErrNotBot,
// ErrBotEngine, ErrBotOwner.
func (s *Service) SetBotProfile(ctx context.Context, u *User, engine, owner string) error {
	if !u.Bot {
		return ErrNotBot
	}
	engine = strings.TrimSpace(engine)
	if engine != "" && !plainText(engine, 1, MaxBotEngine) {
		return ErrBotEngine
	}
	var ownerID *uint
	if owner = strings.TrimSpace(owner); owner != "" {
		o, err := s.db.UserByName(ctx, owner)
		if errors.Is(err, models.ErrNotFound) || (err == nil && (o.Bot || o.ID == u.ID)) {
			return ErrBotOwner
		}
		if err != nil {
			return err
		}
		ownerID = &o.ID
	}
	if err := s.db.SetBotProfile(ctx, u.ID, engine, ownerID); err != nil {
		return err
	}
	u.BotEngine, u.BotOwnerID = engine, ownerID
	return nil
}

// plainText reports whether s has min to max characters and no control
// character.
func plainText(s string, min, max int) bool {
	n := utf8.RuneCountInString(s)
	return utf8.ValidString(s) && n >= min && n <= max && !strings.ContainsFunc(s, unicode.IsControl)
}
