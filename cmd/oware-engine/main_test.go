package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPlayJSON(t *testing.T) {
	// From the start: C sows 3..6; d (pit 9) sows 10, 11, 0, 1; B (pit 1,
	// now 5) sows 2..6. Derived by hand.
	code, out, errOut := runCmd("play", "--rules", "abapa", "--json", "C", "d", "B")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		"4-4-0-5-5-5-5-4-4-4-4-4-0-0-N",
		"5-5-0-5-5-5-5-4-4-0-5-5-0-0-S",
		"5-0-1-6-6-6-6-4-4-0-5-5-0-0-N",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, line := range lines {
		var m struct {
			Move     string `json:"move"`
			Position string `json:"position"`
			Over     *bool  `json:"over"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Position != want[i] || m.Over == nil || *m.Over {
			t.Errorf("line %d = %s, want position %s, over false", i+1, line, want[i])
		}
	}
}

func TestPlayEndOfGame(t *testing.T) {
	// North's last seed goes to pit 0; South cannot feed and takes its 3
	// seeds: 24 to 24.
	code, out, _ := runCmd("play", "--rules=abapa", "--position", "0-1-1-0-0-0-0-0-0-0-0-1-21-24-N", "--json", "f")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m["position"] != "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S" || m["over"] != true || m["result"] != "draw" || m["reason"] != "cannot-feed" {
		t.Errorf("got %v", m)
	}
}

func TestPlayIllegalMove(t *testing.T) {
	code, out, errOut := runCmd("play", "--rules", "abapa", "--json", "C", "C")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if n := strings.Count(out, "\n"); n != 1 {
		t.Errorf("%d lines before the illegal move, want 1", n)
	}
	if !strings.Contains(errOut, `move 2 "C"`) || !strings.Contains(errOut, "not yours") {
		t.Errorf("stderr %q does not name the move and why", errOut)
	}
}

func TestMovesAndPerft(t *testing.T) {
	if code, out, _ := runCmd("moves", "--rules", "abapa", "--position", "1-2-2-3-2-1-0-0-0-0-0-0-20-17-S"); code != 0 || out != "D E F\n" {
		t.Errorf("moves = %d %q, want D E F", code, out)
	}
	if code, out, _ := runCmd("moves", "--rules", "abapa", "--position", "0-0-0-0-0-0-4-4-4-4-4-4-12-12-S"); code != 0 || out != "\n" {
		t.Errorf("moves with none = %d %q, want an empty line", code, out)
	}
	if code, out, _ := runCmd("perft", "--rules", "wari", "--depth", "3"); code != 0 || out != "1 6\n2 36\n3 190\n" {
		t.Errorf("perft = %d %q", code, out)
	}
}

func TestBadInput(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"fly"},
		{"play", "C"},
		{"play", "--rules", "oware", "C"},
		{"play", "--rules", "abapa", "--position", "4-4", "C"},
		{"play", "--rules", "abapa", "Z"},
		{"moves", "--rules", "abapa", "--bogus"},
		{"perft", "--rules", "abapa", "--depth", "0"},
		{"perft", "--rules", "abapa", "--depth", "x"},
	} {
		if code, _, errOut := runCmd(args...); code != 2 || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
	if code, out, _ := runCmd("--help"); code != 0 || !strings.Contains(out, "oware-engine perft") {
		t.Errorf("--help: %d %q", code, out)
	}
}

func TestPlayNamNamAcrossRounds(t *testing.T) {
	// Four single seeds step round the board; after 12 moves the start comes
	// back: the round ends by repetition, 24 to 24, and North starts round 2
	// from the full board, where its pit a relays 4 seeds.
	code, out, errOut := runCmd("play", "--rules", "namnam", "--json", "--position",
		"1-0-0-1-0-0-1-0-0-1-0-0-22-22-S-SSSSSSNNNNNN-0-0", "D", "d", "E", "e", "A", "a", "F", "f", "B", "b", "C", "c", "a")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 13 {
		t.Fatalf("%d lines", len(lines))
	}
	var end struct {
		RoundOver bool           `json:"round_over"`
		Reason    string         `json:"round_reason"`
		Totals    map[string]int `json:"totals"`
		Next      string         `json:"next"`
		Position  string         `json:"position"`
	}
	if err := json.Unmarshal([]byte(lines[11]), &end); err != nil {
		t.Fatal(err)
	}
	if !end.RoundOver || end.Reason != "repetition" || end.Totals["south"] != 24 || end.Totals["north"] != 24 ||
		end.Next != "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N-SSSSSSNNNNNN-0-0" ||
		end.Position != "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S-SSSSSSNNNNNN-0-0" {
		t.Errorf("round end line: %s", lines[11])
	}
	var next struct {
		Round int `json:"round"`
	}
	json.Unmarshal([]byte(lines[12]), &next)
	if next.Round != 2 {
		t.Errorf("13th move played in round %d, want 2", next.Round)
	}
	if code, _, _ := runCmd("moves", "--rules", "abapa", "--fours", "owner", "--position", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"); code != 2 {
		t.Errorf("--fours with abapa: exit %d, want 2", code)
	}
}

func TestReplay(t *testing.T) {
	dir := t.TempDir()
	good := dir + "/good.ogn"
	os.WriteFile(good, []byte("[Variant \"abapa\"]\n[South \"ama\"]\n\n1. C d 2. B *\n"), 0o644)
	code, out, errOut := runCmd("replay", "--json", good)
	if code != 0 || strings.Count(out, "\n") != 3 || !strings.Contains(out, `"position":"5-0-1-6-6-6-6-4-4-0-5-5-0-0-N"`) {
		t.Errorf("replay: %d %q %q", code, out, errOut)
	}
	bad := dir + "/bad.ogn"
	os.WriteFile(bad, []byte("[Variant \"abapa\"]\n1. C d\n2. C\n"), 0o644)
	if code, _, errOut := runCmd("replay", bad); code != 2 || !strings.Contains(errOut, "line 3") {
		t.Errorf("bad record: %d %q", code, errOut)
	}
	if code, _, _ := runCmd("replay", dir+"/missing.ogn"); code != 2 {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestReplayAgreementsAndEnds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		os.WriteFile(dir+"/"+name, []byte(text), 0o644)
		return dir + "/" + name
	}
	// A Nam-nam record as the site writes it: the players agree to end
	// round 1 at once (24 each: North starts round 2 from the start's
	// pits), North plays a, then they agree to end round 2 and the match.
	// Without the agreements, a would not be North's move.
	code, out, errOut := runCmd("replay", "--json", write("nn.ogn", "[Variant \"Nam-nam\"]\n\n= 1. a = = 25-23\n"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || !strings.Contains(lines[0], `"move":"="`) ||
		!strings.Contains(lines[0], `"next":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-N-SSSSSSNNNNNN-0-0"`) ||
		!strings.Contains(lines[1], `"move":"a"`) || !strings.Contains(lines[3], `"reason":"agreement"`) {
		t.Errorf("namnam replay: %d\n%s\n%s", code, out, errOut)
	}
	// A resignation recorded by the Termination tag ends the replay; moves
	// after a 25-seed win are noted, not played (F captures 2: 25).
	code, out, errOut = runCmd("replay", write("res.ogn", "[Termination \"resignation; north wins\"]\n1. C d\n"))
	if code != 0 || !strings.Contains(out, "1… d\n") || !strings.Contains(out, "resignation\n") || !strings.Contains(out, "game over: north (resignation)") {
		t.Errorf("resigned: %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCmd("replay", write("after.ogn", "[FEN \"1-0-0-0-0-1-1-1-0-0-0-0-23-21-S\"]\n1. F+2 b 2. A 25-21\n"))
	if code != 0 || !strings.Contains(errOut, "the game ended at move 1; the 2 moves after the end were not played") {
		t.Errorf("moves after the end: %d %q", code, errOut)
	}
	if code, _, errOut := runCmd("replay", write("mark.ogn", "1. C+3\n")); code != 2 || !strings.Contains(errOut, "line 1, move 1. C+3") {
		t.Errorf("bad capture mark: %d %q", code, errOut)
	}
}

func TestPerftHelpSaysWhatALeafIs(t *testing.T) {
	if _, out, _ := runCmd("--help"); !strings.Contains(out, "is a leaf at depth k and\n      is not counted again at deeper depths") {
		t.Errorf("help:\n%s", out)
	}
}
