/* Checkers, compiled: a twin of the move generator (board.py), perft (perft.py), the
 * evaluation (evaluation.py) and the engine's node function (CheckersKernel.negamax in
 * engine.py). The Python stays the reference; everything that decides which moves exist,
 * in which order they come and which nodes the engine visits is the same here, step for
 * step and under the same names, so perft counts, node counts, values and principal
 * variations are identical. Only the cost per node differs.
 *
 * Boards: the same layout as board.py (n x (n+1) bits, row-major, the last column
 * padding), so a square is the same number on both sides. A 12x12 board takes 156 bits,
 * more than a machine word, so a set of squares is three 64-bit words (`Bits`) with the
 * few operations the Python does on its ints: and, or, xor, shifts below 64, popcount.
 *
 * The engine's table is the Python TranspositionTable's own dict (the same keys, the same
 * entry tuples), so what the engine keeps from move to move, the table's bound (make_room,
 * capacity_for) and the principal variation read from it stay the Python's. Killer moves
 * and the history heuristic live here (`Search`); `history()` hands the latter back for
 * the root's ordering, which the Python does.
 *
 * Reporting back: every 1,024 nodes (as engine.py) the search writes its node count into
 * the Python kernel and calls its `check` (the stop, the node budget, the table's room);
 * the SearchStopped it may raise unwinds the recursion as the ERROR value. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 12
#define MAX_SIZE (MAX_N * (MAX_N + 1)) /* 156 bits on 12x12 */
#define WORDS 3                        /* 192 bits */
#define MAX_PATH 32 /* a capture takes at most the 30 men a side has on 12x12 */
/* as engine.py */
#define WIN 1000000L
#define WIN_BOUND (WIN - 10000L)
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define MAX_PLY 120
#define TOURNAMENT_QUIET_PLIES 80
#define ERROR LONG_MIN /* a Python exception is set: unwind */
/* as evaluation.py */
#define MAN 100
#define KING 140
#define ADVANCE 3
#define BACK_ROW 10
#define CENTRE 4
#define KING_CENTRE 6
#define MOBILITY 2
#define TRADE 3
#define CHASE 2

/* ---- sets of squares --------------------------------------------------------------- */

typedef struct {
    uint64_t w[WORDS];
} Bits;

static const Bits NONE = {{0, 0, 0}};

static inline Bits b_and(Bits a, Bits b)
{
    Bits r;
    for (int i = 0; i < WORDS; i++)
        r.w[i] = a.w[i] & b.w[i];
    return r;
}

static inline Bits b_or(Bits a, Bits b)
{
    Bits r;
    for (int i = 0; i < WORDS; i++)
        r.w[i] = a.w[i] | b.w[i];
    return r;
}

static inline Bits b_xor(Bits a, Bits b)
{
    Bits r;
    for (int i = 0; i < WORDS; i++)
        r.w[i] = a.w[i] ^ b.w[i];
    return r;
}

static inline Bits b_andnot(Bits a, Bits b) /* a & ~b */
{
    Bits r;
    for (int i = 0; i < WORDS; i++)
        r.w[i] = a.w[i] & ~b.w[i];
    return r;
}

static inline int b_any(Bits a) { return (a.w[0] | a.w[1] | a.w[2]) != 0; }

static inline int b_has(Bits a, int sq) { return (int)(a.w[sq >> 6] >> (sq & 63) & 1); }

static inline Bits b_bit(int sq)
{
    Bits r = NONE;
    r.w[sq >> 6] = (uint64_t)1 << (sq & 63);
    return r;
}

static inline void b_set(Bits *a, int sq) { a->w[sq >> 6] |= (uint64_t)1 << (sq & 63); }

/* x << k and x >> k for 0 < k < 64 (the steps and jumps: at most 2 * 14). Bits pushed past
 * the top fall off, where Python's ints would keep them: no mask the callers use has
 * them, so the results are the same. */
static inline Bits b_shl(Bits a, int k)
{
    Bits r;
    r.w[2] = a.w[2] << k | a.w[1] >> (64 - k);
    r.w[1] = a.w[1] << k | a.w[0] >> (64 - k);
    r.w[0] = a.w[0] << k;
    return r;
}

static inline Bits b_shr(Bits a, int k)
{
    Bits r;
    r.w[0] = a.w[0] >> k | a.w[1] << (64 - k);
    r.w[1] = a.w[1] >> k | a.w[2] << (64 - k);
    r.w[2] = a.w[2] >> k;
    return r;
}

/* board.py's shift(x, d): left for d > 0, right for d < 0 */
static inline Bits shift(Bits a, int d) { return d > 0 ? b_shl(a, d) : b_shr(a, -d); }

/* Bits set, without the popcnt instruction (a portable build may not assume it): the
 * usual halving sums. */
static inline int popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline int popcount(Bits a)
{
    return popcount64(a.w[0]) + popcount64(a.w[1]) + popcount64(a.w[2]);
}

/* The lowest set square, removed from *a (the `bits()` loop of bits.py); -1 when empty. */
static inline int pop_lowest(Bits *a)
{
    for (int i = 0; i < WORDS; i++) {
        if (a->w[i]) {
            int sq = i * 64 + __builtin_ctzll(a->w[i]); /* gcc and clang */
            a->w[i] &= a->w[i] - 1;
            return sq;
        }
    }
    return -1;
}

/* ---- one board size (board.py's Board and evaluation.py's Masks) -------------------- */

typedef struct {
    int n, stride, size;
    Bits valid, black_start, black_crown, white_crown;
    int dirs[3][4], ndirs[3]; /* kind 0 = black man, 1 = white man, 2 = king */
    /* jumps[kind][sq]: (jumped square, landing square) per direction, in dirs order */
    uint8_t jump_mid[3][MAX_SIZE][4], jump_land[3][MAX_SIZE][4], njumps[3][MAX_SIZE];
    Bits rows[MAX_N], centre;
    int start_pieces;
} Board;

