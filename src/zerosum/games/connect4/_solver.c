/* The Connect Four solver's search, compiled: a twin of `Solver._build_negamax` in
 * solver.py, which stays the reference. Everything that decides which nodes are visited
 * is the same here, step for step: the forced moves, the bounds by stone count, the
 * transposition table (buckets of 4 entries, a position's bucket its key modulo a prime,
 * in the near table or the far one by its stone count,
 * the entry with the most stones replaced when the bucket is full: solver.py's Table), the
 * refutation move tried first, the move ordering, the win-by-two-threats shortcut. So the
 * values, the moves and the node counts are identical; only the cost per node differs (a
 * 64-bit machine word instead of CPython's arbitrary-precision ints, an array of slots
 * instead of dicts).
 *
 * Built by setup.py when a C compiler is present (zerosum.games.connect4._solver); the
 * package runs without it. Only boards whose bitboard fits in 63 bits (width * (height+1)
 * <= 63, the 7x6 board takes 49) are served here: solver.py keeps the others.
 *
 * Reporting back: every node increments `nodes`; when it reaches the count Python asked
 * for, the kernel calls the Python `checkpoint` (Solver._checkpoint), which may raise
 * SearchStopped (a stop, a deadline, a node budget) or report progress, and returns the
 * node count at which to call it again. The exception unwinds the recursion as the
 * ERROR value. The search runs without the interpreter, taking it back at those calls
 * and now and then between them (see `check`).
 *
 * With `threads` > 1 the moves of a call's nodes are shared out between threads (young
 * brothers wait: see `split`), all of them over the one table. The helpers never touch a
 * Python object. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <pthread.h>
#include <unistd.h>
#define HAVE_THREADS 1
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define MAX_WIDTH 12
#define MAX_CELLS 63
#define MAX_THREADS 256
/* A table entry's low bits: the rank of the move that proved a lower bound, 0 to 11
 * (as solver.py's RANK_BITS). */
#define RANK_BITS 4
#define RANK_MASK ((1 << RANK_BITS) - 1)
#define ERROR INT_MIN /* a Python exception is set: unwind */

#include "_bitboard.h"

/* One table slot, 16 bytes: a bucket of BUCKET is one 64-byte cache line. `data` packs
 * the entry (low 32 bits), the generation (16) and the position's stone count (16), and
 * `check` is the key XOR data. Helper threads read and write the slots with no lock
 * (one 64-bit atomic access per word): a slot torn by two writers, or read halfway
 * through a write, gives check ^ data equal to no key probed (but with odds of 2^-64),
 * so it reads as a miss, never as a wrong bound. A slot belongs to the table only if its
 * generation is the table's: clearing the table is then one increment, not a pass over
 * the memory. The stone count decides which entry a full bucket gives up. */
typedef struct {
    uint64_t check;
    uint64_t data;
} Slot;

#define SLOT_ENTRY(d) ((int32_t)(uint32_t)(d))
#define SLOT_GENERATION(d) ((uint16_t)((d) >> 32))
#define SLOT_MOVES(d) ((uint16_t)((d) >> 48))

static uint64_t slot_data(int32_t entry, uint16_t generation, int moves)
{
    return (uint64_t)(uint32_t)entry | (uint64_t)generation << 32 | (uint64_t)(uint16_t)moves << 48;
}

/* Relaxed atomics: no ordering is needed, only that no word is half written. */
#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

#define BUCKET 4 /* as solver.py's BUCKET */
#define ETC_EMPTY 12 /* as solver.py's ETC_EMPTY */
/* A waiting thread's spins before it sleeps (see wait_locked): some 30 microseconds. On
 * idle cores, L2_R2 with two threads took 2.3-2.5 s with them, 2.7-3.0 s without. */
#define SPIN 1024
#if defined(__x86_64__) || defined(__i386__)
#define PAUSE() __builtin_ia32_pause()
#else
#define PAUSE() ((void)0)
#endif

typedef struct Kernel {
    PyObject_HEAD
    /* the board (Geometry in bitboard.py) */
    int width, height, h1, cells;
    bitboard bottom, board;
    bitboard ordered_columns[MAX_WIDTH]; /* column masks, centre first */
    int rank_of_column[MAX_WIDTH];       /* column -> its rank in centre order */
    int lost[MAX_CELLS + 1], lowest_at[MAX_CELLS + 1], highest_at[MAX_CELLS + 1];
    int last_two, offset;
    /* the transposition table (solver.py's Table): `near` buckets of BUCKET slots for
     * the positions of `near_from` stones or more, then `buckets` for the others (each
     * count a prime) */
    Slot *slots;
    uint64_t near, buckets;
    int near_from;
    long long size; /* live entries */
    uint16_t generation;
    int threads; /* the searches of one call: the caller's and threads - 1 helpers */
    struct Smp *smp; /* the helper threads, once started (NULL: none) */
    /* the count and the way back to Python */
    long long nodes;        /* the count, between calls and at the caller's checks */
    long long helper_nodes; /* the part of `nodes` the helper threads visited */
    long long python_check; /* when Python asked to be called back */
    PyObject *checkpoint; /* borrowed, for the duration of one `negamax` call */
    /* solve_each's other threads' kernels (see `worker_kernel`), kept between calls */
    struct Kernel **workers;
    int nworkers;
    struct Batch *batch; /* the solve_each under way (NULL: none) */
} Kernel;

/* The cells that would complete a four of `p` on this kernel's board (_bitboard.h). */
static bitboard threats(const Kernel *k, bitboard p, bitboard mask)
{
    return threats_on(k->h1, k->board, p, mask);
}

/* -- the table: solver.py's Table ---------------------------------------------------- */

/* The slots, zeroed. The probes land anywhere in tens of megabytes: with 4 KB pages
 * nearly every one misses the TLB as well as the caches, which measured as most of the
 * time per node; on Linux the table asks for 2 MB pages (transparent huge pages), so a
 * few dozen TLB entries cover it. Elsewhere, plain zeroed memory. Either way a page
 * costs memory only once a slot in it is written. The near buckets come first: 2 MiB
 * that most probes land in, and that the caches keep (see solver.py's Table). */
static Slot *slots_alloc(size_t count)
{
    const size_t bytes = count * sizeof(Slot);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    madvise(p, bytes, MADV_HUGEPAGE); /* a wish: without it the table still works */
    return p;
#else
    return calloc(count, sizeof(Slot));
#endif
}

static void slots_free(Slot *slots, size_t count)
{
    if (slots == NULL)
        return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(slots, count * sizeof(Slot));
#else
    (void)count;
    free(slots);
#endif
}

