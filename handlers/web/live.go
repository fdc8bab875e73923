package web

import (
	"bytes"
	"context"
	"time"

	"oware/engine"
	"oware/game"
	"oware/handlers/core"
	"oware/views"
)

// Panels renders g's panel once per kind, with the marks of its parts
// (views.WithParts): live cuts them up (views.Cut).
func (h *Site) Panels(g *game.Game, kinds []core.PanelKind) (map[core.PanelKind][]byte, error) {
	rematchKey := ""
	for _, k := range kinds {
		if k.Seat == engine.Nobody && g.RematchID != "" && rematchKey == "" {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if ng, err := h.Games.Load(ctx, g.RematchID); err == nil {
				rematchKey = ng.SpectatorKey
			}
			cancel()
		}
	}
	out := make(map[core.PanelKind][]byte, len(kinds))
	for _, k := range kinds {
		w := viewer{lang: k.Lang, seat: k.Seat, live: true, rematchKey: rematchKey}
		if k.Seat != engine.Nobody {
			w.csrf = core.CsrfPlaceholder
		}
		v := h.gameView(g, w)
		v.OOB = true
		var buf bytes.Buffer
		if err := views.GamePanel(h.Localizers[k.Lang], v).Render(views.WithParts(context.Background()), &buf); err != nil {
			return nil, err
		}
		out[k] = buf.Bytes()
	}
	return out, nil
}
