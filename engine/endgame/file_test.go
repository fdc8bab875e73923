package endgame

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"oware/engine"
)

func TestWriteAndOpen(t *testing.T) {
	built, err := Build(context.Background(), engine.Oware{GrandSlam: engine.Warri}, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), FileName(built.Rules(), 5))
	if filepath.Base(path) != "warri-5.tbl" {
		t.Errorf("file name %s", path)
	}
	if err := built.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	opened, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	if opened.Rules() != built.Rules() || opened.MaxSeeds() != 5 || string(opened.codes) != string(built.codes) {
		t.Fatal("the opened table differs from the written one")
	}
	if err := opened.Verify(nil); err != nil {
		t.Fatal(err)
	}

	data, _ := os.ReadFile(path)
	for name, bad := range map[string][]byte{
		"flipped": append(append([]byte(nil), data[:headerSize+7]...), append([]byte{data[headerSize+7] ^ 1}, data[headerSize+8:]...)...),
		"short":   data[:len(data)-1],
		"header":  append([]byte("NOTATABL"), data[8:]...),
	} {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, bad, 0o644)
		if _, err := Open(p); !errors.Is(err, ErrBadFile) {
			t.Errorf("%s file: error %v, want ErrBadFile", name, err)
		}
	}
}

// TestCacheBuildsInTheBackground: a fresh folder has no table; building
// fills it and makes each table available; the next start finds them all.
func TestCacheBuildsInTheBackground(t *testing.T) {
	dir := t.TempDir()
	c, missing, err := OpenCache(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 3 || c.Table(engine.Oware{}) != nil {
		t.Fatalf("missing %v in an empty folder", missing)
	}
	done := make(chan error)
	var levels int
	go func() {
		done <- c.BuildMissing(context.Background(), func(p Progress) {
			if p.Step == "done" {
				levels++
			}
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("build did not end")
	}
	if levels != 3*5 {
		t.Errorf("%d levels reported done, want 15", levels)
	}
	for _, r := range allOware() {
		if tab := c.Table(r); tab == nil || tab.MaxSeeds() != 4 {
			t.Errorf("%s: no table after the build", r.Name())
		}
	}
	c.Close()
	c, missing, err = OpenCache(dir, 4)
	if err != nil || len(missing) != 0 {
		t.Fatalf("reopened: missing %v, %v", missing, err)
	}
	c.Close()
}

func TestCacheBuildStops(t *testing.T) {
	c, _, err := OpenCache(t.TempDir(), 12)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err = c.BuildMissing(ctx, func(p Progress) {
		if p.Seeds == 5 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || c.Table(engine.Oware{}) != nil {
		t.Errorf("cancelled build: %v", err)
	}
}
