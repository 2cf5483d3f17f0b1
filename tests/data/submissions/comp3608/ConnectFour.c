/* An example COMP3608 submission in C, written plainly (a grid of characters), to test
   zerosum's auto-marker against. Correct unless compiled with -DFAULT_NODES (one node too
   many) or -DFAULT_CRASH (dies of a null pointer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 6
#define COLS 7

static char grid[ROWS][COLS];
static long nodes;
static int limit, pruning;

static int run_length(int r, int c, int dr, int dc, char colour) {
    int n = 0;
    while (r >= 0 && r < ROWS && c >= 0 && c < COLS && grid[r][c] == colour) {
        n++; r += dr; c += dc;
    }
    return n;
}

/* counts[k]: maximal runs of exactly k (k = 2, 3) and of 4 or more (k = 4) */
static void runs(char colour, int counts[5]) {
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    memset(counts, 0, 5 * sizeof counts[0]);
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++) {
                int pr = r - dirs[d][0], pc = c - dirs[d][1];
                if (grid[r][c] != colour) continue;
                if (pr >= 0 && pr < ROWS && pc >= 0 && pc < COLS && grid[pr][pc] == colour)
                    continue;
                int n = run_length(r, c, dirs[d][0], dirs[d][1], colour);
                counts[n >= 4 ? 4 : n]++;
            }
}

static int score(char colour) {
    int counts[5], tokens = 0;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) tokens += grid[r][c] == colour;
    runs(colour, counts);
    return tokens + 10 * counts[2] + 100 * counts[3] + 1000 * counts[4];
}

static int has_four(char colour) {
    int counts[5];
    runs(colour, counts);
    return counts[4] > 0;
}

static int full(void) {
    for (int c = 0; c < COLS; c++) if (grid[ROWS - 1][c] == '.') return 0;
    return 1;
}

static int drop(int c, char colour) {
    for (int r = 0; r < ROWS; r++)
        if (grid[r][c] == '.') { grid[r][c] = colour; return r; }
    return -1;
}

static double value(char colour, int depth, double alpha, double beta) {
    nodes++;
    if (has_four('r')) return 10000;
    if (has_four('y')) return -10000;
    if (full() || depth == limit) return score('r') - score('y');
    char other = colour == 'r' ? 'y' : 'r';
    double v = colour == 'r' ? -1e18 : 1e18;
    for (int c = 0; c < COLS; c++) {
        if (grid[ROWS - 1][c] != '.') continue;
        int r = drop(c, colour);
        double w = value(other, depth + 1, alpha, beta);
        grid[r][c] = '.';
        if (colour == 'r') {
            if (w > v) v = w;
            if (pruning) { if (v >= beta) return v; if (v > alpha) alpha = v; }
        } else {
            if (w < v) v = w;
            if (pruning) { if (v <= alpha) return v; if (v < beta) beta = v; }
        }
    }
    return v;
}

static int decide(char colour) {
    char other = colour == 'r' ? 'y' : 'r';
    double alpha = -1e18, beta = 1e18, best = 0;
    int best_col = -1;
    nodes++;
    for (int c = 0; c < COLS; c++) {
        if (grid[ROWS - 1][c] != '.') continue;
        int r = drop(c, colour);
        double v = value(other, 1, alpha, beta);
        grid[r][c] = '.';
        if (best_col < 0 || (colour == 'r' ? v > best : v < best)) { best = v; best_col = c; }
        if (pruning) {
            if (colour == 'r' && v > alpha) alpha = v;
            if (colour == 'y' && v < beta) beta = v;
        }
    }
    return best_col;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 5) return 2;
    for (int r = 0; r < ROWS; r++) memcpy(grid[r], argv[1] + r * (COLS + 1), COLS);
    char colour = strcmp(argv[2], "red") == 0 ? 'r' : 'y';
#ifdef FAULT_CRASH
    int *nothing = NULL;
    if (argc > 1) printf("%d\n", *nothing);
#endif
    if (argc == 3) { pruning = 1; limit = 2; printf("%d\n", decide(colour)); return 0; }
    pruning = argv[3][0] == 'A';
    limit = atoi(argv[4]);
    int col = decide(colour);
#ifdef FAULT_NODES
    nodes++;
#endif
    printf("%d\n%ld\n", col, nodes);
    return 0;
}
