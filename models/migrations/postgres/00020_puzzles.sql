-- +goose Up
-- Puzzles (issue 23), loaded at start from the puzzle file shipped with
-- the site (content/puzzles.txt, engine/puzzle's format). id is the
-- puzzle's own (a hash of the rules and the position); solution the move
-- labels of the line, comma-separated (the solver's moves and the
-- opponent's replies between them); themes the theme names with a comma
-- before and after each (',endgame-win,feeding,') for a LIKE filter;
-- first_moves every legal first move as label:lo:hi (the proven final
-- capture differences). number is the puzzle's place in the file: the
-- order of lists, of "next puzzle" and of the daily puzzle. rating,
-- deviation and volatility are its Glicko-2 puzzle rating; plays counts
-- the rated attempts.
CREATE TABLE puzzles (
    id          text PRIMARY KEY,
    number      integer NOT NULL,
    rules       text NOT NULL,
    position    text NOT NULL,
    solution    text NOT NULL,
    themes      text NOT NULL,
    first_moves text NOT NULL,
    rating      double precision NOT NULL,
    deviation   double precision NOT NULL,
    volatility  double precision NOT NULL,
    plays       integer NOT NULL DEFAULT 0
);
CREATE INDEX puzzles_number ON puzzles (number);

-- +goose Down
DROP TABLE puzzles;
