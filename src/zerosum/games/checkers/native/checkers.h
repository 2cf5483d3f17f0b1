/* Checkers, compiled: a twin of the move generator (board.py), perft (perft.py), the
 * evaluation (evaluation.py) and the engine's node function (CheckersKernel.negamax in
 * engine.py). The Python stays the reference; everything that decides which moves exist,
 * in which order they come and which nodes the engine visits is the same here, step for
 * step and under the same names, so perft counts, node counts, values and principal
 * variations are identical. Only the cost per node differs.
 *
 * One extension (zerosum.games.checkers._checkers) from one file a job, as Pons splits
 * his solver; this header is what they share:
 *   bits.h        sets of squares (three 64-bit words: 12x12 takes 156 bits)
 *   board.c       a board size's geometry and masks, a position, a move applied to it
 *   moves.c       the move generator (captures, the max rule, steps)
 *   perft.c       the move tree's leaf count
 *   evaluation.c  the heuristic `score`
 *   table.c       the Zobrist hash, the table's entries (the Python dict's own tuples)
 *   search.c      the engine's node function, its ordering, killers and history, and
 *                 the Python type `Search` around them
 *   module.c      between Python's ints and these types, and the module's functions
 *
 * Boards: the same layout as board.py (n x (n+1) bits, row-major, the last column
 * padding), so a square is the same number on both sides. */

#ifndef ZEROSUM_CHECKERS_H
#define ZEROSUM_CHECKERS_H

#include "../../kernel.h"
#include "bits.h"

#define MAX_N 12
#define MAX_SIZE (MAX_N * (MAX_N + 1)) /* 156 bits on 12x12 */
#define MAX_PATH 32 /* a capture takes at most the 30 men a side has on 12x12 */
/* as engine.py */
#define WIN 1000000L
#define WIN_BOUND (WIN - 10000L)
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define MAX_PLY 120
#define TOURNAMENT_QUIET_PLIES 80
#define CHECK_EVERY 1024
#define ERROR LONG_MIN /* a Python exception is set: unwind */

/* ---- board.c: one board size (board.py's Board and evaluation.py's Masks) ---------- */

typedef struct {
    int n, stride, size;
    Bits valid, black_start, black_crown, white_crown;
    int dirs[3][4], ndirs[3]; /* kind 0 = black man, 1 = white man, 2 = king */
    /* jumps[kind][sq]: (jumped square, landing square) per direction, in dirs order */
    uint8_t jump_mid[3][MAX_SIZE][4], jump_land[3][MAX_SIZE][4], njumps[3][MAX_SIZE];
    Bits rows[MAX_N], centre;
    int start_pieces;
} Board;

typedef struct {
    Bits black, white, kings;
} Position;

/* A generated move (board.py's Move): its path; its start and end are path[0] and
 * path[len - 1]; the captured pieces. */
typedef struct {
    Bits taken;
    uint8_t path[MAX_PATH];
    int len;
} Move;

const Board *board(int n);
int check_position(const Board *b, Position p);
Position apply(const Board *b, Position p, int black_to_move, const Move *move);

/* ---- moves.c ------------------------------------------------------------------------ */

typedef struct {
    Move *m;
    int len, cap;
} MoveList;

void free_list(MoveList *list);
int count_steps(const Board *b, Bits own, Bits kings, Bits empty, int black_to_move);
int generate_captures(const Board *b, Bits black, Bits white, Bits kings, int black_to_move,
                      MoveList *out);
int generate_steps(const Board *b, Bits black, Bits white, Bits kings, int black_to_move,
                   MoveList *out);
void keep_longest(MoveList *moves);
int generate(const Board *b, Bits black, Bits white, Bits kings, int black_to_move,
             int max_capture, MoveList *out);

/* ---- perft.c ------------------------------------------------------------------------ */

long long perft(const Board *b, Position p, int black_to_move, int depth, int max_capture);

/* ---- evaluation.c ------------------------------------------------------------------- */

/* evaluation.py's weights, handed over by Python (WEIGHTS there, in this order). */
typedef struct {
    long man, king, advance, back_row, centre, king_centre, mobility, trade, chase;
} Weights;
#define WEIGHT_COUNT 9

int read_weights_into(PyObject *weights, Weights *w);
long score(const Board *b, const Weights *w, Bits black, Bits white, Bits kings);

/* ---- search.c and table.c: the engine's search (CheckersKernel.negamax) ------------- */

typedef struct {
    uint8_t path[MAX_PATH];
    int len; /* 0: none */
} Killer;

typedef struct {
    PyObject_HEAD
    const Board *b;
    uint64_t zobrist[4][MAX_SIZE], zobrist_black;
    int max_capture, ply_limit, tournament;
    int ordering, pvs, killing, quiescence;
    Weights weights;
    PyObject *entries; /* the table's dict, or NULL without the table */
    Counter count;     /* the kernel's observe(nodes): its `check` at that count */
    int seldepth;
    Killer killers[MAX_PLY + 64][2];
    long long (*history)[MAX_SIZE][MAX_SIZE]; /* [side][from][to] */
    MoveList lists[MAX_PLY + 2];             /* the moves of each ply */
    int *orders[MAX_PLY + 2];                /* ... in search order (indices) */
    long *keys[MAX_PLY + 2];                 /* ... and their sort keys */
    int order_cap[MAX_PLY + 2];
    uint64_t *line; /* hashes since the game's start of the reversible stretch */
    int line_len, line_cap;
} Search;

extern PyTypeObject SearchType;

uint64_t hash_after(const Search *S, uint64_t h, Position p, int black_to_move,
                    const Move *move, Bits new_kings);
long to_table(long v, int ply);
long from_table(long v, int ply);
int probe(Search *S, PyObject *key, long *depth, long *bound, long *v, uint8_t *path,
          int *len);
int store(Search *S, PyObject *key, int depth, long bound, long v, const Move *best);

/* ---- module.c: between Python and these types --------------------------------------- */

int bits_from_py(PyObject *value, Bits *out);
PyObject *path_to_py(const Move *m);

#endif