static Slot *bucket_of(const Kernel *k, bitboard key, int moves)
{
    if (moves >= k->near_from)
        return &k->slots[(key % k->near) * BUCKET];
    return &k->slots[(k->near + key % k->buckets) * BUCKET];
}

static size_t slot_count(const Kernel *k)
{
    return (size_t)(k->near + k->buckets) * BUCKET;
}

/* The entry stored for `key`, or 0 (no entry is 0: see the encoding in negamax). A
 * bucket fills in order, so the first slot not in use ends the search. */
static int32_t table_get(const Kernel *k, bitboard key, int moves)
{
    Slot *s = bucket_of(k, key, moves);
    for (int i = 0; i < BUCKET; i++) {
        const uint64_t data = LOAD(&s[i].data);
        if (SLOT_GENERATION(data) != k->generation)
            return 0;
        if ((LOAD(&s[i].check) ^ data) == key)
            return SLOT_ENTRY(data);
    }
    return 0;
}

static void table_clear(Kernel *k)
{
    k->size = 0;
    if (++k->generation == 0) { /* wrapped: old generations would come back to life */
        memset(k->slots, 0, slot_count(k) * sizeof(Slot));
        k->generation = 1;
    }
}

typedef struct {
    int key; /* threats * 16 + (15 - rank): one descending sort, as in solver.py */
    bitboard move, threats;
} Ordered;

static int rank_of(const Kernel *k, bitboard move)
{
    return k->rank_of_column[__builtin_ctzll(move) / k->h1];
}

typedef struct Smp Smp;
typedef struct Split Split;
typedef struct Batch Batch;

/* One thread's search: the caller's (`helper` 0) or a helper's (1 to threads - 1). The
 * caller's count is copied to the kernel's at each check, where Python may read it; a
 * helper's is added when the call ends. Padded: a helper's count, written at every node,
 * shares no cache line with another thread's. */
typedef struct {
    Kernel *k;
    long long nodes, next_check, next_yield;
    long long size; /* entries this search added to the table */
    int helper;
    int failed;   /* the caller's: a Python exception is set (a stop, Ctrl-C) */
    Smp *smp;     /* the call's threads (NULL: one thread) */
    Split *split; /* the split point whose move this search is in (NULL: none) */
    Batch *batch; /* solve_each's positions (NULL: one position) */
    PyThreadState *python; /* the caller's, while it searches without the interpreter */
    char pad[64];
} Search;

/* solve_each's positions, shared by its threads. Aligned and padded: the counters the
 * threads change share no cache line with the caller's search (its count is written at
 * every node). */
struct Batch {
    const bitboard *current, *mask;
    int *score;
    long long *nodes;
    Py_ssize_t count;
    Py_ssize_t next __attribute__((aligned(64))); /* the next position to take (atomic) */
    Py_ssize_t solved; /* positions answered (atomic) */
    int halt;          /* the caller stopped (atomic) */
    char pad[64];
} __attribute__((aligned(64)));

#ifdef HAVE_THREADS
/* A split point: a node of a null window whose first SPLIT_AFTER moves were searched
 * without a cutoff (young brothers wait: at a node that fails high an early move nearly
 * always does it, and only a node that is going to fail low needs all its moves). Its
 * other moves are taken one at a time by whichever thread is free, the node's owner
 * included. In a null
 * window (alpha, alpha + 1) a move's search does not depend on its brothers' results:
 * the node fails high with the first move that does (its score is stored and returned,
 * as one thread would), else low with alpha, its moves all searched. */
struct Split {
    Split *parent;    /* the split the owner was in: a cutoff there ends this one too */
    Split *next_open; /* the smp's list of splits taking workers */
    bitboard current, mask; /* the children's player to move; the node's stones */
    int moves, alpha, beta, count;
    Ordered order[MAX_WIDTH];
    int next;    /* the next move to take (atomic) */
    int workers; /* threads other than the owner working in it (atomic) */
    int cut;     /* a move failed high (atomic); its score and rank under the lock */
    int score, rank;
};

typedef struct {
    Search search;
    pthread_t thread;
} Helper;

/* A kernel's helper threads, started at its first call with more than one thread and
 * kept, parked, between calls (a thread started and joined at each null window cost
 * more than the small windows' search). A call invites them once the caller has
 * searched SPAWN_AFTER nodes; each then waits (`idle`) for splits to join; the caller
 * splits a node only when one of them is idle. */
struct Smp {
    int root_moves;     /* the call's root */
    long long start_at; /* the caller's count at which the helpers are invited */
    int begun;          /* the caller's: invited */
    int stop;   /* the call is over, or the caller stopped (atomic) */
    int idle;   /* threads waiting for a split to join (atomic) */
    int call;   /* the invitations so far: a helper joins when it changes (the lock) */
    int quit;   /* the helpers end (the lock) */
    int events; /* counts the signals of `wake` (atomic, changed under the lock) */
    pthread_mutex_t lock; /* guards `open`, the cutoffs, the waits */
    pthread_cond_t wake;  /* a split opened, a worker left a split, the call began or
                             stopped */
    Split *open;
    int started;
    Helper *helpers;
    pid_t pid; /* the process that started them: a fork's child has no helpers */
};
#endif

/* `table.store(key, entry, moves)`: the key's slot, else the bucket's first free one,
 * else the one whose position has the most stones (the first of them). */
static void table_store(Search *se, bitboard key, int32_t entry, int moves)
{
    const Kernel *k = se->k;
    Slot *s = bucket_of(k, key, moves), *slot = NULL;
    int most = -1;
    for (int i = 0; i < BUCKET; i++) {
        const uint64_t data = LOAD(&s[i].data);
        if (SLOT_GENERATION(data) != k->generation) {
            se->size++;
            slot = &s[i];
            break;
        }
        if ((LOAD(&s[i].check) ^ data) == key) {
            slot = &s[i];
            break;
        }
        if (SLOT_MOVES(data) > most) {
            most = SLOT_MOVES(data);
            slot = &s[i];
        }
    }
    const uint64_t data = slot_data(entry, k->generation, moves);
    STORE(&slot->data, data);
    STORE(&slot->check, key ^ data);
}

/* -- the search --------------------------------------------------------------------- */

/* Nodes between two looks for Ctrl-C: about 5 ms of search. */
#define YIELD_EVERY (1 << 16)
/* Nodes between a thread's looks whether its work is still wanted (a cutoff at a split
 * above it, the call over), with more than one thread: some 50 microseconds. */
