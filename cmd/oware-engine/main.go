// Command oware-engine is a command-line front to package engine: it plays
// move lists, lists legal moves and counts perft leaves, searches positions,
// builds endgame tables, speaks UCI and referees matches, for people, tools
// and tests. Run `oware-engine --help` for the commands.
package main

import (
	"fmt"
	"io"
	"os"
)

// readFile reads a named file, or standard input for "-".
func readFile(name string) (string, error) {
	var b []byte
	var err error
	if name == "-" {
		b, err = io.ReadAll(os.Stdin)
	} else {
		b, err = os.ReadFile(name)
	}
	return string(b), err
}

const usage = `oware-engine: the Oware rules engine on the command line.

Commands:
  oware-engine play --rules R [--fours F] [--position P] [--json] MOVE...
      Plays the moves in order from P (default: the start) and prints the
      board after each move, or with --json one JSON object per move, one per
      line: {"move","position","over", and when over "result","reason"; also
      "captures" [{"pit","seeds","by"}],"grand_slam","extra_turn"}. Under
      namnam the moves run across rounds: a line also has "steps" (seeds
      dropped by the relay) and "round"; the move that ends a round has
      "round_over": true, "round_reason", "totals" {"south","north"} and,
      unless the match is over, "next" (the start position of the next
      round, from which the following moves are played). An illegal move is
      reported on stderr, naming the move and why, after the lines of the
      moves before it; the exit status is then 2.
  oware-engine moves --rules R --position P
      Prints the legal move labels, space-separated (an empty line if none).
  oware-engine perft --rules R [--position P] --depth N
      Prints "depth nodes" for each depth 1..N: the number of positions
      reached after exactly that many plies, as chess programs define perft.
      A game that ends at ply k (also by repetition) is a leaf at depth k and
      is not counted again at deeper depths; in namnam the end of a round is
      such a leaf.
  oware-engine replay [--json] FILE.ogn
      Reads an OGN game record (RULES.md 1; - reads standard input; the
      records of Aualé and of the site, see docs/engine.md) and prints the position
      after each move as play does, the move's number before it ("12." or
      "12…"); an agreement "=" prints as a move "=", and a resignation or an
      agreement that the Termination tag records after the last move as a
      last line. Moves after the end of the game are not played: stderr
      says how many. A bad record is an error naming its line and the move
      it is on.
  oware-engine best --rules R [--position P] [--level L | --depth D | --movetime MS]
                    [--tables DIR] [--seed S] [--hash MB] [--threads N] [--json] [MOVE...]
      Searches the position after the moves (played from P, for the
      repetition rule) and prints the best move, its value (seeds, from the
      mover's side: the capture difference expected at the end), the depth
      reached, the principal variation and whether the value is exact
      (proven to the end of the game or by the tables), or with --json
      {"best","value","depth","pv","exact","nodes","cutoffs","first_cutoffs",
      "time_ms"} (cutoffs: nodes a move refuted, first_cutoffs: by the first
      move tried). Without a limit it plays as level 8 (1 s). --tables: a
      folder of table files. --threads N searches on N threads sharing the
      table (lazy SMP; 1 by default, and then reproducible).
  oware-engine tables --rules abapa|wari|warri --max-seeds N --out DIR [--verify]
      Builds the endgame table of every board of up to N seeds (0..21; 20
      takes about half an hour per rule set and 226 MB) into DIR/R-N.tbl, on
      one core, with progress on stderr. --verify checks every board of the
      file by one step of play (building it first if it is missing).
  oware-engine puzzles [--min-seeds 5] [--max-seeds 10] [--count 600] [--seed S]
                       [--deep N] [--deep-max-seeds 18] [--self-play G]
                       [--tables DIR] [--out FILE] [RECORD.ogn...]
      Draws random positions of Abapa, Warri and Wari within the endgame
      tables and writes the puzzles among them (exactly one winning move at
      each of the solver's turns, proven by the tables; see docs/puzzles.md)
      as a puzzle file (version 1, "oware-puzzles 1" first). Without
      --tables it builds the tables it needs in memory (10 seeds: a few
      seconds a rule set). --deep N adds N puzzles of --max-seeds+1 to
      --deep-max-seeds seeds on the board, beyond the tables, theme
      middlegame: proven by a deep search margin (every first move searched
      16 plies deep after it, one thread, no tables; the best at least 4
      seeds of final capture difference better than every other). The
      positions of the games in the RECORD files, and of G games per rule
      set the computer plays against itself (depth 4, with noise; the same
      seed, the same games), are mined too: by the tables within
      --max-seeds, by the deep search margin above.
  oware-engine puzzles --verify FILE [--tables DIR]
      Proves every puzzle of FILE again with the tables (a middlegame
      puzzle by the same deep search margin) and prints the time; exit
      status 0 only when every puzzle is proven unique, 1 when one is not
      (each named on stderr).
  oware-engine uci [--level L] [--rules R] [--hash MB] [--threads N] [--tables DIR]
                   [--weights W] [--pits FILE|none] [--book=false]
      Speaks the UCI-like protocol of the Aalina engine on stdin/stdout:
      uci, isready, ucinewgame, setoption name Level|Hash|Threads|UseTables|
      OwnBook|Rules|Weights value V, position startpos|fen P [moves M...] (labels, apart
      or together: FfBe), go [depth D] [movetime MS] [wtime MS btime MS
      winc MS binc MS] [nodes N] [ponder|infinite], stop, quit; d shows the
      position. A search answers "info depth D score cp X pv M..." and
      "info nodes N time MS nps K" after each iteration, then "bestmove
      M" (also after stop, at once). Scores are in centi-seeds (100 = one
      seed). "go nodes N" without a time replaces the level's time by the
      node count (a fixed effort). Levels 6-8 answer from the opening book
      where it has the position ("info string book"; OwnBook false or
      --book=false: never). --pits FILE evaluates with another pit table
      (tune --pits), --pits none without one.
  oware-engine bot --url URL --token T --engine "CMD ..." [--concurrency 2]
                   [--rules abapa,wari,warri] [--rated any|rated|casual]
                   [--from any|bots|people] [--min-initial S] [--max-initial S]
                   [--untimed=false] [--movetime MS] [--challenge NAME
                   [--clock INITIAL+INCREMENT|none] [--seat S]] [--games N]
      Connects an engine that speaks the UCI-like protocol below (this
      command's own uci at any level, or another program) to a site's Bot
      API as the bot account of the token (scope bot:play; also
      $OWARE_BOT_TOKEN): it reads the bot's event stream, accepts the
      challenges the filter lets through while fewer than --concurrency
      games are played (1 to 8) and declines the others with the Bot API's
      reason (variant, rated, casual, noBot, onlyBot, timeControl, tooFast,
      tooSlow, later), and plays each game with an engine process of its
      own (kept for later games): "ucinewgame", then at each turn
      "position startpos moves ..." and "go wtime/btime/winc/binc"
      (South's time is wtime), or "go movetime MS" without a clock
      (default 1000). A move answered 429 or 503 is sent again after its
      Retry-After; after 3 refused moves the bridge resigns. --challenge NAME challenges that bot, one game at a
      time. A dropped stream is read again (after 1 s, then twice as long,
      at most 30 s), resuming the games; a stream silent for 30 s counts
      as dropped. An engine that fails or answers nothing in time resigns
      its game. --games N stops after N games ended; a token the site
      refuses stops the bridge with the site's reason.
  oware-engine match --engine "CMD ..." --engine "CMD ..." --games N
                     --movetime MS | --clock S+I | --depth D | --nodes N
                     [--openings K|FILE] [--rules R] [--max-plies P] [--seed S]
                     [--sprt ELO0,ELO1 [--alpha A] [--beta B]] [--json]
      Referees N games between two UCI engines (e.g. "oware-engine uci
      --level 3"), in pairs from the same opening with the seats swapped:
      a random opening of K plies (default 4), or the openings of FILE in
      turn (one a line, as openings prints them). The limits go to the
      engines as "go movetime MS depth D nodes N" (nodes alone: a fixed
      effort, the same result whatever the machine's load); --clock S+I
      gives each engine a clock of S seconds and I seconds a move, sent as
      "go wtime/btime/winc/binc", and an engine out of time loses. The rules
      engine judges: an illegal, late or missing move loses; a game of P
      plies (default 600) ends as by agreement. Prints wins/draws/losses
      of the first engine, its score with a 95 % interval and the Elo
      difference; each game on stderr. --sprt stops the match once a
      sequential test decides between "the first engine is ELO0 stronger"
      (H0) and "ELO1 stronger" (H1), with error rates --alpha and --beta
      (0.05 each): the pentanomial GSPRT of fishtest over the pairs, its
      log-likelihood ratio and bounds printed after each pair. SIGTERM
      (e.g. from timeout 15m) ends the match after the game under way
      with the summary of the games played.
  oware-engine book --out FILE [--positions N] [--depth D] [--dropout W]
                    [--seed S] [--hash MB] [--time T]
      Builds an Abapa opening book by drop-out expansion over the search:
      from the start, N times (default 500), the position whose way from
      the start costs least (W centi-seeds a ply, default 40, plus how much
      worse than the best each move on the way is) gets every move
      searched to depth D (default 12), and the values go back to the
      start by minimax. The same flags build the same file; --time (e.g.
      20m) stops earlier with the book so far (the count it prints, as
      --positions, builds that book again). Levels 6-8
      play from the book embedded in the binary
      (engine/search/book/abapa.book): a move within 0.3 seed of the
      best, at random, the better the likelier.
  oware-engine tune [--games N] [--depth D] [--table-seeds S]
                    [--table-samples M] [--step K] [--seed X] [--pits FILE [--rounds R]]
      Fits the evaluation's weights (Texel's local search on the squared
      difference of sigmoids) to labels of our own: the quiet positions of
      N self-play games (default 40; a depth-6 search, level 5 when the pit
      table was fitted), each valued by a search to
      depth D (default 10), and M (default 3000) random quiet positions of
      at most S seeds (default 10) whose value an endgame table built in
      memory knows exactly. Prints the loss of the default weights and of
      the fitted ones, as uci --weights takes them; keep a fit only if
      match --sprt says it wins. --pits FILE also fits a pit table (a value
      for each pit and seed count, added to the default weights' terms) by
      R rounds of gradient descent (default 2000) on half the positions,
      prints its loss on the other half, and writes it for uci --pits FILE.
  oware-engine openings [--rules R] [--count N] [--plies K] [--depth D]
                        [--margin M] [--seed S]
      Prints N balanced openings for match --openings: random openings of
      K plies (default 6), distinct, whose value searched to depth D
      (default 12) is within M seeds (default 1) of 0, one a line with
      the value as a comment. The same flags print the same file.

Rules R: abapa (the standard), wari or warri (the grand slam settings), or
  namnam (captures in fours, a match of rounds) with --fours last (default:
  only the last seed's four is captured) or owner (every four made during
  the sowing goes to the pit's owner).
Positions P: the position string of RULES.md, e.g. the start
  4-4-4-4-4-4-4-4-4-4-4-4-0-0-S  (pits 0..11, captures of South and North,
  player to move S or N); namnam adds the owner of each pit (S, N or x for
  nobody) and the two stores: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-SSSSSSNNNNNN-0-0
Moves: pit labels A..F (South's pits 0..5) and a..f (North's pits 6..11).

Exit status: 0 on success, 2 on bad flags, bad input or an illegal move
(puzzles --verify: 1 for a puzzle not proven).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "play":
		err = play(args[1:], stdout)
	case "moves":
		err = moves(args[1:], stdout)
	case "perft":
		err = perft(args[1:], stdout)
	case "replay":
		err = replay(args[1:], stdout, stderr)
	case "best":
		err = best(args[1:], stdout)
	case "tables":
		err = tables(args[1:], stdout, stderr)
	case "uci":
		err = uci(args[1:], os.Stdin, stdout)
	case "match":
		err = match(args[1:], stdout, stderr)
	case "bot":
		err = bot(args[1:], stderr)
	case "puzzles":
		err = puzzles(args[1:], stdout, stderr)
	case "openings":
		err = openings(args[1:], stdout)
	case "book":
		err = bookCommand(args[1:], stdout, stderr)
	case "tune":
		err = tune(args[1:], stdout, stderr)
	default:
		err = usageError{fmt.Errorf("unknown command %q (want play, moves, perft, replay, best, tables, puzzles, uci, match, openings, book or tune)", args[0])}
	}
	switch e := err.(type) {
	case nil:
		return 0
	case proofFailed:
		fmt.Fprintf(stderr, "oware-engine: %v\n", e.error)
		return 1
	case helpRequested:
		fmt.Fprint(stdout, usage)
		return 0
	case usageError:
		fmt.Fprintf(stderr, "oware-engine: %v\nRun 'oware-engine --help' for usage.\n", e.error)
		return 2
	default:
		fmt.Fprintf(stderr, "oware-engine: %v\n", err)
		return 2
	}
}
