package web

// PreviewDraws returns how many link previews the process has drawn.
func PreviewDraws() int64 { return previewDraws.Load() }
