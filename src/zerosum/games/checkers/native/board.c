/* One board size's geometry and the evaluation's masks (board.py's Board, evaluation.py's
 * Masks), made once a size; a position checked against it; a move applied. */

#include "checkers.h"

static Board boards[MAX_N + 1];
static int built[MAX_N + 1];

/* board(n) of board.py (and masks(n) of evaluation.py); NULL with ValueError for a size
 * it refuses. */
const Board *board(int n)
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

/* A position the generator can take: the pieces on the board's dark squares, no square
 * twice, kings among them, and no side with more pieces than a capture path can hold
 * (each jump takes one: at most MAX_PATH - 1 jumps; 30 pieces a side at most in play).
 * The Python would take anything; here a square off the board would index past the
 * tables. -1 with ValueError. */
int check_position(const Board *b, Position p)
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

/* The position after `move`; a man ending on the far row is crowned. */
Position apply(const Board *b, Position p, int black_to_move, const Move *move)
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
