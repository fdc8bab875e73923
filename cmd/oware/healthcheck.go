package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// healthcheck is the command "oware healthcheck [-addr ADDR]": GET
// /healthz of the server listening on ADDR (as -addr of the server: env
// OWARE_ADDR, default :8080) on this machine, for a container's
// HEALTHCHECK where no curl is. It fails unless the answer is 200 within
// 5 s.
func healthcheck(args []string) error {
	fs := flag.NewFlagSet("oware healthcheck", flag.ContinueOnError)
	addr := fs.String("addr", ":8080", "the server's listen address (env OWARE_ADDR)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "addr" })
	if v := os.Getenv(env["addr"]); v != "" && !given {
		*addr = v
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("healthcheck: -addr %q: %w", *addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	c := &http.Client{Timeout: 5 * time.Second}
	res, err := c.Get("http://" + net.JoinHostPort(host, port) + "/healthz")
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: /healthz answered %s", res.Status)
	}
	return nil
}
