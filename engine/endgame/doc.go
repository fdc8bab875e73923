// Package endgame builds, stores and reads the endgame tables of Oware
// (Abapa, Wari and Warri, RULES.md sections 2 and 3): for every board with
// at most N seeds and either player to move, a proven interval [lo, hi] for
// the value of the game.
//
// # What a table holds
//
// A board is the twelve pits and the player to move; the table turns it
// round so that the mover owns pits 0..5 (Board). Its value is counted in
// seeds from the mover's side: what the mover will still gain from the
// seeds now on the board minus what the opponent will gain, under perfect
// play by both, with every rule of RULES.md except the 25-seed end: the
// game is played to its end (a player without a legal move, a Wari grand
// slam, or a repetition, after which each side takes its own row).
//
// Leaving out the 25-seed end never changes who wins. Whatever the
// captures c (mover) and c' (opponent) before the board, on any line of
// play the player who reaches 25 first also ends with more than 24 if the
// game goes on, and a line that never reaches 25 ends the same way in both
// games, so c - c' + (the value of the line) has the sign of the result of
// the real game on every line; minimax keeps the sign (it is monotone), so
// c - c' + value > 0, = 0, < 0 exactly when the mover wins, draws, loses.
// The search adds the capture difference to what the table says.
//
// # The repetition rule makes values depend on the path
//
// A position that comes back ends the game (RULES.md 2.6), so the value of
// a position depends on the positions already seen since the last capture
// (a capture makes every earlier position impossible to meet again): the
// value is V(P | H), H the set of positions seen. With A -> B -> A and
// exits eA from A and eB from B, V(A | {A}) = max(eA, min(eB, s(A))) while
// V(B | {B}) = min(eB, max(eA, s(B))) (s the row difference when the game
// stops there): no single number per position is the value for every
// history. A table can only mean V(P | {P}), the value of P reached right
// after a capture or at the start of a game (a game started from a position
// counts it as seen, RULES.md 3).
//
// Even V(P | {P}) cannot be computed exactly for large boards. Among the
// boards of n seeds, the moves that capture nothing form one strongly
// connected component holding 86 % of the boards at 8 seeds, 90 % at 10 and
// 91 % at 12 (measured; the rest are small acyclic parts). The exact value
// inside it needs a search over simple paths in a graph of hundreds of
// thousands of positions; a brute force with the repetition rule along the
// path already fails to finish on many boards of 4 to 6 seeds.
//
// # The bounds
//
// So a table stores two numbers that are proven for V(P | {P}), by two
// fixpoints over the boards of each number of seeds n, taken in order
// 0, 1, ... N (a capture only leads to a finished level). A move leaves the
// level (a capture: the seeds taken plus the bounds of the board left, with
// the sign of whoever moves there; the end of the game: its result), or
// leads to a board of the level. s(P) is the row difference of P, mover's
// row minus opponent's.
//
//  1. Repetition bounds (a greatest fixpoint, from rlo = rhi = s):
//     rlo(P) = min(s(P), max over moves of [its lower bound if it leaves
//     the level, else -rhi(child)]), and rhi the same with max(s(P), ...),
//     upper bounds and -rlo(child). rlo(P) >= t means the mover can keep
//     every position from P on at a row difference of at least t for him,
//     unless he leaves the level for at least t: then whichever position
//     comes back, the game ends at t or more. rhi is the same for the
//     opponent.
//  2. Bounds (a least fixpoint, from lo = rlo and hi = rhi):
//     lo(P) = max(rlo(P), max over moves of [lower bound if it leaves,
//     else -hi(child)]) and hi(P) = min(rhi(P), max over moves of [upper
//     bound if it leaves, else -lo(child)]). lo(P) >= t means the mover can
//     force, in a finite number of moves and along positions that never
//     repeat, either a move out of the level worth t or a position from
//     which step 1 holds t.
//
// Soundness: both steps describe strategies that depend only on the
// position. Following them from P with history {P}, positions met while
// forcing (step 2) do not repeat (each is a step closer to its goal); once
// step 1's region is reached every later position, and any earlier one
// that comes back, lies in it; so the true V(P | {P}) is at least lo(P),
// and the same argument for the opponent gives at most hi(P). Where
// lo = hi the value is exact for a fresh P. At the fixpoint every stored
// pair also satisfies lo(P) = max over moves of [lower bound, or
// -hi(child)] and hi(P) = max over moves of [upper bound, or -lo(child)]:
// one step of play from the successors checks every stored value
// (Table.Verify).
//
// How much is exact (abapa, measured): every board of 0 or 1 seed, 83 % of
// the boards of 2 seeds, 62 % of 8, 39 % of 10, 23 % of 12, fewer above;
// the other intervals are 2 to 6 seeds wide.
// A board where every move is forced round a cycle back to the start has
// the value s(start), but the bounds only span the row differences met on
// the way. The bounds do not hold for a position reached after moves that
// capture nothing (its history is more than itself): the search plays
// those moves itself, with the repetition rule along its path, and uses
// the table only on the positions captures leave.
//
// # Storage
//
// Values of a board of n seeds have the parity of n (the two gains add up
// to n), so the pair (lo, hi) fits one byte for n <= MaxSeedsLimit (21).
// Boards are numbered by the number of seeds, then lexicographically by
// the pits (a combinatorial rank), so a table of up to N seeds holds
// C(N+12, 12) bytes: 226 million (226 MB) for N = 20. Files carry a header
// and a checksum, are written atomically, and are memory-mapped read-only.
//
// Build runs in the calling goroutine, one core, level by level, with
// progress and cancellation; Cache keeps the three tables of a folder for
// the server and builds the missing ones in the background.
package endgame