#define SPLIT_CHECK (1 << 9)
/* The caller's nodes before it invites its helpers: a search this small (most of the
 * windows of an easy position, the best-move and principal-variation questions) is
 * over before they would be awake. */
#define SPAWN_AFTER (1 << 10)
/* Where a node may be split: within SPLIT_PLIES of the window's root and with at least
 * SPLIT_EMPTY empty cells, so that its moves are worth handing over (a split costs a
 * lock and waking a thread: microseconds, thousands of nodes); and after SPLIT_AFTER of
 * its moves failed low. Waiting for one move (the textbook's rule) split nodes that
 * then failed high a fifth of the time, their other moves searched for nothing (L1_R3's
 * first 2 positions: 30 % more nodes than one thread); waiting for two, a tenth of them
 * and 10-17 % more nodes; for three, 7 % more but the helper idle twice as long. */
#define SPLIT_PLIES 12
#define SPLIT_EMPTY 12
#define SPLIT_AFTER 2

static void plan_check(Search *se)
{
    const Kernel *k = se->k;
    long long next = k->python_check < se->next_yield ? k->python_check : se->next_yield;
#ifdef HAVE_THREADS
    const Smp *smp = se->smp;
    if (smp != NULL) {
        if (!smp->begun && smp->start_at < next)
            next = smp->start_at;
        if (se->nodes + SPLIT_CHECK < next)
            next = se->nodes + SPLIT_CHECK;
    }
#endif
    se->next_check = next;
}

#ifdef HAVE_THREADS
static int negamax(Search *se, bitboard current, bitboard mask, int moves, int alpha,
                   int beta, int64_t opp_threats);

/* Is this search's work no longer wanted: a cutoff at a split it is working under, or
 * the call stopped? */
static int aborted(const Search *se)
{
    if (LOAD(&se->smp->stop))
        return 1;
    for (const Split *sp = se->split; sp != NULL; sp = sp->parent)
        if (LOAD(&sp->cut))
            return 1;
    return 0;
}

/* `wake`'s signal, the lock held. */
static void signal_locked(Smp *smp)
{
    __atomic_add_fetch(&smp->events, 1, __ATOMIC_SEQ_CST);
    pthread_cond_broadcast(&smp->wake);
}

/* Wait for `wake`, the lock held: first a moment's spin without the lock (a thread
 * asleep takes tens of microseconds to wake, longer than many a split's moves take). */
static void wait_locked(Smp *smp)
{
    const int events = LOAD(&smp->events);
    pthread_mutex_unlock(&smp->lock);
    for (int i = 0; i < SPIN && LOAD(&smp->events) == events; i++)
        PAUSE();
    pthread_mutex_lock(&smp->lock);
    if (LOAD(&smp->events) == events)
        pthread_cond_wait(&smp->wake, &smp->lock);
}

static void wake_all(Smp *smp)
{
    pthread_mutex_lock(&smp->lock);
    signal_locked(smp);
    pthread_mutex_unlock(&smp->lock);
}

static int below(const Split *sp, const Split *within)
{
    for (const Split *p = sp->parent; p != NULL; p = p->parent)
        if (p == within)
            return 1;
    return 0;
}

/* A split to work in, counted among its workers, waited for if need be: any split (a
 * helper between two jobs; NULL once the call is over), or one below `within` (its
 * owner, waiting for its workers to finish: it may help them, but not elsewhere, since
 * its node's frame must stay on its stack; NULL once they have finished). */
static Split *find_work(Search *se, Split *within)
{
    Smp *smp = se->smp;
    Split *found = NULL;
    pthread_mutex_lock(&smp->lock);
    __atomic_add_fetch(&smp->idle, 1, __ATOMIC_SEQ_CST);
    for (;;) {
        /* Acquire: the last worker's writes are seen before the owner's frame goes. */
        if (within != NULL ? __atomic_load_n(&within->workers, __ATOMIC_ACQUIRE) == 0
                           : LOAD(&smp->stop))
            break;
        /* The open split nearest the root: its moves' subtrees are the largest, so
         * the fewest splits (and waits) per node searched. */
        for (Split *sp = smp->open; sp != NULL; sp = sp->next_open)
            if (LOAD(&sp->next) < sp->count && !LOAD(&sp->cut)
                && (found == NULL || sp->moves < found->moves)
                && (within == NULL || below(sp, within)))
                found = sp;
        if (found != NULL) {
            __atomic_add_fetch(&found->workers, 1, __ATOMIC_SEQ_CST);
            break;
        }
        wait_locked(smp);
    }
    __atomic_sub_fetch(&smp->idle, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&smp->lock);
    return found;
}

/* Done in `sp`: its owner may be waiting for the last worker to leave. */
static void leave(Smp *smp, Split *sp)
{
    if (__atomic_sub_fetch(&sp->workers, 1, __ATOMIC_SEQ_CST) == 0)
        wake_all(smp);
}

/* Search the moves of `sp`, one at a time, until none is left or one fails high (or
 * the work is no longer wanted). */
static void work_at(Search *se, Split *sp)
{
    const Kernel *k = se->k;
    Split *outer = se->split;
    se->split = sp;
    while (!LOAD(&sp->cut) && !se->failed) {
        const int i = __atomic_fetch_add(&sp->next, 1, __ATOMIC_SEQ_CST);
        if (i >= sp->count)
            break;
        const Ordered *o = &sp->order[i];
        const int64_t move_threats = o->threats == (bitboard)-1 ? -1 : (int64_t)o->threats;
        int score = negamax(se, sp->current, sp->mask | o->move, sp->moves + 1, -sp->beta,
                            -sp->alpha, move_threats);
        if (score == ERROR)
            break;
        score = -score;
        if (score >= sp->beta) {
            pthread_mutex_lock(&se->smp->lock);
            if (!LOAD(&sp->cut)) {
                sp->score = score;
                sp->rank = rank_of(k, o->move);
                STORE(&sp->cut, 1);
            }
            pthread_mutex_unlock(&se->smp->lock);
            break;
        }
    }
    se->split = outer;
}

/* The rest of negamax at a node whose first move failed low, its other `count` moves
 * (`order`) shared: offered to the idle threads, searched by the owner too, and when
 * none is left to take, the owner helps its workers (in splits of their own below this
 * one) until the last has finished. */