static Board boards[MAX_N + 1];
static int built[MAX_N + 1];

/* board(n) of board.py (and masks(n) of evaluation.py); NULL with ValueError for a size
 * it refuses. */
static const Board *board(int n)
{
    if (n < 4 || n > MAX_N || n % 2) {
        PyErr_Format(PyExc_ValueError, "board size must be even, 4 to 12, not %d", n);
        return NULL;
    }
    Board *b = &boards[n];
    if (built[n])
        return b;
    memset(b, 0, sizeof *b);
    b->n = n;
    b->stride = n + 1;
    b->size = n * b->stride;
    int men_rows = (n - 2) / 2;
    int lo = n >= 6 ? 2 : 1, hi = n >= 6 ? n - 3 : n - 2;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            if ((r + c) % 2 != 1)
                continue;
            int sq = r * b->stride + c;
            b_set(&b->valid, sq);
            b_set(&b->rows[r], sq);
            if (r < men_rows)
                b_set(&b->black_start, sq);
            if (r == n - 1)
                b_set(&b->black_crown, sq);
            if (r == 0)
                b_set(&b->white_crown, sq);
            if (lo <= r && r <= hi && lo <= c && c <= hi)
                b_set(&b->centre, sq);
        }
    b->start_pieces = popcount(b->black_start);
    int black_dirs[2] = {n, n + 2}, white_dirs[2] = {-n, -(n + 2)};
    for (int i = 0; i < 2; i++) {
        b->dirs[0][i] = black_dirs[i];
        b->dirs[1][i] = white_dirs[i];
        b->dirs[2][i] = black_dirs[i];
        b->dirs[2][2 + i] = white_dirs[i];
    }
    b->ndirs[0] = b->ndirs[1] = 2;
    b->ndirs[2] = 4;
    for (int kind = 0; kind < 3; kind++)
        for (int sq = 0; sq < b->size; sq++) {
            if (!b_has(b->valid, sq))
                continue;
            for (int i = 0; i < b->ndirs[kind]; i++) {
                int d = b->dirs[kind][i], mid = sq + d, land = sq + 2 * d;
                if (0 <= land && land < b->size && b_has(b->valid, mid)
                    && b_has(b->valid, land)) {
                    int j = b->njumps[kind][sq]++;
                    b->jump_mid[kind][sq][j] = (uint8_t)mid;
                    b->jump_land[kind][sq][j] = (uint8_t)land;
                }
            }
        }
    built[n] = 1;
    return b;
}

/* ---- moves ------------------------------------------------------------------------- */

/* A generated move (board.py's Move): its path; its start and end are path[0] and
 * path[len - 1]; the captured pieces. */
typedef struct {
    Bits taken;
    uint8_t path[MAX_PATH];
    int len;
} Move;

typedef struct {
    Move *m;
    int len, cap;
} MoveList;

