package main

import "testing"

func TestParseConfig(t *testing.T) {
	t.Setenv("OWARE_ADDR", ":9000")
	t.Setenv("DATABASE_URL", "postgres://db/oware")
	t.Setenv("OWARE_BASE_URL", "")
	t.Setenv("OWARE_SECRET", "")
	t.Setenv("OWARE_LOG_FORMAT", "")
	c, err := parseConfig([]string{"-addr", ":7000", "-base-url", "https://oware.example/"})
	if err != nil {
		t.Fatal(err)
	}
	want := config{addr: ":7000", database: "postgres://db/oware", baseURL: "https://oware.example",
		logFormat: "text"}
	if c != want {
		t.Errorf("parseConfig = %+v, want %+v", c, want)
	}
	if _, err := parseConfig([]string{"extra"}); err == nil {
		t.Error("parseConfig accepted a stray argument")
	}
}

func TestBuildVersion(t *testing.T) {
	if v, _ := buildVersion(); v != "dev" {
		t.Errorf("version = %q, want dev without -ldflags", v)
	}
}
