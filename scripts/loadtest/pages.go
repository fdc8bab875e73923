package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// runPages is the pages mode: a page and a static file of about its size,
// fetched in turns, each by -workers clients for -duration.
func runPages(ctx context.Context, o options) error {
	a := &api{client: &http.Client{Timeout: 10 * time.Second}, base: o.base}
	mv, err := newMover(o.base)
	if err != nil {
		return err
	}
	defer mv.close()
	path := o.page
	switch o.page {
	case "rules":
		path = "/en/rules"
	case "game":
		t, err := a.newTable(ctx, o.rules)
		if err != nil {
			return err
		}
		keep := newKeeper(o.rules, false)
		for range 20 {
			p, _ := o.rules.ParsePosition(t.state.Position)
			pit, _ := keep.choose(p)
			if _, err := mv.move(ctx, t, p, pit); err != nil {
				return err
			}
		}
		path = "/en/games/" + t.id // both seats are taken: a visitor watches
	}
	page, pageSize, err := fetchGzip(ctx, o.base+path)
	if err != nil {
		return err
	}
	// The static file whose answer (gzip) is nearest the page's: both
	// then cost about the same to send.
	static, size := "", 0
	for _, m := range regexp.MustCompile(`/static/[a-z.]+\.[0-9a-f]{10}\.(?:css|js)`).FindAllString(string(page), -1) {
		_, n, err := fetchGzip(ctx, o.base+m)
		if err != nil {
			return err
		}
		if static == "" || farness(n, pageSize) < farness(size, pageSize) {
			static, size = m, n
		}
	}
	if static == "" {
		return fmt.Errorf("%s links no static file", path)
	}
	tool := "Go clients with cookies"
	if o.wrk {
		tool = "wrk, no cookies"
	}
	fmt.Printf("%s: %s (%d bytes gzip) against %s (%d bytes gzip), %d clients (%s), %v each, in turns\n",
		o.base, path, pageSize, static, size, o.workers, tool, o.duration)
	m := &meter{server: o.server, database: o.pgdb}
	var ratios []float64
	for r := range o.rounds {
		m.begin()
		pageRate, n, err := rateOf(ctx, o, path)
		if err != nil {
			return err
		}
		pageCPU := m.since().per(n)
		m.begin()
		staticRate, n, err := rateOf(ctx, o, static)
		if err != nil {
			return err
		}
		staticCPU := m.since().per(n)
		ratios = append(ratios, pageRate/staticRate)
		fmt.Printf("run %d: page %.0f/s (%v), static %.0f/s (%v): ratio %.2f\n",
			r+1, pageRate, pageCPU, staticRate, staticCPU, pageRate/staticRate)
	}
	slices.Sort(ratios)
	fmt.Printf("ratio page/static: median %.2f (runs %.2f..%.2f)\n", ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])
	return nil
}

// rateOf measures path's rate with wrk (-wrk) or rate.
func rateOf(ctx context.Context, o options, path string) (float64, int, error) {
	if !o.wrk {
		r, n := rate(ctx, o, path)
		return r, n, nil
	}
	out, err := exec.CommandContext(ctx, "wrk", "-t", "2", "-c", strconv.Itoa(o.workers),
		"-d", strconv.Itoa(max(1, int(o.duration.Seconds())))+"s", "-H", "Accept-Encoding: gzip", o.base+path).CombinedOutput()
	if err != nil {
		return 0, 0, fmt.Errorf("wrk: %v: %s", err, out)
	}
	reqs := regexp.MustCompile(`(\d+) requests in ([\d.]+)(m?s)`).FindSubmatch(out)
	if reqs == nil || bytes.Contains(out, []byte("Non-2xx")) {
		return 0, 0, fmt.Errorf("wrk said:\n%s", out)
	}
	n, _ := strconv.Atoi(string(reqs[1]))
	secs, _ := strconv.ParseFloat(string(reqs[2]), 64)
	if string(reqs[3]) == "ms" {
		secs /= 1000
	}
	return float64(n) / secs, n, nil
}

// fetchGzip GETs url asking for gzip and returns the body and the size of
// the answer as sent.
func fetchGzip(ctx context.Context, url string) ([]byte, int, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d", url, resp.StatusCode)
	}
	if err != nil || resp.Header.Get("Content-Encoding") != "gzip" {
		return raw, len(raw), err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, 0, err
	}
	body, err := io.ReadAll(zr)
	return body, len(raw), err
}

// rate fetches path with -workers clients (each with its cookies, taking
// gzip) for -duration and returns the requests per second and their count.
func rate(ctx context.Context, o options, path string) (float64, int) {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var n atomic.Int64
	var wg sync.WaitGroup
	began := time.Now()
	for range o.workers {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
		wg.Go(func() {
			for ctx.Err() == nil {
				if _, err := fetch(ctx, c, o.base+path); err == nil {
					n.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return float64(n.Load()) / time.Since(began).Seconds(), int(n.Load())
}

// fetch GETs url and returns the body (uncompressed).
func fetch(ctx context.Context, c *http.Client, url string) ([]byte, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d", url, resp.StatusCode)
	}
	return b, err
}

// farness is how far two sizes are apart, as a ratio: 1 when equal.
func farness(a, b int) float64 { return max(float64(a)/float64(b), float64(b)/float64(a)) }