/* A new move at the end of `out`, or NULL (MemoryError set). */
static Move *push(MoveList *out)
{
    if (out->len == out->cap) {
        int cap = out->cap ? 2 * out->cap : 64;
        Move *m = realloc(out->m, (size_t)cap * sizeof *m);
        if (m == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        out->m = m;
        out->cap = cap;
    }
    return &out->m[out->len++];
}

static void free_list(MoveList *list)
{
    free(list->m);
    list->m = NULL;
    list->len = list->cap = 0;
}

/* The pieces of `own` that can capture, found with shifts (no per-piece loop). */
static Bits jumpers(const Board *b, Bits own, Bits enemy, Bits empty, Bits kings,
                    int black_to_move)
{
    int a = b->n, c = b->n + 2; /* the two downward steps; upward ones are their negatives */
    Bits down = black_to_move ? own : b_and(own, kings);
    Bits up = black_to_move ? b_and(own, kings) : own;
    Bits found = NONE;
    if (b_any(down))
        found = b_and(down, b_or(b_and(b_shr(enemy, a), b_shr(empty, 2 * a)),
                                 b_and(b_shr(enemy, c), b_shr(empty, 2 * c))));
    if (b_any(up))
        found = b_or(found, b_and(up, b_or(b_and(b_shl(enemy, a), b_shl(empty, 2 * a)),
                                           b_and(b_shl(enemy, c), b_shl(empty, 2 * c)))));
    return found;
}

/* How many steps `own` has (each piece and direction counts), by shifts and popcounts. */
static int count_steps(const Board *b, Bits own, Bits kings, Bits empty, int black_to_move)
{
    int a = b->n, c = b->n + 2;
    Bits down = black_to_move ? own : b_and(own, kings);
    Bits up = black_to_move ? b_and(own, kings) : own;
    int total = 0;
    if (b_any(down))
        total = popcount(b_and(b_shl(down, a), empty)) + popcount(b_and(b_shl(down, c), empty));
    if (b_any(up))
        total += popcount(b_and(b_shr(up, a), empty)) + popcount(b_and(b_shr(up, c), empty));
    return total;
}

/* Extend a capture sequence from `sq` in every way; record each one that must stop.
 * Jumped pieces stay on the board until the move ends (they cannot be jumped twice); a
 * man that reaches the crowning row stops there (crowning ends the move). `path` holds
 * the squares so far. Returns -1 on MemoryError. */
static int jump(const Board *b, int kind, int sq, Bits enemy, Bits empty, Move *path,
                Bits crown, MoveList *out)
{
    int extended = 0;
    for (int i = 0; i < b->njumps[kind][sq]; i++) {
        int mid = b->jump_mid[kind][sq][i], land = b->jump_land[kind][sq][i];
        if (b_has(enemy, mid) && b_has(empty, land) && !b_has(path->taken, mid)) {
            extended = 1;
            Move next = *path;
            b_set(&next.taken, mid);
            next.path[next.len++] = (uint8_t)land;
            if (b_has(crown, land)) {
                Move *m = push(out);
                if (m == NULL)
                    return -1;
                *m = next;
            } else if (jump(b, kind, land, enemy, empty, &next, crown, out) < 0) {
                return -1;
            }
        }
    }
    if (!extended && b_any(path->taken)) {
        Move *m = push(out);
        if (m == NULL)
            return -1;
        *m = *path;
    }
    return 0;
}

static int generate_captures(const Board *b, Bits black, Bits white, Bits kings,
                             int black_to_move, MoveList *out)
{
    Bits own = black_to_move ? black : white, enemy = black_to_move ? white : black;
    Bits empty = b_andnot(b->valid, b_or(black, white));
    int man_kind = black_to_move ? 0 : 1;
    Bits crown = black_to_move ? b->black_crown : b->white_crown;
    Bits found = jumpers(b, own, enemy, empty, kings, black_to_move);
    out->len = 0;
    for (int sq = pop_lowest(&found); sq >= 0; sq = pop_lowest(&found)) {
        int is_king = b_has(kings, sq);
        Move start;
        start.taken = NONE;
        start.path[0] = (uint8_t)sq;
        start.len = 1;
        /* The moving piece's own square is free to land on again (a king's loop). */
        if (jump(b, is_king ? 2 : man_kind, sq, enemy, b_or(empty, b_bit(sq)), &start,
                 is_king ? NONE : crown, out) < 0)
            return -1;
    }
    return 0;
}

static int generate_steps(const Board *b, Bits black, Bits white, Bits kings,
                          int black_to_move, MoveList *out)
{
    Bits empty = b_andnot(b->valid, b_or(black, white));
    Bits own = black_to_move ? black : white;
    const int *forward = black_to_move ? b->dirs[0] : b->dirs[1];
    const int *backward = black_to_move ? b->dirs[1] : b->dirs[0];
    out->len = 0;
    /* Men and kings step forward together; kings also step backward. */
    for (int pass = 0; pass < 2; pass++) {
        Bits movers = pass == 0 ? own : b_and(own, kings);
        const int *dirs = pass == 0 ? forward : backward;
        if (!b_any(movers))
            continue;
        for (int i = 0; i < 2; i++) {
            int d = dirs[i];
            Bits targets = b_and(shift(movers, d), empty);
            for (int t = pop_lowest(&targets); t >= 0; t = pop_lowest(&targets)) {
                Move *m = push(out);
                if (m == NULL)
                    return -1;
                m->taken = NONE;
                m->path[0] = (uint8_t)(t - d);
                m->path[1] = (uint8_t)t;
                m->len = 2;
            }
        }
    }
    return 0;
}

/* Only the sequences taking the most pieces (the max rule), in their order. */
static void keep_longest(MoveList *moves)
{
    int most = 0, kept = 0;
    for (int i = 0; i < moves->len; i++)
        if (moves->m[i].len > most)
            most = moves->m[i].len;
    for (int i = 0; i < moves->len; i++)
        if (moves->m[i].len == most)
            moves->m[kept++] = moves->m[i];
    moves->len = kept;
}

/* All legal moves: the captures if there are any (mandatory), else the steps. */
static int generate(const Board *b, Bits black, Bits white, Bits kings, int black_to_move,
                    int max_capture, MoveList *out)
{
    if (generate_captures(b, black, white, kings, black_to_move, out) < 0)
        return -1;
    if (out->len) {
        if (max_capture)
            keep_longest(out);
        return 0;
    }
    return generate_steps(b, black, white, kings, black_to_move, out);
}

typedef struct {
    Bits black, white, kings;
} Position;

/* The position after `move`; a man ending on the far row is crowned. */
static Position apply(const Board *b, Position p, int black_to_move, const Move *move)
{
    Bits frm = b_bit(move->path[0]), to = b_bit(move->path[move->len - 1]);
    Bits moved = b_xor(frm, to); /* nothing when a king's capture loop ends where it started */
    Position r = p;
    if (b_any(b_and(p.kings, frm)))
        r.kings = b_xor(p.kings, moved);
    else if (b_any(b_and(to, black_to_move ? b->black_crown : b->white_crown)))
        r.kings = b_or(p.kings, to);
    r.kings = b_andnot(r.kings, move->taken);
    if (black_to_move) {
        r.black = b_xor(p.black, moved);
        r.white = b_andnot(p.white, move->taken);
    } else {
        r.black = b_andnot(p.black, move->taken);
        r.white = b_xor(p.white, moved);
    }
    return r;
}

/* ---- perft ------------------------------------------------------------------------- */

/* The number of legal moves, counting steps by shifts without listing them. */
static long long count_moves(const Board *b, Position p, int black_to_move, int max_capture,
                             MoveList *scratch)
{
    if (generate_captures(b, p.black, p.white, p.kings, black_to_move, scratch) < 0)
        return -1;
    if (scratch->len) {
        if (max_capture)
            keep_longest(scratch);
        return scratch->len;
    }
    Bits own = black_to_move ? p.black : p.white;
    return count_steps(b, own, p.kings, b_andnot(b->valid, b_or(p.black, p.white)),
                       black_to_move);
}

/* Leaf count of the move tree `depth` plies deep; lists[d] is the move list of depth d.
 * -1: MemoryError. */
static long long perft_at(const Board *b, Position p, int black_to_move, int depth,
                          int max_capture, MoveList *lists)
{
    if (depth == 0)
        return 1;
    if (depth == 1)
        return count_moves(b, p, black_to_move, max_capture, &lists[1]);
    MoveList *moves = &lists[depth];
    if (generate(b, p.black, p.white, p.kings, black_to_move, max_capture, moves) < 0)
        return -1;
    long long total = 0;
    for (int i = 0; i < moves->len; i++) {
        long long n = perft_at(b, apply(b, p, black_to_move, &moves->m[i]), !black_to_move,
                               depth - 1, max_capture, lists);
        if (n < 0)
            return -1;
        total += n;
    }
    return total;
}

/* ---- between Python's ints and Bits ----------------------------------------------- */

/* A non-negative Python int of at most 192 bits as Bits; -1 with an exception. */
static int bits_from_py(PyObject *value, Bits *out)
{
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a set of squares must be an int");
        return -1;
    }
    PyObject *rest = value;
    Py_INCREF(rest);
    for (int i = 0; i < WORDS; i++) {
        out->w[i] = PyLong_AsUnsignedLongLongMask(rest);
        PyObject *shift64 = PyLong_FromLong(64);
        PyObject *next = shift64 == NULL ? NULL : PyNumber_Rshift(rest, shift64);
        Py_XDECREF(shift64);
        Py_DECREF(rest);
        if (next == NULL)
            return -1;
        rest = next;
    }
    int sign = PyObject_IsTrue(rest);
    Py_DECREF(rest);
    if (sign != 0) {
        if (sign > 0)
            PyErr_SetString(PyExc_ValueError, "a set of squares beyond the board");
        return -1;
    }
    return 0;
}

