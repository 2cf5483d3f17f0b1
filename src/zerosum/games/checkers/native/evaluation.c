/* The heuristic (evaluation.py's score), in points from black's side, by the weights
 * evaluation.py defines and hands over (WEIGHTS there): none is written here. */

#include "checkers.h" /* first: Python.h sets the feature macros */

#include <stdlib.h>

/* The weights from a Python sequence in WEIGHTS' order. -1 with an exception. */
int read_weights_into(PyObject *weights, Weights *w)
{
    long x[WEIGHT_COUNT];
    if (read_weights(weights, x, WEIGHT_COUNT) < 0)
        return -1;
    *w = (Weights){x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]};
    return 0;
}

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

/* evaluation.score: points from black's side, by the weights `w`. */
long score(const Board *b, const Weights *w, Bits black, Bits white, Bits kings)
{
    Bits bm = b_andnot(black, kings), wm = b_andnot(white, kings);
    Bits bk = b_and(black, kings), wk = b_and(white, kings);
    int nbm = popcount(bm), nwm = popcount(wm), nbk = popcount(bk), nwk = popcount(wk);
    long material = w->man * (nbm - nwm) + w->king * (nbk - nwk);
    long s = material;
    if (b_any(bm) || b_any(wm)) {
        int last = b->n - 1;
        for (int r = 0; r < b->n; r++)
            s += w->advance * (r * popcount(b_and(bm, b->rows[r]))
                               - (last - r) * popcount(b_and(wm, b->rows[r])));
        s += w->back_row * (popcount(b_and(bm, b->rows[0]))
                            - popcount(b_and(wm, b->rows[last])));
    }
    s += w->centre * (popcount(b_and(bm, b->centre)) - popcount(b_and(wm, b->centre)));
    s += w->king_centre * (popcount(b_and(bk, b->centre)) - popcount(b_and(wk, b->centre)));
    Bits empty = b_andnot(b->valid, b_or(black, white));
    s += w->mobility * (count_steps(b, black, kings, empty, 1)
                        - count_steps(b, white, kings, empty, 0));
    if (material) {
        /* Ahead: fewer pieces left is better (trade down); behind: keep pieces on. */
        long left = 2 * b->start_pieces - (nbm + nwm + nbk + nwk);
        s += material > 0 ? w->trade * left : -w->trade * left;
        /* Ahead with kings: bring them to the enemy (a lead is won by attacking). */
        if (material > 0 && b_any(bk))
            s -= w->chase * king_distance(b, bk, white);
        else if (material < 0 && b_any(wk))
            s += w->chase * king_distance(b, wk, black);
    }
    return s;
}