static int split(Search *se, bitboard key, bitboard opponent, bitboard mask, int moves,
                 int alpha, int beta, const Ordered *order, int count)
{
    Kernel *k = se->k;
    Smp *smp = se->smp;
    Split sp = {.parent = se->split, .current = opponent, .mask = mask, .moves = moves,
                .alpha = alpha, .beta = beta, .count = count};
    memcpy(sp.order, order, (size_t)count * sizeof *order);
    pthread_mutex_lock(&smp->lock);
    sp.next_open = smp->open;
    smp->open = &sp;
    signal_locked(smp);
    pthread_mutex_unlock(&smp->lock);
    work_at(se, &sp);
    pthread_mutex_lock(&smp->lock);
    for (Split **p = &smp->open; *p != NULL; p = &(*p)->next_open)
        if (*p == &sp) {
            *p = sp.next_open;
            break;
        }
    pthread_mutex_unlock(&smp->lock);
    Split *job;
    while ((job = find_work(se, &sp)) != NULL) {
        work_at(se, job);
        leave(smp, job);
    }
    if (se->failed)
        return ERROR;
    pthread_mutex_lock(&smp->lock);
    const int cut = LOAD(&sp.cut), score = sp.score, rank = sp.rank;
    pthread_mutex_unlock(&smp->lock);
    if (cut) {
        table_store(se, key, -(((score + k->offset) << RANK_BITS) | rank), moves);
        return score;
    }
    if (aborted(se)) /* a cutoff above: some moves may not have been searched */
        return ERROR;
    table_store(se, key, alpha + k->offset, moves);
    return alpha;
}

static int can_split(const Search *se, int moves, int alpha, int beta)
{
    const Smp *smp = se->smp;
    return smp != NULL && beta == alpha + 1 && LOAD(&smp->idle) > 0
        && moves - smp->root_moves < SPLIT_PLIES && se->k->cells - moves >= SPLIT_EMPTY;
}

/* A helper: parked until a call invites it, then working in that call's splits until
 * the call is over. */
static void *helper_run(void *arg)
{
    Search *se = &((Helper *)arg)->search;
    Smp *smp = se->smp;
    int seen = 0;
    pthread_mutex_lock(&smp->lock);
    for (;;) {
        while (!LOAD(&smp->quit) && LOAD(&smp->call) == seen)
            wait_locked(smp);
        if (smp->quit)
            break;
        seen = smp->call;
        pthread_mutex_unlock(&smp->lock);
        Split *job;
        while ((job = find_work(se, NULL)) != NULL) {
            work_at(se, job);
            leave(smp, job);
        }
        pthread_mutex_lock(&smp->lock);
    }
    pthread_mutex_unlock(&smp->lock);
    return NULL;
}

/* The kernel's helpers, started now if need be: `helpers` of them (those that cannot be
 * started are fewer helpers: the answer is the same); NULL if none could be. */
static Smp *smp_for(Kernel *k, int helpers)
{
    if (k->smp != NULL && k->smp->pid != getpid())
        k->smp = NULL; /* a fork's copy: its threads are the parent's (its memory stays) */
    if (k->smp != NULL)
        return k->smp;
    Smp *smp;
    if (posix_memalign((void **)&smp, 64, sizeof *smp))
        return NULL;
    memset(smp, 0, sizeof *smp);
    if (posix_memalign((void **)&smp->helpers, 64, (size_t)helpers * sizeof(Helper))) {
        free(smp);
        return NULL;
    }
    pthread_mutex_init(&smp->lock, NULL);
    pthread_cond_init(&smp->wake, NULL);
    smp->stop = 1;
    smp->pid = getpid();
    for (int h = 0; h < helpers; h++) {
        Helper *hp = &smp->helpers[smp->started];
        memset(hp, 0, sizeof *hp);
        hp->search.k = k;
        hp->search.next_check = SPLIT_CHECK;
        hp->search.helper = h + 1;
        hp->search.smp = smp;
        if (pthread_create(&hp->thread, NULL, helper_run, hp) == 0)
            smp->started++;
    }
    k->smp = smp;
    return smp;
}

/* The helpers end (the kernel is freed, re-made, or given another thread count). */
static void smp_close(Kernel *k)
{
    Smp *smp = k->smp;
    k->smp = NULL;
    if (smp == NULL || smp->pid != getpid())
        return;
    pthread_mutex_lock(&smp->lock);
    STORE(&smp->quit, 1);
    signal_locked(smp);
    pthread_mutex_unlock(&smp->lock);
    for (int h = 0; h < smp->started; h++)
        pthread_join(smp->helpers[h].thread, NULL);
    pthread_cond_destroy(&smp->wake);
    pthread_mutex_destroy(&smp->lock);
    free(smp->helpers);
    free(smp);
}

/* A call begins: no split open, nothing stopped; the helpers are invited later. */
static void smp_begin(Smp *smp, int root_moves, long long start_at)
{
    pthread_mutex_lock(&smp->lock);
    smp->root_moves = root_moves;
    smp->open = NULL;
    STORE(&smp->stop, 0);
    pthread_mutex_unlock(&smp->lock);
    smp->start_at = start_at;
    smp->begun = 0;
}

static void smp_invite(Smp *smp)
{
    smp->begun = 1;
    pthread_mutex_lock(&smp->lock);
    STORE(&smp->call, smp->call + 1);
    signal_locked(smp);
    pthread_mutex_unlock(&smp->lock);
}

/* The call is over: the helpers go back to their park, and their counts join the
 * kernel's. No helper is searching any more (every split waited for its workers before
 * its owner went on, and the root's owner is the caller), and none will before the next
 * call opens a split, so their counts can be read now, without waiting for them to park
 * (a helper just invited may not even be awake yet: waiting for it cost the small
 * windows a thread's wake-up each). */
static void smp_finish(Smp *smp, Kernel *k)
{
    pthread_mutex_lock(&smp->lock);
    STORE(&smp->stop, 1);
    signal_locked(smp);
    for (int h = 0; h < smp->started; h++) {
        Search *se = &smp->helpers[h].search;
        k->nodes += se->nodes;
        k->helper_nodes += se->nodes;
        k->size += se->size;
        se->nodes = se->size = 0;
        se->next_check = SPLIT_CHECK;
    }
    pthread_mutex_unlock(&smp->lock);
}
#endif

/* The caller stopped (a Python exception is set): so do its helpers. */
static int fail(Search *se)
{
    se->failed = 1;
    if (se->batch != NULL)
        STORE(&se->batch->halt, 1);
#ifdef HAVE_THREADS
    if (se->smp != NULL) {
        pthread_mutex_lock(&se->smp->lock);
        STORE(&se->smp->stop, 1);
        signal_locked(se->smp);
        pthread_mutex_unlock(&se->smp->lock);
    }
#endif
    return -1;
}