static PyObject *path_to_py(const Move *m)
{
    PyObject *path = PyTuple_New(m->len);
    if (path == NULL)
        return NULL;
    for (int i = 0; i < m->len; i++) {
        PyObject *sq = PyLong_FromLong(m->path[i]);
        if (sq == NULL) {
            Py_DECREF(path);
            return NULL;
        }
        PyTuple_SET_ITEM(path, i, sq);
    }
    /* A tuple of ints can be in no cycle: untracked, the collector need not visit it
     * (CPython untracks such tuples itself, but only once a collection has seen them). */
    PyObject_GC_UnTrack(path);
    return path;
}

/* A position the generator can take: the pieces on the board's dark squares, no square
 * twice, kings among them, and no side with more pieces than a capture path can hold
 * (each jump takes one: at most MAX_PATH - 1 jumps; 30 pieces a side at most in play).
 * The Python would take anything; here a square off the board would index past the
 * tables. -1 with ValueError. */
static int check_position(const Board *b, Position p)
{
    if (b_any(b_andnot(b_or(p.black, p.white), b->valid)) || b_any(b_and(p.black, p.white))
        || b_any(b_andnot(p.kings, b_or(p.black, p.white)))) {
        PyErr_SetString(PyExc_ValueError, "not a position on this board");
        return -1;
    }
    if (popcount(p.black) >= MAX_PATH || popcount(p.white) >= MAX_PATH) {
        PyErr_Format(PyExc_ValueError, "more than %d pieces a side", MAX_PATH - 1);
        return -1;
    }
    return 0;
}

/* Reads (n, black, white, kings, black_to_move, <int>, max_capture) */
static const Board *parse_position(PyObject *args, Position *p, int *btm, int *extra,
                                   int *max_capture)
{
    int n;
    PyObject *black, *white, *kings;
    if (!PyArg_ParseTuple(args, "iOOOpip", &n, &black, &white, &kings, btm, extra,
                          max_capture))
        return NULL;
    const Board *b = board(n);
    if (b == NULL || bits_from_py(black, &p->black) < 0 || bits_from_py(white, &p->white) < 0
        || bits_from_py(kings, &p->kings) < 0 || check_position(b, *p) < 0)
        return NULL;
    return b;
}

static PyObject *py_perft(PyObject *self, PyObject *args)
{
    (void)self;
    Position p;
    int btm, depth, max_capture;
    const Board *b = parse_position(args, &p, &btm, &depth, &max_capture);
    if (b == NULL)
        return NULL;
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "perft depth must be 0 or more");
        return NULL;
    }
    MoveList *lists = calloc((size_t)depth + 2, sizeof *lists);
    if (lists == NULL)
        return PyErr_NoMemory();
    long long total = perft_at(b, p, btm, depth, max_capture, lists);
    for (int d = 0; d < depth + 2; d++)
        free_list(&lists[d]);
    free(lists);
    return total < 0 ? NULL : PyLong_FromLongLong(total);
}

static PyObject *py_generate(PyObject *self, PyObject *args)
{
    (void)self;
    Position p;
    int btm, unused, max_capture;
    /* the same arguments as perft with a 0 in depth's place, to keep one parser */
    const Board *b = parse_position(args, &p, &btm, &unused, &max_capture);
    if (b == NULL)
        return NULL;
    MoveList moves = {0};
    PyObject *out = NULL;
    if (generate(b, p.black, p.white, p.kings, btm, max_capture, &moves) == 0) {
        out = PyList_New(moves.len);
        for (int i = 0; out != NULL && i < moves.len; i++) {
            PyObject *path = path_to_py(&moves.m[i]);
            if (path == NULL)
                Py_CLEAR(out);
            else
                PyList_SET_ITEM(out, i, path);
        }
    }
    free_list(&moves);
    return out;
}

/* ---- the evaluation (evaluation.py) ------------------------------------------------- */

/* Sum over `kings` of the distance (in king steps) to the nearest of `targets`. */
static int king_distance(const Board *b, Bits kings, Bits targets)
{
    if (!b_any(targets))
        return 0;
    int total = 0;
    for (int k = pop_lowest(&kings); k >= 0; k = pop_lowest(&kings)) {
        int r = k / b->stride, c = k % b->stride, best = INT_MAX;
        Bits spots = targets;
        for (int t = pop_lowest(&spots); t >= 0; t = pop_lowest(&spots)) {
            int dr = abs(r - t / b->stride), dc = abs(c - t % b->stride);
            int d = dr > dc ? dr : dc;
            if (d < best)
                best = d;
        }
        total += best;
    }
    return total;
}

