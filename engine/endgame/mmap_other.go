//go:build !unix

package endgame

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f (no memory mapping here).
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return data, nil, nil
}