/* The caller's search runs without the interpreter (other threads, a display, a server,
 * run meanwhile) and takes it back at its checks: Python's checkpoint when it asked for
 * it; in between, every YIELD_EVERY nodes, a look for Ctrl-C (KeyboardInterrupt, as in
 * the pure search). Neither changes what is searched. With helpers, every SPLIT_CHECK
 * nodes, each thread looks whether its work is still wanted; solve_each's other threads
 * whether the caller stopped. */
static int check(Search *se)
{
    Kernel *k = se->k;
    if (se->batch != NULL && se->helper) { /* another thread of solve_each */
        se->next_check = se->nodes + SPLIT_CHECK;
        return LOAD(&se->batch->halt) ? -1 : 0;
    }
#ifdef HAVE_THREADS
    Smp *smp = se->smp;
    if (smp != NULL) {
        if (aborted(se))
            return -1;
        if (se->helper) {
            se->next_check = se->nodes + SPLIT_CHECK;
            return 0;
        }
        if (!smp->begun && se->nodes >= smp->start_at)
            smp_invite(smp);
        if (se->nodes < k->python_check && se->nodes < se->next_yield) {
            plan_check(se);
            return 0;
        }
    }
#endif
    /* The caller searches without the interpreter, so that other threads run meanwhile;
     * it takes it back here for a moment. */
    PyEval_RestoreThread(se->python);
    k->nodes = se->nodes;
    int failed = 0;
    if (se->nodes >= k->python_check) {
        PyObject *r = PyObject_CallNoArgs(k->checkpoint);
        if (r == NULL) {
            failed = 1;
        } else {
            k->python_check = PyLong_AsLongLong(r);
            Py_DECREF(r);
            failed = k->python_check == -1 && PyErr_Occurred();
        }
    } else {
        failed = PyErr_CheckSignals() < 0;
    }
    se->nodes = k->nodes;
    se->python = PyEval_SaveThread();
    if (failed)
        return fail(se);
    se->next_yield = se->nodes + YIELD_EVERY;
    plan_check(se);
    return 0;
}

/* The score within (alpha, beta), fail-soft; the player to move cannot win with this
 * move (the caller checked). `opp_threats`: the opponent's threats if the caller knows
 * them, else -1. Read solver.py's negamax beside this: the same steps in the same order. */
static int negamax(Search *se, bitboard current, bitboard mask, int moves, int alpha,
                   int beta, int64_t opp_threats)
{
    const Kernel *k = se->k;
    if (++se->nodes >= se->next_check && check(se) < 0)
        return ERROR;
    /* The table is far bigger than the caches: ask for this position's slot now, and
     * compute the threats while it comes. */
    const bitboard key = current + mask;
    __builtin_prefetch(bucket_of(k, key, moves));
    const bitboard opponent = current ^ mask;
    bitboard possible = (mask + k->bottom) & k->board;
    if (opp_threats < 0)
        opp_threats = (int64_t)threats(k, opponent, mask);
    const bitboard forced = possible & (bitboard)opp_threats;
    if (forced) {
        if (forced & (forced - 1))
            return k->lost[moves]; /* two threats to block */
        possible = forced;
    }
    bitboard candidates = possible & ~((bitboard)opp_threats >> 1);
    if (!candidates)
        return k->lost[moves]; /* every move lets the opponent win */
    if (moves >= k->last_two)
        return 0; /* we play one, they the last, nobody can win: a draw */
    const int lowest = k->lowest_at[moves];
    if (alpha < lowest) {
        alpha = lowest;
        if (alpha >= beta)
            return alpha;
    }
    int highest = k->highest_at[moves];
    /* Entries as in solver.py: an upper bound u as u + offset > 0; a lower bound l with
     * the rank r of the move that proved it as -((l + offset) << RANK_BITS | r) < 0. */
    const int32_t entry = table_get(k, key, moves);
    bitboard first = 0;
    if (entry != 0) {
        if (entry > 0) {
            if (entry - k->offset < highest)
                highest = entry - k->offset;
        } else {
            const int bound = (-entry >> RANK_BITS) - k->offset;
            if (alpha < bound) {
                alpha = bound;
                if (alpha >= beta)
                    return alpha;
            }
            /* The refutation of last time first: it usually refutes again. */
            first = candidates & k->ordered_columns[-entry & RANK_MASK];
        }
    }
    if (beta > highest) {
        beta = highest;
        if (alpha >= beta)
            return beta;
    }
    /* The enhanced transposition cutoff: a child's upper bound in the table is a lower
     * bound here, which may cut this position off before any child is searched (near
     * the end the lookups cost more than they save). */
    if (moves < k->cells - ETC_EMPTY) {
        for (bitboard rest = candidates; rest; rest &= rest - 1) {
            const bitboard move = rest & -rest;
            const int32_t child = table_get(k, opponent + (mask | move), moves + 1);
            if (child > 0 && k->offset - child >= beta) {
                const int score = k->offset - child;
                table_store(se, key, -(((score + k->offset) << RANK_BITS)
                                      | rank_of(k, move)), moves);
                return score;
            }
        }
    }
    if (first) {
        int score = negamax(se, opponent, mask | first, moves + 1, -beta, -alpha, -1);
        if (score == ERROR)
            return ERROR;
        score = -score;
        if (score >= beta) {
            table_store(se, key, -(((score + k->offset) << RANK_BITS) | rank_of(k, first)),
                        moves);
            return score;
        }
        if (score > alpha)
            alpha = score;
        candidates ^= first;
    }
    Ordered order[MAX_WIDTH];
    int n = 0;
    if (candidates & (candidates - 1)) {
        for (int r = 0; r < k->width; r++) {
            const bitboard move = candidates & k->ordered_columns[r];
            if (!move)
                continue;
            const bitboard t = threats(k, current | move, mask);
            const bitboard playable = t & ((mask | move) + k->bottom);
            /* Two threats the opponent cannot both stop: we win with our next stone. */
            if (playable && ((playable & (playable - 1)) || ((playable << 1) & t)))
                return k->highest_at[moves];
            /* Insertion sort, descending: keys are distinct (one rank each). */
            const int sort_key = (popcount(t) << 4) | (15 - r);
            int i = n++;
            while (i > 0 && order[i - 1].key < sort_key) {
                order[i] = order[i - 1];
                i--;
            }
            order[i].key = sort_key;
            order[i].move = move;
            order[i].threats = t;
        }
    } else if (candidates) { /* one move left: its threats are left to the child */
        order[0].key = 0;
        order[0].move = candidates;
        order[0].threats = (bitboard)-1;
        n = 1;
    }
    int searched = first != 0; /* moves searched at this node, none a cutoff */
    for (int i = 0; i < n; i++) {
#ifdef HAVE_THREADS
        if (searched >= SPLIT_AFTER && n - i >= 2 && se->smp != NULL
            && can_split(se, moves, alpha, beta))
            return split(se, key, opponent, mask, moves, alpha, beta, order + i, n - i);
#endif
        searched++;
        const int64_t move_threats = order[i].threats == (bitboard)-1
            ? -1 : (int64_t)order[i].threats;
        int score = negamax(se, opponent, mask | order[i].move, moves + 1, -beta, -alpha,
                            move_threats);
        if (score == ERROR)
            return ERROR;
        score = -score;
        if (score >= beta) {
            table_store(se, key, -(((score + k->offset) << RANK_BITS)
                                  | rank_of(k, order[i].move)), moves);
            return score;
        }
        if (score > alpha)
            alpha = score;
    }
    table_store(se, key, alpha + k->offset, moves);
    return alpha;
}

