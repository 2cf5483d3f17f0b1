/* Sets of squares: the few operations checkers' Python does on its ints (and, or, xor,
 * shifts below 64, popcount), on three 64-bit words: a 12x12 board takes 156 bits, more
 * than a machine word. */

#ifndef ZEROSUM_CHECKERS_BITS_H
#define ZEROSUM_CHECKERS_BITS_H

#include <stdint.h>

#define WORDS 3 /* 192 bits */

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

#endif
