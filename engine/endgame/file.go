package endgame

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"oware/engine"
)

// A table file is a 32-byte header, then one byte a board in index order:
//
//	0  magic "OWARETB1"
//	8  grand slam rule (0 abapa, 1 wari, 2 warri), maxSeeds, 6 zero bytes
//	16 number of boards, uint64 little-endian
//	24 CRC-32 (Castagnoli) of the boards' bytes, uint32 little-endian; 4 zero bytes
const (
	magic      = "OWARETB1"
	headerSize = 32
)

// ErrBadFile is wrapped by the errors of Open for a file that is not a
// whole, intact table.
var ErrBadFile = errors.New("endgame: not a valid table file")

// FileName returns the name of the file of the table of rules up to
// maxSeeds seeds, e.g. "abapa-20.tbl".
func FileName(rules engine.Oware, maxSeeds int) string {
	return fmt.Sprintf("%s-%d.tbl", rules.Name(), maxSeeds)
}

func crcOf(data []byte) uint32 { return crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli)) }

// WriteFile writes t to path atomically: into a temporary file in the same
// folder, synced, then renamed.
func (t *Table) WriteFile(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	var h [headerSize]byte
	copy(h[:], magic)
	h[8], h[9] = byte(t.rules.GrandSlam), byte(t.maxSeeds)
	binary.LittleEndian.PutUint64(h[16:], uint64(len(t.codes)))
	binary.LittleEndian.PutUint32(h[24:], crcOf(t.codes))
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(h[:]); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(t.codes); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Open maps the table file at path into memory (read-only, shared between
// processes; elsewhere than on Unix it is read) after checking its header,
// size and checksum. Errors wrap ErrBadFile, or are the file system's.
// Close the table to unmap it.
func Open(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var h [headerSize]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return nil, fmt.Errorf("%w: %s: short header", ErrBadFile, path)
	}
	rules, maxSeeds := engine.GrandSlamRule(h[8]), int(h[9])
	if string(h[:8]) != magic || rules > engine.Warri || maxSeeds > MaxSeedsLimit {
		return nil, fmt.Errorf("%w: %s: bad header", ErrBadFile, path)
	}
	t := newTable(engine.Oware{GrandSlam: rules}, maxSeeds, nil)
	boards := binary.LittleEndian.Uint64(h[16:])
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if boards != t.x.levelStart(maxSeeds+1) || st.Size() != headerSize+int64(boards) {
		return nil, fmt.Errorf("%w: %s: %d bytes for %d boards of up to %d seeds", ErrBadFile, path, st.Size(), boards, maxSeeds)
	}
	data, unmap, err := mapFile(f, int(st.Size()))
	if err != nil {
		return nil, err
	}
	t.codes, t.close = data[headerSize:], unmap
	if crcOf(t.codes) != binary.LittleEndian.Uint32(h[24:]) {
		t.Close()
		return nil, fmt.Errorf("%w: %s: checksum mismatch", ErrBadFile, path)
	}
	return t, nil
}

// Close releases a table opened by Open; a table must not be used after.
// It does nothing for a table built in memory.
func (t *Table) Close() error {
	if t.close == nil {
		return nil
	}
	err := t.close()
	t.close, t.codes = nil, nil
	return err
}