/* -- the Python face ----------------------------------------------------------------- */

/* -- many positions at once: solve_each ------------------------------------------- */

static bitboard as_bitboard(PyObject *o);

/* solver.py's `_half_toward_zero`: C's division. */
static int half_toward_zero(int x)
{
    return x / 2;
}

/* `Solver.solve` without the book, the cache or a known interval: the exact score,
 * bisecting with null windows, those nearer 0 first (cheaper to refute). */
static int solve(Search *se, bitboard current, bitboard mask)
{
    const Kernel *k = se->k;
    const int moves = popcount(mask);
    if (moves >= k->cells)
        return 0;
    if (threats(k, current, mask) & ((mask + k->bottom) & k->board))
        return (k->cells + 1 - moves) / 2; /* wins at once */
    int lo = -((k->cells - moves) / 2), hi = (k->cells + 1 - moves) / 2;
    while (lo < hi) {
        int med = lo + (hi - lo) / 2;
        if (med <= 0 && half_toward_zero(lo) < med)
            med = half_toward_zero(lo);
        else if (med >= 0 && half_toward_zero(hi) > med)
            med = half_toward_zero(hi);
        const int r = negamax(se, current, mask, moves, med, med + 1, -1);
        if (r == ERROR)
            return ERROR;
        if (r <= med)
            hi = r < hi ? r : hi;
        else
            lo = r > lo ? r : lo;
    }
    return lo;
}

/* Take the batch's positions one at a time until none is left, each solved from a
 * cleared table (this thread's own): so a position's nodes are the same whichever
 * thread takes it. -1: the caller stopped. */
static int solve_batch(Search *se, Batch *b)
{
    for (;;) {
        const Py_ssize_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
        if (i >= b->count || LOAD(&b->halt))
            return LOAD(&b->halt) ? -1 : 0;
        table_clear(se->k);
        se->size = 0;
        const long long before = se->nodes;
        const int score = solve(se, b->current[i], b->mask[i]);
        if (score == ERROR)
            return -1;
        b->score[i] = score;
        b->nodes[i] = se->nodes - before;
        __atomic_fetch_add(&b->solved, 1, __ATOMIC_RELAXED);
    }
}

/* A kernel for another thread of solve_each: this board's fields and a table of its
 * own, of the same size; a plain struct, never seen by Python. Kept between calls, with
 * its table (a fresh table's pages cost a fault each when first written). */
static Kernel *worker_kernel(const Kernel *k)
{
    Kernel *w = malloc(sizeof *w);
    if (w == NULL)
        return NULL;
    memcpy(w, k, sizeof *w);
    w->slots = slots_alloc(slot_count(k));
    if (w->slots == NULL) {
        free(w);
        return NULL;
    }
    w->size = 0;
    w->generation = 1;
    w->threads = 1;
    w->smp = NULL;
    w->nodes = w->helper_nodes = 0;
    w->python_check = LLONG_MAX;
    w->checkpoint = NULL;
    w->workers = NULL;
    w->nworkers = 0;
    w->batch = NULL;
    return w;
}

static void workers_free(Kernel *k)
{
    for (int i = 0; i < k->nworkers; i++) {
        slots_free(k->workers[i]->slots, slot_count(k->workers[i]));
        free(k->workers[i]);
    }
    free(k->workers);
    k->workers = NULL;
    k->nworkers = 0;
}

/* Up to `count` worker kernels; fewer if memory runs out (fewer threads, the same
 * answers). */
static int workers_for(Kernel *k, int count)
{
    if (count > k->nworkers) {
        Kernel **more = realloc(k->workers, (size_t)count * sizeof *more);
        if (more == NULL)
            return k->nworkers;
        k->workers = more;
        while (k->nworkers < count) {
            Kernel *w = worker_kernel(k);
            if (w == NULL)
                break;
            k->workers[k->nworkers++] = w;
        }
    }
    return count < k->nworkers ? count : k->nworkers;
}

#ifdef HAVE_THREADS
typedef struct {
    Search search;
    pthread_t thread;
} Worker;

static void *worker_run(void *arg)
{
    Search *se = &((Worker *)arg)->search;
    solve_batch(se, se->batch);
    return NULL;
}
#endif

/* solve_each(currents, masks, threads, next_check, checkpoint): (scores, nodes), a list
 * of each. `threads` take the positions one at a time, the caller among them, each over
 * its own table; the caller alone calls Python back (the others see it stop). */
