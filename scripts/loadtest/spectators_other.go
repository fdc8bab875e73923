//go:build !linux

package main

import (
	"context"
	"errors"
)

// poller reads streams with epoll on Linux (spectators_linux.go); elsewhere
// each stream has a goroutine.
type poller struct{}

// newPoller returns errors.ErrUnsupported: a goroutine reads each stream.
func newPoller(context.Context, *watchers) (*poller, error) {
	return nil, errors.ErrUnsupported
}

// add is never called.
func (p *poller) add(*stream, *parser) error { return errors.ErrUnsupported }
