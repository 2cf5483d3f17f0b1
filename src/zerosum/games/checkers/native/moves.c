/* The move generator (board.py): captures are mandatory, and under the max rule only
 * the sequences taking the most pieces; else the steps. Moves come in board.py's order. */

#include "checkers.h" /* first: Python.h sets the feature macros */

#include <stdlib.h>

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

void free_list(MoveList *list)
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
int count_steps(const Board *b, Bits own, Bits kings, Bits empty, int black_to_move)
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

int generate_captures(const Board *b, Bits black, Bits white, Bits kings, int black_to_move,
                      MoveList *out)
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

int generate_steps(const Board *b, Bits black, Bits white, Bits kings, int black_to_move,
                   MoveList *out)
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
void keep_longest(MoveList *moves)
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
int generate(const Board *b, Bits black, Bits white, Bits kings, int black_to_move,
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