static PyObject *Kernel_solve_each(Kernel *k, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "solve_each takes 5 arguments");
        return NULL;
    }
    const long threads = PyLong_AsLong(args[2]);
    const long long next_check = PyLong_AsLongLong(args[3]);
    if (PyErr_Occurred())
        return NULL;
    if (threads < 1 || threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1 to %d", MAX_THREADS);
        return NULL;
    }
    if (k->checkpoint != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return NULL;
    }
    PyObject *cs = PySequence_Fast(args[0], "currents must be a sequence");
    if (cs == NULL)
        return NULL;
    PyObject *ms = PySequence_Fast(args[1], "masks must be a sequence");
    if (ms == NULL) {
        Py_DECREF(cs);
        return NULL;
    }
    PyObject *result = NULL;
    Batch b = {.count = PySequence_Fast_GET_SIZE(cs)};
    bitboard *boards = NULL;
    if (PySequence_Fast_GET_SIZE(ms) != b.count) {
        PyErr_SetString(PyExc_ValueError, "currents and masks differ in length");
        goto done;
    }
    boards = PyMem_Malloc((size_t)(b.count ? b.count : 1) * 2 * sizeof *boards);
    b.score = PyMem_Malloc((size_t)(b.count ? b.count : 1) * sizeof *b.score);
    b.nodes = PyMem_Malloc((size_t)(b.count ? b.count : 1) * sizeof *b.nodes);
    if (boards == NULL || b.score == NULL || b.nodes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < b.count; i++) {
        const bitboard current = as_bitboard(PySequence_Fast_GET_ITEM(cs, i));
        const bitboard mask = as_bitboard(PySequence_Fast_GET_ITEM(ms, i));
        if (PyErr_Occurred())
            goto done;
        if ((current & ~mask) || (mask & ~k->board)) { /* checked, not trusted */
            PyErr_SetString(PyExc_ValueError, "not a position of this board");
            goto done;
        }
        boards[i] = current;
        boards[b.count + i] = mask;
    }
    b.current = boards;
    b.mask = boards + b.count;
    int others = 0;
#ifdef HAVE_THREADS
    const long wanted = threads - 1 < b.count - 1 ? threads - 1 : (long)b.count - 1;
    others = wanted > 0 ? workers_for(k, (int)wanted) : 0;
    Worker *ws = others ? PyMem_Calloc((size_t)others, sizeof *ws) : NULL;
    if (others && ws == NULL)
        others = 0;
#endif
    k->python_check = next_check;
    k->checkpoint = args[4];
    k->batch = &b;
    Search caller = {.k = k, .nodes = k->nodes, .next_yield = k->nodes + YIELD_EVERY,
                     .batch = &b};
    plan_check(&caller);
    int started = 0;
    (void)others;
#ifdef HAVE_THREADS
    for (int h = 0; h < others; h++) {
        ws[h].search = (Search){.k = k->workers[h], .helper = h + 1, .batch = &b,
                                .next_check = SPLIT_CHECK};
        if (pthread_create(&ws[h].thread, NULL, worker_run, &ws[h]) == 0)
            started = h + 1;
        else
            break;
    }
#endif
    caller.python = PyEval_SaveThread();
    const int stopped = solve_batch(&caller, &b);
    long long theirs = 0;
#ifdef HAVE_THREADS
    for (int h = 0; h < started; h++) {
        pthread_join(ws[h].thread, NULL);
        theirs += ws[h].search.nodes;
    }
#endif
    PyEval_RestoreThread(caller.python);
#ifdef HAVE_THREADS
    PyMem_Free(ws);
#endif
    k->checkpoint = NULL;
    k->batch = NULL;
    k->nodes = caller.nodes + theirs;
    k->helper_nodes += theirs;
    k->size = caller.size;
    if (stopped)
        goto done;
    PyObject *scores = PyList_New(b.count), *nodes = PyList_New(b.count);
    for (Py_ssize_t i = 0; scores != NULL && nodes != NULL && i < b.count; i++) {
        PyObject *s = PyLong_FromLong(b.score[i]), *n = PyLong_FromLongLong(b.nodes[i]);
        if (s == NULL || n == NULL) {
            Py_XDECREF(s);
            Py_XDECREF(n);
            Py_CLEAR(scores);
            break;
        }
        PyList_SET_ITEM(scores, i, s);
        PyList_SET_ITEM(nodes, i, n);
    }
    if (scores != NULL && nodes != NULL)
        result = PyTuple_Pack(2, scores, nodes);
    Py_XDECREF(scores);
    Py_XDECREF(nodes);
done:
    PyMem_Free(boards);
    PyMem_Free(b.score);
    PyMem_Free(b.nodes);
    Py_DECREF(cs);
    Py_DECREF(ms);
    return result;
}

static bitboard as_bitboard(PyObject *o)
{
    return (bitboard)PyLong_AsUnsignedLongLong(o);
}

/* Kernel(width, height, near, buckets, near_from, centre_order): the table's sizes and
 * split as solver.py's Table has them */
static int Kernel_init(Kernel *k, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"width", "height", "near", "buckets", "near_from",
                            "centre_order", NULL};
    int width, height, near_from;
    long long near, buckets;
    PyObject *order;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiLLiO", names, &width, &height,
                                     &near, &buckets, &near_from, &order))
        return -1;
    if (k->checkpoint != NULL) { /* its table is being searched, by helpers too */
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return -1;
    }
    if (width < 4 || height < 4 || width > MAX_WIDTH || width * (height + 1) > 63) {
        PyErr_Format(PyExc_ValueError, "the native solver takes boards of at most 63 "
                     "bits (width * (height + 1)), not %dx%d", width, height);
        return -1;
    }
    if (buckets < 1 || buckets > ((long long)1 << 40) || near < 1
        || near > ((long long)1 << 40)) {
        PyErr_SetString(PyExc_ValueError, "near and buckets must be 1 to 2**40");
        return -1;
    }
    PyObject *seq = PySequence_Fast(order, "centre_order must be a sequence");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != width) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "centre_order must name every column once");
        return -1;
    }
    k->width = width;
    k->height = height;
    k->h1 = height + 1;
    k->cells = width * height;
    k->bottom = 0;
    for (int c = 0; c < width; c++)
        k->bottom |= (bitboard)1 << (c * k->h1);
    k->board = k->bottom * (((bitboard)1 << height) - 1);
    for (int r = 0; r < width; r++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, r));
        if (c < 0 || c >= width) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "centre_order names a column off the board");
            return -1;
        }
        k->ordered_columns[r] = (((bitboard)1 << height) - 1) << (c * k->h1);
        k->rank_of_column[c] = r;
    }
    Py_DECREF(seq);
    const int cells = k->cells;
    for (int n = 0; n <= cells; n++) { /* Python's floor division, for negative n too */
        k->lost[n] = -((cells - n) / 2);
        k->lowest_at[n] = cells - 2 - n >= 0 ? -((cells - 2 - n) / 2) : (n - cells + 3) / 2;
        k->highest_at[n] = cells - 1 - n >= 0 ? (cells - 1 - n) / 2 : -((n - cells + 2) / 2);
    }
    k->last_two = cells - 2;
    k->offset = cells + 1;
#ifdef HAVE_THREADS
    smp_close(k);
