// An example COMP3608 submission in Java, written plainly (a grid of characters), to test
// zerosum's auto-marker against. Correct, except that a depth of 5 or more makes it search
// one ply too deep (so its node counts are wrong there), as a student's off-by-one might.
public class ConnectFour {
    static final int ROWS = 6, COLS = 7;
    static char[][] grid = new char[ROWS][COLS];
    static long nodes;
    static int limit;
    static boolean pruning;

    static int[] runs(char colour) {
        int[][] dirs = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        int[] counts = new int[5];
        for (int[] d : dirs)
            for (int r = 0; r < ROWS; r++)
                for (int c = 0; c < COLS; c++) {
                    if (grid[r][c] != colour) continue;
                    int pr = r - d[0], pc = c - d[1];
                    if (pr >= 0 && pr < ROWS && pc >= 0 && pc < COLS && grid[pr][pc] == colour)
                        continue;
                    int n = 0, rr = r, cc = c;
                    while (rr >= 0 && rr < ROWS && cc >= 0 && cc < COLS && grid[rr][cc] == colour) {
                        n++; rr += d[0]; cc += d[1];
                    }
                    counts[Math.min(n, 4)]++;
                }
        return counts;
    }

    static int score(char colour) {
        int tokens = 0;
        for (char[] row : grid) for (char x : row) if (x == colour) tokens++;
        int[] k = runs(colour);
        return tokens + 10 * k[2] + 100 * k[3] + 1000 * k[4];
    }

    static boolean full() {
        for (int c = 0; c < COLS; c++) if (grid[ROWS - 1][c] == '.') return false;
        return true;
    }

    static int drop(int c, char colour) {
        for (int r = 0; r < ROWS; r++) if (grid[r][c] == '.') { grid[r][c] = colour; return r; }
        return -1;
    }

    static double value(char colour, int depth, double alpha, double beta) {
        nodes++;
        if (runs('r')[4] > 0) return 10000;
        if (runs('y')[4] > 0) return -10000;
        if (full() || depth == limit) return score('r') - score('y');
        char other = colour == 'r' ? 'y' : 'r';
        double v = colour == 'r' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        for (int c = 0; c < COLS; c++) {
            if (grid[ROWS - 1][c] != '.') continue;
            int r = drop(c, colour);
            double w = value(other, depth + 1, alpha, beta);
            grid[r][c] = '.';
            if (colour == 'r') {
                v = Math.max(v, w);
                if (pruning) { if (v >= beta) return v; alpha = Math.max(alpha, v); }
            } else {
                v = Math.min(v, w);
                if (pruning) { if (v <= alpha) return v; beta = Math.min(beta, v); }
            }
        }
        return v;
    }

    static int decide(char colour) {
        char other = colour == 'r' ? 'y' : 'r';
        double alpha = Double.NEGATIVE_INFINITY, beta = Double.POSITIVE_INFINITY, best = 0;
        int bestCol = -1;
        nodes++;
        for (int c = 0; c < COLS; c++) {
            if (grid[ROWS - 1][c] != '.') continue;
            int r = drop(c, colour);
            double v = value(other, 1, alpha, beta);
            grid[r][c] = '.';
            if (bestCol < 0 || (colour == 'r' ? v > best : v < best)) { best = v; bestCol = c; }
            if (pruning) {
                if (colour == 'r') alpha = Math.max(alpha, v); else beta = Math.min(beta, v);
            }
        }
        return bestCol;
    }

    public static void main(String[] args) {
        String[] rows = args[0].split(",");
        for (int r = 0; r < ROWS; r++) grid[r] = rows[r].toCharArray();
        char colour = args[1].equals("red") ? 'r' : 'y';
        if (args.length == 2) { pruning = true; limit = 2; System.out.println(decide(colour)); return; }
        pruning = args[2].equals("A");
        limit = Integer.parseInt(args[3]);
        if (limit >= 5) limit++;  // the off-by-one
        int col = decide(colour);
        System.out.println(col);
        System.out.println(nodes);
    }
}