static long score(const Board *b, Bits black, Bits white, Bits kings)
{
    Bits bm = b_andnot(black, kings), wm = b_andnot(white, kings);
    Bits bk = b_and(black, kings), wk = b_and(white, kings);
    int nbm = popcount(bm), nwm = popcount(wm), nbk = popcount(bk), nwk = popcount(wk);
    long material = MAN * (nbm - nwm) + KING * (nbk - nwk);
    long s = material;
    if (b_any(bm) || b_any(wm)) {
        int last = b->n - 1;
        for (int r = 0; r < b->n; r++)
            s += ADVANCE * (r * popcount(b_and(bm, b->rows[r]))
                            - (last - r) * popcount(b_and(wm, b->rows[r])));
        s += BACK_ROW * (popcount(b_and(bm, b->rows[0])) - popcount(b_and(wm, b->rows[last])));
    }
    s += CENTRE * (popcount(b_and(bm, b->centre)) - popcount(b_and(wm, b->centre)));
    s += KING_CENTRE * (popcount(b_and(bk, b->centre)) - popcount(b_and(wk, b->centre)));
    Bits empty = b_andnot(b->valid, b_or(black, white));
    s += MOBILITY * (count_steps(b, black, kings, empty, 1) - count_steps(b, white, kings, empty, 0));
    if (material) {
        /* Ahead: fewer pieces left is better (trade down); behind: keep pieces on. */
        long left = 2 * b->start_pieces - (nbm + nwm + nbk + nwk);
        s += material > 0 ? TRADE * left : -TRADE * left;
        /* Ahead with kings: bring them to the enemy (a lead is won by attacking). */
        if (material > 0 && b_any(bk))
            s -= CHASE * king_distance(b, bk, white);
        else if (material < 0 && b_any(wk))
            s += CHASE * king_distance(b, wk, black);
    }
    return s;
}

static PyObject *py_score(PyObject *self, PyObject *args)
{
    (void)self;
    int n;
    PyObject *black, *white, *kings;
    Position p;
    if (!PyArg_ParseTuple(args, "iOOO", &n, &black, &white, &kings))
        return NULL;
    const Board *b = board(n);
    if (b == NULL || bits_from_py(black, &p.black) < 0 || bits_from_py(white, &p.white) < 0
        || bits_from_py(kings, &p.kings) < 0 || check_position(b, p) < 0)
        return NULL;
    return PyLong_FromLong(score(b, p.black, p.white, p.kings));
}

/* ---- the engine's search (CheckersKernel.negamax) ----------------------------------- */

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
    PyObject *entries; /* the table's dict, or NULL without the table */
    long long nodes, hits;
    int seldepth;
    Killer killers[MAX_PLY + 64][2];
    long long (*history)[MAX_SIZE][MAX_SIZE]; /* [side][from][to] */
    MoveList lists[MAX_PLY + 2];             /* the moves of each ply */
    int *orders[MAX_PLY + 2];                /* ... in search order (indices) */
    long *keys[MAX_PLY + 2];                 /* ... and their sort keys */
    int order_cap[MAX_PLY + 2];
    uint64_t *line; /* hashes since the game's start of the reversible stretch */
    int line_len, line_cap;
    PyObject *kernel; /* borrowed, for the duration of one `negamax` call */
} Search;

static uint64_t hash_after(const Search *S, uint64_t h, Position p, int black_to_move,
                           const Move *move, Bits new_kings)
{
    int f = move->path[0], t = move->path[move->len - 1];
    int side = black_to_move ? 0 : 1;
    h ^= S->zobrist[side + (b_has(p.kings, f) ? 2 : 0)][f];
    h ^= S->zobrist[side + (b_has(new_kings, t) ? 2 : 0)][t];
    Bits taken = move->taken;
    int other = 1 - side;
    for (int s = pop_lowest(&taken); s >= 0; s = pop_lowest(&taken))
        h ^= S->zobrist[other + (b_has(p.kings, s) ? 2 : 0)][s];
    return h ^ S->zobrist_black;
}

/* Every 1,024 nodes: tell the Python kernel the count and let it check (the stop, the
 * table's room). -1: it raised. */