#endif
    workers_free(k);
    slots_free(k->slots, k->slots ? slot_count(k) : 0);
    k->slots = slots_alloc((size_t)(near + buckets) * BUCKET);
    if (k->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    k->near = (uint64_t)near;
    k->buckets = (uint64_t)buckets;
    k->near_from = near_from;
    k->size = 0;
    k->generation = 1;
    k->nodes = 0;
    k->python_check = LLONG_MAX;
    k->threads = 1;
    return 0;
}

static void Kernel_dealloc(Kernel *k)
{
#ifdef HAVE_THREADS
    smp_close(k);
#endif
    workers_free(k);
    slots_free(k->slots, k->slots ? slot_count(k) : 0);
    Py_TYPE(k)->tp_free((PyObject *)k);
}

/* negamax(current, mask, moves, alpha, beta, opp_threats, next_check, checkpoint) */
static PyObject *Kernel_negamax(Kernel *k, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "negamax takes 8 arguments");
        return NULL;
    }
    const bitboard current = as_bitboard(args[0]), mask = as_bitboard(args[1]);
    const long moves = PyLong_AsLong(args[2]);
    const long alpha = PyLong_AsLong(args[3]), beta = PyLong_AsLong(args[4]);
    const long long opp_threats = PyLong_AsLongLong(args[5]);
    const long long next_check = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred())
        return NULL;
    /* Checked, not trusted: the bounds tables are indexed by `moves`. */
    if (moves != popcount(mask) || (current & ~mask) || (mask & ~k->board)) {
        PyErr_SetString(PyExc_ValueError, "not a position of this board");
        return NULL;
    }
    /* The search lets other threads run (see `check`): one of them
     * entering this kernel too would grow or clear the table under it. */
    if (k->checkpoint != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return NULL;
    }
    k->python_check = next_check;
    k->checkpoint = args[7];
    Search caller = {.k = k, .nodes = k->nodes, .next_yield = k->nodes + YIELD_EVERY};
#ifdef HAVE_THREADS
    /* More threads share out the moves of the nodes that fail low (see `split`), all
     * of them over the one table. Every entry stored is a proven bound: a search whose
     * work is no longer wanted (a cutoff found by another thread) unwinds without
     * storing, as a stopped search does. So the score is one thread's; the node count
     * and which nodes are visited are not. */
    if (k->threads > 1) {
        caller.smp = smp_for(k, k->threads - 1);
        if (caller.smp != NULL)
            smp_begin(caller.smp, (int)moves, caller.nodes + SPAWN_AFTER);
    }
#endif
    plan_check(&caller);
    caller.python = PyEval_SaveThread();
    const int score = negamax(&caller, current, mask, (int)moves, (int)alpha, (int)beta,
                              opp_threats);
    PyEval_RestoreThread(caller.python);
    k->nodes = caller.nodes;
    k->size += caller.size;
#ifdef HAVE_THREADS
    if (caller.smp != NULL)
        smp_finish(caller.smp, k);
#endif
    k->checkpoint = NULL;
    if (score == ERROR)
        return NULL;
    return PyLong_FromLong(score);
}

static PyObject *Kernel_threats(Kernel *k, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "threats takes 2 arguments");
        return NULL;
    }
    const bitboard p = as_bitboard(args[0]), mask = as_bitboard(args[1]);
    if (PyErr_Occurred())
        return NULL;
    return PyLong_FromUnsignedLongLong(threats(k, p, mask));
}

static PyObject *Kernel_clear(Kernel *k, PyObject *Py_UNUSED(ignored))
{
    if (k->checkpoint != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return NULL;
    }
    table_clear(k);
    Py_RETURN_NONE;
}

static PyObject *Kernel_get_nodes(Kernel *k, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(k->nodes);
}

static int Kernel_set_nodes(Kernel *k, PyObject *value, void *Py_UNUSED(closure))
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "nodes cannot be deleted");
        return -1;
    }
    const long long n = PyLong_AsLongLong(value);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (k->checkpoint != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return -1;
    }
    k->nodes = n;
    k->helper_nodes = 0; /* counted from here too */
    return 0;
}

static PyObject *Kernel_get_threads(Kernel *k, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(k->threads);
}

/* The searches of each call (1: the caller's alone). Where the kernel was built without
 * threads, any number is taken and the caller searches alone. */
static int Kernel_set_threads(Kernel *k, PyObject *value, void *Py_UNUSED(closure))
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "threads cannot be deleted");
        return -1;
    }
    const long n = PyLong_AsLong(value);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 1 || n > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1 to %d", MAX_THREADS);
        return -1;
    }
    if (k->checkpoint != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return -1;
    }
#ifdef HAVE_THREADS
    if (n != k->threads)
        smp_close(k);
#endif
    k->threads = (int)n;
    return 0;
}

static PyObject *Kernel_get_helper_nodes(Kernel *k, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(k->helper_nodes);
}

static PyObject *Kernel_get_solved(Kernel *k, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(k->batch == NULL ? 0 : LOAD(&k->batch->solved));
}

static PyObject *Kernel_get_size(Kernel *k, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(k->size);
}

static PyMethodDef Kernel_methods[] = {
    {"negamax", (PyCFunction)(void (*)(void))Kernel_negamax, METH_FASTCALL,
     "negamax(current, mask, moves, alpha, beta, opp_threats, next_check, checkpoint)"},
    {"threats", (PyCFunction)(void (*)(void))Kernel_threats, METH_FASTCALL,
     "threats(p, mask): the empty cells completing a four of p"},
    {"clear", (PyCFunction)Kernel_clear, METH_NOARGS, "Empty the table."},
    {"solve_each", (PyCFunction)(void (*)(void))Kernel_solve_each, METH_FASTCALL,
     "solve_each(currents, masks, threads, next_check, checkpoint): (scores, nodes)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"nodes", (getter)Kernel_get_nodes, (setter)Kernel_set_nodes, "nodes searched", NULL},
    {"size", (getter)Kernel_get_size, NULL, "entries in the table", NULL},
    {"solved", (getter)Kernel_get_solved, NULL,
     "positions the solve_each under way has answered", NULL},
    {"helper_nodes", (getter)Kernel_get_helper_nodes, NULL,
     "the part of nodes that helper threads visited", NULL},
    {"threads", (getter)Kernel_get_threads, (setter)Kernel_set_threads,
     "threads searching each call (split nodes)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zerosum.games.connect4._solver.Kernel",
    .tp_doc = "The solver's search and table for one board size (see solver.py).",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver",
    "The Connect Four solver's search in C (see solver.py, the reference).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void)
{
    if (PyType_Ready(&KernelType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
