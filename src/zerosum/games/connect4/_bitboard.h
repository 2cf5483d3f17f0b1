/* The Connect Four bitboard helpers that the solver's and the engine's compiled kernels
 * (_solver.c, _engine.c) both need, written once. The layout is bitboard.py's: a column
 * of height h takes h + 1 bits, `h1` = h + 1; `board` has a bit on every playable cell. */

#ifndef ZEROSUM_CONNECT4_BITBOARD_H
#define ZEROSUM_CONNECT4_BITBOARD_H

#include <stdint.h>

typedef uint64_t bitboard;

/* Bits set, without the popcnt instruction (a portable build may not assume it, and
 * gcc's fallback is a library call): the usual halving sums. */
static inline int popcount(bitboard x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The empty cells that would complete a four of `p` (bitboard.threat_finder, unrolled
 * the same way; no memo: here recomputing is cheaper than remembering). Bits shifted
 * past bit 63 are lost, as they would be masked off by `board` anyway. */
static inline bitboard threats_on(int h1, bitboard board, bitboard p, bitboard mask)
{
    const int h0 = h1 - 1, h2 = h1 + 1;
    bitboard r = (p << 1) & (p << 2) & (p << 3);
    bitboard up, down;
    up = p << h1; down = p >> h1;
    r |= up & (p << 2 * h1) & ((p << 3 * h1) | down);
    r |= down & (p >> 2 * h1) & ((p >> 3 * h1) | up);
    up = p << h0; down = p >> h0;
    r |= up & (p << 2 * h0) & ((p << 3 * h0) | down);
    r |= down & (p >> 2 * h0) & ((p >> 3 * h0) | up);
    up = p << h2; down = p >> h2;
    r |= up & (p << 2 * h2) & ((p << 3 * h2) | down);
    r |= down & (p >> 2 * h2) & ((p >> 3 * h2) | up);
    return r & board & ~mask;
}

#endif