static int check(Search *S)
{
    PyObject *n = PyLong_FromLongLong(S->nodes);
    if (n == NULL || PyObject_SetAttrString(S->kernel, "nodes", n) < 0) {
        Py_XDECREF(n);
        return -1;
    }
    Py_DECREF(n);
    PyObject *r = PyObject_CallMethod(S->kernel, "check", NULL);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

static int drawn(const Search *S, uint64_t h, int game_ply, int quiet, int since)
{
    if (S->ply_limit && game_ply >= S->ply_limit)
        return 1;
    if (S->tournament && quiet >= TOURNAMENT_QUIET_PLIES)
        return 1;
    /* Any repetition since the last irreversible move counts as a draw inside the
     * search: the side that repeated could repeat again, and it stops circling. */
    for (int i = since; i < S->line_len - 1; i++)
        if (S->line[i] == h)
            return 1;
    return 0;
}

static int same_path(const uint8_t *a, int alen, const uint8_t *b, int blen)
{
    return alen == blen && memcmp(a, b, (size_t)alen) == 0;
}

static long rank_of(const Search *S, const Move *m, int ply, int side)
{
    const Killer *k = S->killers[ply];
    if (same_path(m->path, m->len, k[0].path, k[0].len))
        return -1000000;
    if (same_path(m->path, m->len, k[1].path, k[1].len))
        return -999999;
    return -(long)S->history[side][m->path[0]][m->path[1]];
}

/* The table's move, then (ordering) the longest captures or (killers) the killer moves
 * and the steps with the most history. Python's sort is stable: so is this insertion
 * sort (the lists are short). Fills S->orders[ply]. */
static int order(Search *S, int ply, const uint8_t *tt_move, int tt_len, int btm)
{
    MoveList *moves = &S->lists[ply];
    if (S->order_cap[ply] < moves->len) {
        int cap = moves->len < 64 ? 64 : moves->len;
        int *o = realloc(S->orders[ply], (size_t)cap * sizeof *o);
        if (o != NULL)
            S->orders[ply] = o;
        long *k = realloc(S->keys[ply], (size_t)cap * sizeof *k);
        if (k != NULL)
            S->keys[ply] = k;
        if (o == NULL || k == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        S->order_cap[ply] = cap;
    }
    int *o = S->orders[ply];
    int count = moves->len;
    for (int i = 0; i < count; i++)
        o[i] = i;
    int capture = b_any(moves->m[0].taken);
    if ((capture && S->ordering) || (!capture && S->killing)) {
        long *keys = S->keys[ply];
        int side = btm ? 0 : 1;
        for (int i = 0; i < count; i++)
            keys[i] = capture ? -moves->m[i].len : rank_of(S, &moves->m[i], ply, side);
        for (int i = 1; i < count; i++) {
            int idx = o[i];
            long key = keys[idx];
            int j = i - 1;
            while (j >= 0 && keys[o[j]] > key) {
                o[j + 1] = o[j];
                j--;
            }
            o[j + 1] = idx;
        }
    }
    if (tt_len) {
        for (int i = 0; i < count; i++) {
            const Move *m = &moves->m[o[i]];
            if (same_path(m->path, m->len, tt_move, tt_len)) {
                int idx = o[i];
                memmove(o + 1, o, (size_t)i * sizeof *o);
                o[0] = idx;
                break;
            }
        }
    }
    return 0;
}

static void remember_cutoff(Search *S, const Move *move, int ply, int depth, int btm)
{
    Killer *k = S->killers[ply];
    if (!same_path(k[0].path, k[0].len, move->path, move->len)) {
        k[1] = k[0];
        memcpy(k[0].path, move->path, (size_t)move->len);
        k[0].len = move->len;
    }
    S->history[btm ? 0 : 1][move->path[0]][move->path[1]] += (long long)depth * depth;
}

/* Win scores count plies from the root; the table stores them from this node. */
static long to_table(long v, int ply)
{
    if (v >= WIN_BOUND)
        return v + ply;
    if (v <= -WIN_BOUND)
        return v - ply;
    return v;
}

static long from_table(long v, int ply)
{
    if (v >= WIN_BOUND)
        return v - ply;
    if (v <= -WIN_BOUND)
        return v + ply;
    return v;
}

/* A table entry (depth, bound, points, path) read; 1 found, 0 none, -1 error. */
static int probe(Search *S, PyObject *key, long *depth, long *bound, long *v, uint8_t *path,
                 int *len)
{
    PyObject *entry = PyDict_GetItemWithError(S->entries, key);
    if (entry == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 4) {
        PyErr_SetString(PyExc_TypeError, "a checkers table entry is a 4-tuple");
        return -1;
    }
    *depth = PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
    *bound = PyLong_AsLong(PyTuple_GET_ITEM(entry, 1));
    *v = PyLong_AsLong(PyTuple_GET_ITEM(entry, 2));
    if (PyErr_Occurred())
        return -1;
    PyObject *p = PyTuple_GET_ITEM(entry, 3);
    *len = 0;
    if (p != Py_None) {
        Py_ssize_t n = PyTuple_Check(p) ? PyTuple_GET_SIZE(p) : 0;
        if (n < 1 || n > MAX_PATH) {
            PyErr_SetString(PyExc_TypeError, "a checkers table move is a path");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            long sq = PyLong_AsLong(PyTuple_GET_ITEM(p, i));
            if (sq < 0 || sq >= MAX_SIZE) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a square off the board");
                return -1;
            }
            path[i] = (uint8_t)sq;
        }
        *len = (int)n;
    }
    return 1;
}

static int store(Search *S, PyObject *key, int depth, long bound, long v, const Move *best)
{
    PyObject *path = path_to_py(best);
    if (path == NULL)
        return -1;
    PyObject *entry = PyTuple_New(4);
    if (entry == NULL) {
        Py_DECREF(path);
        return -1;
    }
    PyTuple_SET_ITEM(entry, 3, path);
    long fields[3] = {depth, bound, v};
    for (int i = 0; i < 3; i++) {
        PyObject *x = PyLong_FromLong(fields[i]);
        if (x == NULL) {
            Py_DECREF(entry);
            return -1;
        }
        PyTuple_SET_ITEM(entry, i, x);
    }
    PyObject_GC_UnTrack(entry); /* ints and a tuple of ints: see path_to_py */
    int r = PyDict_SetItem(S->entries, key, entry);
    Py_DECREF(entry);
    return r;
}

static int line_push(Search *S, uint64_t h)
{
    if (S->line_len == S->line_cap) {
        int cap = S->line_cap ? 2 * S->line_cap : 256;
        uint64_t *l = realloc(S->line, (size_t)cap * sizeof *l);
        if (l == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        S->line = l;
        S->line_cap = cap;
    }
    S->line[S->line_len++] = h;
    return 0;
}

static long evaluate(const Search *S, Position p, int btm)
{
    long s = score(S->b, p.black, p.white, p.kings);
    return btm ? s : -s;
}

/* Value for the side to move (see CheckersKernel.negamax); S->line holds the hashes
 * from the start of the reversible stretch to here, `since` where the current one began. */
static long negamax(Search *S, Position p, int btm, uint64_t h, int depth, long alpha,
                    long beta, int ply, int game_ply, int quiet, int since)
{
    const Board *b = S->b;
    S->nodes += 1;
    if ((S->nodes & 1023) == 0 && check(S) < 0)
        return ERROR;
    if (ply > S->seldepth)
        S->seldepth = ply;
    MoveList *moves = &S->lists[ply];
    if (generate_captures(b, p.black, p.white, p.kings, btm, moves) < 0)
        return ERROR;
    if ((depth <= 0 && !(moves->len && S->quiescence)) || ply >= MAX_PLY) {
        /* A leaf: only ask whether a move exists. */
        if (!moves->len && !count_steps(b, btm ? p.black : p.white, p.kings,
                                        b_andnot(b->valid, b_or(p.black, p.white)), btm))
            return -(WIN - ply);
        if (drawn(S, h, game_ply, quiet, since))
            return 0;
        return evaluate(S, p, btm);
    }
    if (moves->len) {
        if (S->max_capture)
            keep_longest(moves);
    } else {
        if (generate_steps(b, p.black, p.white, p.kings, btm, moves) < 0)
            return ERROR;
        if (!moves->len)
            return -(WIN - ply);
    }
    if (drawn(S, h, game_ply, quiet, since))
        return 0;
    if (moves->len == 1 && S->quiescence)
        depth += 1; /* a forced move costs no depth */

    PyObject *key = NULL;
    uint8_t tt_move[MAX_PATH];
    int tt_len = 0;
    if (S->entries != NULL) {
        key = PyLong_FromUnsignedLongLong(h);
        if (key == NULL)
            return ERROR;
        long e_depth, bound, v;
        int found = probe(S, key, &e_depth, &bound, &v, tt_move, &tt_len);
        if (found < 0) {
            Py_DECREF(key);
            return ERROR;
        }
        if (found) {
            S->hits += 1;
            if (e_depth >= depth) {
                v = from_table(v, ply);
                if (bound == EXACT || (bound == LOWER && v >= beta)
                    || (bound == UPPER && v <= alpha)) {
                    Py_DECREF(key);
                    return v;
                }
            }
        }
    }

    long result = ERROR;
    if (order(S, ply, tt_move, tt_len, btm) < 0)
        goto done;
    long a0 = alpha, best_value = -WIN;
    int best = S->orders[ply][0];
    for (int i = 0; i < moves->len; i++) {
        /* the list of this ply stays put: the children use the lists of later plies */
        int idx = S->orders[ply][i];
        const Move *move = &moves->m[idx];
        Position child = apply(b, p, btm, move);
        uint64_t nh = hash_after(S, h, p, btm, move, child.kings);
        int irreversible = b_any(move->taken) || !b_has(p.kings, move->path[0]);
        if (line_push(S, nh) < 0)
            goto done;
        int child_since = irreversible ? S->line_len - 1 : since;
        int child_quiet = irreversible ? 0 : quiet + 1;
        long v;
        if (i == 0 || !S->pvs) {
            v = negamax(S, child, !btm, nh, depth - 1, -beta, -alpha, ply + 1, game_ply + 1,
                        child_quiet, child_since);
            v = v == ERROR ? ERROR : -v;
        } else { /* principal-variation search: prove it is worse with a null window */
            v = negamax(S, child, !btm, nh, depth - 1, -alpha - 1, -alpha, ply + 1,
                        game_ply + 1, child_quiet, child_since);
            v = v == ERROR ? ERROR : -v;
            if (v != ERROR && alpha < v && v < beta) {
                v = negamax(S, child, !btm, nh, depth - 1, -beta, -v, ply + 1, game_ply + 1,
                            child_quiet, child_since);
                v = v == ERROR ? ERROR : -v;
            }
        }
        S->line_len--;
        if (v == ERROR)
            goto done;
        if (v > best_value) {
            best_value = v;
            best = idx;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            if (!b_any(move->taken) && S->killing)
                remember_cutoff(S, move, ply, depth, btm);
            break;
        }
    }
    if (S->entries != NULL) {
        long bound = best_value <= a0 ? UPPER : best_value >= beta ? LOWER : EXACT;
        if (store(S, key, depth, bound, to_table(best_value, ply), &moves->m[best]) < 0)
            goto done;
    }
    result = best_value;
done:
    Py_XDECREF(key);
    return result;
}

static int Search_init(Search *S, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"n", "zobrist", "zobrist_black", "max_capture", "ply_limit",
                            "tournament", "ordering", "pvs", "killers", "quiescence",
                            "entries", NULL};
    int n;
    PyObject *zobrist, *entries;
    unsigned long long zobrist_black;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOKpipppppO", names, &n, &zobrist,
                                     &zobrist_black, &S->max_capture, &S->ply_limit,
                                     &S->tournament, &S->ordering, &S->pvs, &S->killing,
                                     &S->quiescence, &entries))
        return -1;
    S->b = board(n);
    if (S->b == NULL)
        return -1;
    if (entries != Py_None && !PyDict_Check(entries)) {
        PyErr_SetString(PyExc_TypeError, "entries must be a dict or None");
        return -1;
    }
    PyObject *rows = PySequence_Fast(zobrist, "zobrist must be four sequences");
    if (rows == NULL)
        return -1;
    int ok = PySequence_Fast_GET_SIZE(rows) == 4;
    for (int kind = 0; ok && kind < 4; kind++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, kind), "a zobrist row");
        if (row == NULL || PySequence_Fast_GET_SIZE(row) != S->b->size) {
            Py_XDECREF(row);
            ok = 0;
            break;
        }
        for (int sq = 0; sq < S->b->size; sq++)
            S->zobrist[kind][sq] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(row, sq));
        Py_DECREF(row);
        if (PyErr_Occurred())
            ok = 0;
    }
    Py_DECREF(rows);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "zobrist: four rows of one key per bit");
        return -1;
    }
    S->zobrist_black = zobrist_black;
    Py_XSETREF(S->entries, entries == Py_None ? NULL : Py_NewRef(entries));
    if (S->history == NULL) {
        S->history = calloc(2, sizeof *S->history);
        if (S->history == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static void Search_dealloc(Search *S)
{
    for (int i = 0; i < MAX_PLY + 2; i++) {
        free_list(&S->lists[i]);
        free(S->orders[i]);
        free(S->keys[i]);
    }
    free(S->history);
    free(S->line);
    Py_XDECREF(S->entries);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

/* negamax(kernel, black, white, kings, btm, h, depth, alpha, beta, ply, game_ply, quiet,
 * line, since): CheckersKernel.negamax's arguments after the kernel, whose nodes, hits
 * and seldepth it carries on counting (and writes back, whatever happens). */
static PyObject *Search_negamax(Search *S, PyObject *args)
{
    PyObject *kernel, *black, *white, *kings, *line;
    int btm, depth, ply, game_ply, quiet, since;
    unsigned long long h;
    long alpha, beta;
    Position p;
    if (!PyArg_ParseTuple(args, "OOOOpKilliiiO!i", &kernel, &black, &white, &kings, &btm,
                          &h, &depth, &alpha, &beta, &ply, &game_ply, &quiet, &PyList_Type,
                          &line, &since))
        return NULL;
    if (bits_from_py(black, &p.black) < 0 || bits_from_py(white, &p.white) < 0
        || bits_from_py(kings, &p.kings) < 0 || check_position(S->b, p) < 0)
        return NULL;
    if (ply < 0 || ply > MAX_PLY) {
        PyErr_SetString(PyExc_ValueError, "ply out of range");
        return NULL;
    }
    S->line_len = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(line); i++) {
        unsigned long long x = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(line, i));
        if ((x == (unsigned long long)-1 && PyErr_Occurred()) || line_push(S, x) < 0)
            return NULL;
    }
    PyObject *counts[3];
    const char *names[3] = {"nodes", "hits", "seldepth"};
    long long values[3];
    for (int i = 0; i < 3; i++) {
        counts[i] = PyObject_GetAttrString(kernel, names[i]);
        values[i] = counts[i] == NULL ? -1 : PyLong_AsLongLong(counts[i]);
        Py_XDECREF(counts[i]);
        if (values[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    S->nodes = values[0];
    S->hits = values[1];
    S->seldepth = (int)values[2];
    S->kernel = kernel;
    long v = negamax(S, p, btm, h, depth, alpha, beta, ply, game_ply, quiet, since);
    S->kernel = NULL;
    /* written back even when a SearchStopped is on its way (the driver reports them) */
    PyObject *exc_type, *exc_value, *exc_tb;
    PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
    values[0] = S->nodes;
    values[1] = S->hits;
    values[2] = S->seldepth;
    for (int i = 0; i < 3; i++) {
        PyObject *x = PyLong_FromLongLong(values[i]);
        if (x == NULL || PyObject_SetAttrString(kernel, names[i], x) < 0) {
            Py_XDECREF(x);
            Py_XDECREF(exc_type);
            Py_XDECREF(exc_value);
            Py_XDECREF(exc_tb);
            return NULL;
        }
        Py_DECREF(x);
    }
    PyErr_Restore(exc_type, exc_value, exc_tb);
    if (v == ERROR)
        return NULL;
    return PyLong_FromLong(v);
}

/* history(): the history heuristic's counts, as the Python kernel keeps them:
 * {(side, from * 256 + to): count}, for the root's ordering. */
static PyObject *Search_history(Search *S, PyObject *unused)
{
    (void)unused;
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (int side = 0; side < 2; side++)
        for (int f = 0; f < S->b->size; f++)
            for (int t = 0; t < S->b->size; t++) {
                long long x = S->history[side][f][t];
                if (!x)
                    continue;
                PyObject *key = Py_BuildValue("(ii)", side, f * 256 + t);
                PyObject *value = PyLong_FromLongLong(x);
                int r = key == NULL || value == NULL ? -1 : PyDict_SetItem(out, key, value);
                Py_XDECREF(key);
                Py_XDECREF(value);
                if (r < 0) {
                    Py_DECREF(out);
                    return NULL;
                }
            }
    return out;
}

static PyMethodDef Search_methods[] = {
    {"negamax", (PyCFunction)Search_negamax, METH_VARARGS,
     "CheckersKernel.negamax compiled: negamax(kernel, black, white, kings, btm, h, depth, "
     "alpha, beta, ply, game_ply, quiet, line, since) -> points for the side to move."},
    {"history", (PyCFunction)Search_history, METH_NOARGS,
     "The history heuristic's counts: {(side, from * 256 + to): count}."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zerosum.games.checkers._checkers.Search",
    .tp_doc = "The engine's node function, killers and history for one kernel (engine.py).",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

static PyMethodDef module_methods[] = {
    {"perft", py_perft, METH_VARARGS,
     "perft(n, black, white, kings, black_to_move, depth, max_capture) -> leaf count"},
    {"generate", py_generate, METH_VARARGS,
     "generate(n, black, white, kings, black_to_move, 0, max_capture) -> the legal moves' "
     "paths, in board.generate's order"},
    {"score", py_score, METH_VARARGS,
     "score(n, black, white, kings) -> evaluation.score, points from black's side"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_checkers",
    "Checkers compiled: move generator, perft, evaluation, the engine's search.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__checkers(void)
{
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
