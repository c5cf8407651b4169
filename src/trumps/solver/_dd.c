/*
 * _dd: the double-dummy search of trumps, for every game at once.
 *
 * The Python side (trumps/solver/cengine.py) reduces a position to a compact
 * problem: at most 64 cards in play, renumbered so that each effective suit
 * (0-3, and 4 for the no-trump jokers of 500) is a contiguous run of indices
 * in increasing order of power; hands are 64-bit masks over those indices.
 * Every game-specific fact arrives as a table or a flag, so this file knows
 * two following rules only: "follow the led suit if able" (500, bridge) and
 * the coinche trump obligations.
 *
 * The search is alpha-beta (fail-soft) on the declaring side's future
 * total, with:
 *   - a transposition table at trick boundaries storing lower/upper bounds;
 *     for trick games the key is the hands reduced to relative ranks
 *     (pext over the cards still in play), so positions differing only in
 *     cards already played share an entry, and of those ranks only the ones
 *     the bound depended on (partition search); with at most four hands the
 *     entries of one shape (leader, suit lengths) share a block of their
 *     own (SEntry/SHead); for card points the key is exact;
 *   - equivalent-card pruning (touching cards of one hand, equal points);
 *   - a cheap trick bound (future value within 0..tricks or points left) and
 *     a sure-trick bound for the side on lead;
 *   - move ordering by simple play heuristics;
 *   - an MTD(f) driver at the root (null-window searches).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

typedef uint64_t u64;

#define MAXN 6
#define INF 100000
#ifndef TT_MIN_POINTS
#define TT_MIN_POINTS 1
#endif
#ifndef TT_MIN_TRICKS
#define TT_MIN_TRICKS 1
#endif
#ifndef HIST_MIX
#define HIST_MIX (sc * 4096 + (h > 4095 ? 4095 : h))
#endif

enum { F_N, F_KIND, F_TRUMP, F_JOKER_HIGH, F_NOMINATE, F_RESTRICT, F_POINTS, F_CTYPE,
       F_EXEMPT, F_UNDERTRUMP, F_MEXEMPT, F_MOVERTRUMP, F_K, F_TRICKS_LEFT, F_LEADER,
       F_NTRICK, F_LED, F_DIX, F_MAXI, F_DECL = F_MAXI + 6, F_SHOWN = F_DECL + 6,
       F_TCARD = F_SHOWN + 6, F_CARDS = F_TCARD + 6 };

typedef struct {
    int n, kind, trump, joker_high, nominate, restrict_, points, ctype;
    int exempt, undertrump, mexempt, movertrump, dix, K, misere;
    int maxi[MAXN], decl[MAXN];
    int suit[64], pts[64];
    int rank[64];            /* a card's place in its suit, 2 for the suit's lowest (DDS's weights) */
    u64 smask[5];
    u64 pcbit[4];            /* bit b of each card's point class */
    int nval, val[16];       /* the distinct card points, ascending */
    u64 vmask[16];           /* the cards worth val[i] */
    struct Solver *sv;       /* the table and move-ordering memory of this search */
} Game;

typedef struct {
    u64 hand[MAXN];
    u64 trickmask;           /* cards of the current trick */
    u64 lens[2];             /* suit lengths: 4 bits at (hand * 5 + suit) * 4 */
    int leader, ntrick, led, best, bkey, tricks_left, rem_pts;
    int tcard[MAXN];
    unsigned shown[MAXN];
} State;

/* A transposition-table entry (partition search): the bound holds for every
 * position with the same leader, the same suit lengths in every hand, and
 * the same owners of the cards marked in `spec` (relative ranks: positions
 * among the live cards, the top ones of each suit that mattered). */
typedef struct {
    u64 lens[2];
    u64 meta;
    u64 spec;
    u64 k[MAXN];
    uint32_t gen;
    int16_t lo, hi;
    uint8_t msuit, mrank, mnom, used;  /* best move: suit, live cards above it, nominated suit */
} Entry;

#ifndef TT_WAYS
#define TT_WAYS 16
#endif
#ifndef TT_BITS
#define TT_BITS 14
#endif
#define TT_SIZE (1u << TT_BITS)

/* The table of trick games with at most four hands (bridge, 500 of 2-4
 * hands): one block of entries per "shape" (the leader, the suit lengths
 * of every hand, the shown voids), like DDS's table.  The table above
 * hashes only the shape too (an entry's key is a partial one, so there is
 * nothing else to hash), so all the entries of one shape competed for its
 * 16 ways: in 13-card bridge a shape has far more positions worth keeping
 * (twice as many nodes with 16 as with 256 ways, 20 deals).  Here a shape
 * owns a block of SB_WAYS entries, and an entry is small (the owners of its
 * relevant cards as two bit planes over the live cards: hand = 2 * plane1
 * + plane0), so a block is scanned quickly. */
typedef struct {
    u64 spec;                /* the relevant cards, over the live cards */
    u64 o0, o1;              /* their owners' bit planes (outside spec: 0) */
    int16_t lo, hi;
    uint32_t pad;            /* (no best move: see sb_probe) */
} SEntry;

typedef struct {
    u64 lens[2];
    uint32_t meta;           /* tt_shape's, which fits in 32 bits for four hands */
    uint32_t gen;            /* the solve it belongs to (not the current one: free) */
    uint32_t stamp;          /* last use, to choose which block to replace */
    uint8_t count, next;     /* entries in use; the next one to overwrite */
    uint8_t tl, pad;         /* tricks left in the shape */
} SHead;                     /* 32 bytes: the SB_ASSOC candidates in two lines */

/* Which table a game uses */
#define USE_SHAPES(g) (!(g)->points && (g)->n <= 4)

#ifndef SB_WAYS
#define SB_WAYS 64           /* at most 255 (SHead's counters) */
#endif
#ifndef SB_BITS
#define SB_BITS 14
#endif
#define SB_SIZE (1u << SB_BITS)
_Static_assert(SB_WAYS <= 255, "SHead counts a block's entries in a byte");
#ifndef SB_ASSOC
#define SB_ASSOC 4           /* candidate blocks per shape */
#endif
/* One solver: a transposition table and the move-ordering memory of a
 * search, used by one search at a time (its lock).  The module has up to
 * one per processor (n_solvers, at most MAX_SOLVERS, each table allocated
 * on first use), so searches from several threads run at once. */
#define MAX_SOLVERS 8
typedef struct Solver {
    PyThread_type_lock lock;
    Entry *tt;
    /* one cache line of tags per bucket: (hash bits, generation) of each
     * way, scanned before any entry is touched */
    uint32_t *tt_tags;
    uint32_t tt_gen;
    unsigned tt_victim;
    SHead *sb_head;          /* the shape blocks (SB_SIZE, two candidates per shape) */
    SEntry *sb_ent;          /* their entries, SB_WAYS per block */
    uint32_t sb_stamp;
    int history[MAXN][64]; /* cutoffs per (hand, card), cleared per solve */
    /* the last lead that cut off, per tricks left and leader, tried first:
     * 10-13 % fewer nodes in no-trump and card-point deals; in suit deals
     * 2-9 % fewer median nodes on four sets of 100 deals since the
     * lowest-win pruning (3 % more before it) */
    int killer[16][MAXN];
} Solver;
static Solver solvers[MAX_SOLVERS];
static int n_solvers = 0;
static unsigned next_solver = 0;

/* One search: its game, the nodes searched, and the most it may search
 * (`limit`, 0: no limit).  Past the limit `stopped` is set and every node
 * returns at once without storing anything: the caller discards the result
 * (a room's bot must not hold the solver for minutes on one rare deal). */
typedef struct {
    const Game *g;
    long long nodes;
    long long limit;
    int stopped;
} Ctx;

#ifdef HIST
static long long hist[14][7];
static long long cuts[64], cutnodes;
static long long cutat[6][8], allnodes[6], allmoves[6];
static long long bcut[14][2], ttcut[14], searched[14], tricknodes, probes, pscan, pmatch, evict, newblocks;
#endif

/* What the first guesses below look at, per side (1: declaring): the top
 * four cards of every suit (weights 4-3-2-1), card points, trumps (every
 * card in coinche all trumps), and the run of top cards of each suit held
 * by one side, with their points. */
typedef struct {
    int hcp[2], pts[2], tr[2], top[2], tpts[2];
    int ctrl[2], stop[2], longest[2], jok[2];
} Features;


/* What DDS's move weights look at in a trick (_dd_search.h, dview_init):
 * the seats from the leader, the trumps, each suit's top three cards. */
typedef struct {
    int L, lho, part, rho;
    int t;                   /* the trump suit if trumps are left, else -1 */
    int lt[4], tt[4];        /* each hand's trumps: how many, its top one (-1: none) */
    unsigned have;           /* the suits whose top cards below are known */
    int w[4][3], h[4][3];    /* a suit's top three cards (-1: none) and their holders */
} DView;


/* ----- the search, compiled twice (see _dd_search.h) ---------------------- */
#define DD_FAST 0
#include "_dd_search.h"
#undef DD_FAST

/* -DDD_NO_BMI2_COPY builds what arm64 and other targets get: the generic copy only */
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && !defined(DD_NO_BMI2_COPY)
#define DD_HAVE_BMI2_COPY 1
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,bmi,bmi2,lzcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#endif
#define DD_FAST 1
#define PDEP PDEP_bmi2
#define PEXT PEXT_bmi2
#define above above_bmi2
#define apply_move apply_move_bmi2
#define boss_mask boss_mask_bmi2
#define card_key card_key_bmi2
#define cheapest_points cheapest_points_bmi2
#define cross_tricks cross_tricks_bmi2
#define ctz64 ctz64_bmi2
#define exact exact_bmi2
#define features features_bmi2
#define gen_moves gen_moves_bmi2
#define guess_points guess_points_bmi2
#define guess_tricks guess_tricks_bmi2
#define later_tricks later_tricks_bmi2
#define legal_mask legal_mask_bmi2
#define live_of live_of_bmi2
#define master_bound master_bound_bmi2
#define mix mix_bmi2
#define more_quick more_quick_bmi2
#define must_lose_trick must_lose_trick_bmi2
#define order_moves order_moves_bmi2
#define points_key points_key_bmi2
#define pop64 pop64_bmi2
#define quick_plus_masters quick_plus_masters_bmi2
#define quick_tricks quick_tricks_bmi2
#define root_values root_values_bmi2
#define run_top run_top_bmi2
#define sb_find sb_find_bmi2
#define sb_probe sb_probe_bmi2
#define dd_seq dd_seq_bmi2
#define own_tops own_tops_bmi2
#define dds_order dds_order_bmi2
#define dview_suit dview_suit_bmi2
#define dview_init dview_init_bmi2
#define hlen hlen_bmi2
#define dd_rank dd_rank_bmi2
#define dds_trump_weight dds_trump_weight_bmi2
#define top_of top_of_bmi2
#define forces_ace forces_ace_bmi2
#define dds_nt_weight dds_nt_weight_bmi2
#define sb_store sb_store_bmi2
#define search search_bmi2
#define seat_after seat_after_bmi2
#define second_hand_wins second_hand_wins_bmi2
#define second_overtaken second_overtaken_bmi2
#define spec_of spec_of_bmi2
#define tt_probe tt_probe_bmi2
#define tt_shape tt_shape_bmi2
#define tt_store tt_store_bmi2
#include "_dd_search.h"
#undef PDEP
#undef PEXT
#undef above
#undef apply_move
#undef boss_mask
#undef card_key
#undef cheapest_points
#undef cross_tricks
#undef ctz64
#undef exact
#undef features
#undef gen_moves
#undef guess_points
#undef guess_tricks
#undef later_tricks
#undef legal_mask
#undef live_of
#undef master_bound
#undef mix
#undef more_quick
#undef must_lose_trick
#undef order_moves
#undef points_key
#undef pop64
#undef quick_plus_masters
#undef quick_tricks
#undef root_values
#undef run_top
#undef sb_find
#undef sb_probe
#undef dd_seq
#undef own_tops
#undef dds_order
#undef dview_suit
#undef dview_init
#undef hlen
#undef dd_rank
#undef dds_trump_weight
#undef top_of
#undef forces_ace
#undef dds_nt_weight
#undef sb_store
#undef search
#undef seat_after
#undef second_hand_wins
#undef second_overtaken
#undef spec_of
#undef tt_probe
#undef tt_shape
#undef tt_store
#undef DD_FAST
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
#define DD_HAVE_BMI2_COPY 0
#endif

/* The copy of the search this process uses, chosen once at import
 * (choose_engine). */
static struct {
    int (*root_values)(Ctx *, const State *, int *, int *);
    int (*exact)(Ctx *, const State *, int);
    const char *name;
} engine = {root_values, exact, "generic"};

/* The BMI2 copy where the CPU has BMI2 (and POPCNT, LZCNT come with it on
 * every such CPU), except AMD family 17h (Zen 1 and 2), whose PEXT is
 * microcoded and slower than the portable loop; TRUMPS_DD_GENERIC=1 in the
 * environment forces the generic copy (the tests compare the two). */
static void choose_engine(void)
{
    const char *force = getenv("TRUMPS_DD_GENERIC");
    if (force != NULL && force[0] != '\0' && strcmp(force, "0") != 0)
        return;
#if DD_HAVE_BMI2_COPY
    __builtin_cpu_init();
    if (__builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") && !__builtin_cpu_is("amdfam17h")) {
        engine.root_values = root_values_bmi2;
        engine.exact = exact_bmi2;
        engine.name = "bmi2";
    }
#endif
}

/* Read a problem (the int32 array of cengine.py) into a game and a state;
 * 0 on success, -1 with a Python error set. */
static int parse_problem(PyObject *args, Game *gp, State *sp, long long *limit)
{
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*|L", &buf, limit))
        return -1;
    if (*limit < 0) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "_dd: the node limit is negative");
        return -1;
    }
    const int32_t *f = (const int32_t *)buf.buf;
    Py_ssize_t nf = buf.len / 4;
    if (nf < F_CARDS || nf < F_CARDS + 3 * f[F_K] || f[F_K] > 64 || f[F_N] < 2 || f[F_N] > MAXN) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "_dd.solve: malformed problem");
        return -1;
    }
    Game g;
    memset(&g, 0, sizeof g);
    State s;
    memset(&s, 0, sizeof s);
    g.n = f[F_N];
    g.kind = f[F_KIND];
    g.trump = f[F_TRUMP];
    g.joker_high = f[F_JOKER_HIGH];
    g.nominate = f[F_NOMINATE];
    g.restrict_ = f[F_RESTRICT];
    g.points = f[F_POINTS];
    g.ctype = f[F_CTYPE];
    g.exempt = f[F_EXEMPT];
    g.undertrump = f[F_UNDERTRUMP];
    g.mexempt = f[F_MEXEMPT];
    g.movertrump = f[F_MOVERTRUMP];
    g.dix = f[F_DIX];
    g.K = f[F_K];
    for (int i = 0; i < MAXN; i++) {
        g.maxi[i] = f[F_MAXI + i];
        g.decl[i] = f[F_DECL + i];
        if (i < g.n && g.maxi[i] != g.decl[i])
            g.misere = 1;
        s.shown[i] = (unsigned)f[F_SHOWN + i];
    }
    s.tricks_left = f[F_TRICKS_LEFT];
    s.leader = f[F_LEADER];
    s.ntrick = f[F_NTRICK];
    s.led = f[F_LED];
    if (g.points && (g.K > 32 || g.n > 4)) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "_dd.solve: card points need at most 4 hands and 32 cards");
        return -1;
    }
    int classes[16], nclasses = 0;
    u64 cmask[16] = {0}; /* the cards of each class */
    for (int c = 0; c < g.K; c++) {
        int su = f[F_CARDS + c], pt = f[F_CARDS + g.K + c], own = f[F_CARDS + 2 * g.K + c];
        g.suit[c] = su;
        g.pts[c] = pt;
        {
            /* a small class number per distinct point value (for the key) */
            int cls = -1;
            for (int q = 0; q < nclasses; q++)
                if (classes[q] == pt)
                    cls = q;
            if (cls < 0 && nclasses < 16) {
                classes[nclasses] = pt;
                cls = nclasses++;
            }
            if (cls < 0) {
                PyBuffer_Release(&buf);
                PyErr_SetString(PyExc_ValueError, "_dd.solve: more than 16 distinct card values");
                return -1;
            }
            cmask[cls] |= 1ULL << c;
            for (int b = 0; b < 4; b++)
                if ((cls >> b) & 1)
                    g.pcbit[b] |= 1ULL << c;
        }
        g.smask[su] |= 1ULL << c;
        if (own >= 0)
            s.hand[own] |= 1ULL << c;
        s.rem_pts += pt;
    }
    s.rem_pts += g.dix;
    for (int c = 0; c < 64; c++)
        g.rank[c] = g.smask[g.suit[c]] ? c - ctz64(g.smask[g.suit[c]]) + 2 : 0;
    /* the distinct point values in increasing order, with their cards */
    for (int q = 0; q < nclasses; q++) {
        int j = g.nval++;
        while (j > 0 && g.val[j - 1] > classes[q]) {
            g.val[j] = g.val[j - 1];
            g.vmask[j] = g.vmask[j - 1];
            j--;
        }
        g.val[j] = classes[q];
        g.vmask[j] = cmask[q];
    }
    s.best = 0;
    s.bkey = 0;
    for (int i = 0; i < s.ntrick; i++) {
        int c = f[F_TCARD + i];
        s.tcard[i] = c;
        s.trickmask |= 1ULL << c;
        int kk = card_key(&g, c, s.led);
        if (i == 0 || kk > s.bkey) {
            s.bkey = kk;
            s.best = i;
        }
    }
    PyBuffer_Release(&buf);
    for (int i = 0; i < g.n; i++)
        for (int x = 0; x < 5; x++) {
            int bit = (i * 5 + x) * 4;
            s.lens[bit >> 6] |= (u64)pop64(s.hand[i] & g.smask[x]) << (bit & 63);
        }

    *gp = g;
    *sp = s;
    return 0;
}

/* Memory for the table, in 2 MB pages where the system has them: a probe
 * lands on a random line of 26 MB, and with 4 KB pages most probes also
 * missed the TLB (measured: -8 % time in 500 deals). */
static void *table_alloc(size_t size)
{
    size_t huge = (size_t)2 << 20;
    size = (size + huge - 1) / huge * huge;
    void *p = aligned_alloc(huge, size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p != NULL)
        madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

/* Take a solver for one search (a free one, else wait for one: the GIL is
 * released meanwhile) and start a new generation of its table; NULL with a
 * Python error if the table cannot be allocated. */
static Solver *begin_solve(int shapes)
{
    Solver *sv = NULL;
    for (int i = 0; i < n_solvers && sv == NULL; i++)
        if (PyThread_acquire_lock(solvers[i].lock, NOWAIT_LOCK))
            sv = &solvers[i];
    if (sv == NULL) {
        sv = &solvers[next_solver++ % (unsigned)n_solvers]; /* the GIL is held here */
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(sv->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    /* each table allocated on the first search that needs it */
    size_t entries = (size_t)TT_SIZE * TT_WAYS;
    if (shapes ? sv->sb_head == NULL : sv->tt == NULL) {
        void *a, *b;
        size_t na, nb;
        if (shapes) {
            na = (size_t)SB_SIZE * sizeof(SHead);
            nb = (size_t)SB_SIZE * SB_WAYS * sizeof(SEntry);
        } else {
            na = entries * sizeof(Entry);
            nb = entries * sizeof(uint32_t);
        }
        a = table_alloc(na);
        b = table_alloc(nb);
        if (a == NULL || b == NULL) {
            free(a);
            free(b);
            PyThread_release_lock(sv->lock);
            PyErr_NoMemory();
            return NULL;
        }
        /* zero: generation 0, never a current one, marks every way empty */
        memset(a, 0, na);
        memset(b, 0, nb);
        if (shapes) {
            sv->sb_head = (SHead *)a;
            sv->sb_ent = (SEntry *)b;
        } else {
            sv->tt = (Entry *)a;
            sv->tt_tags = (uint32_t *)b;
        }
    }
    sv->tt_gen++;
    if ((sv->tt_gen & 255u) == 0)
        sv->tt_gen++; /* generation 0 in a tag means an empty way */
    if (sv->tt_gen == 0) {
        if (sv->tt != NULL) {
            memset(sv->tt, 0, entries * sizeof(Entry));
            memset(sv->tt_tags, 0, entries * sizeof(uint32_t));
        }
        if (sv->sb_head != NULL)
            memset(sv->sb_head, 0, (size_t)SB_SIZE * sizeof(SHead));
        sv->tt_gen = 1;
    }
    memset(sv->history, 0, sizeof sv->history);
    memset(sv->killer, 0, sizeof sv->killer);
    return sv;
}

/* Read the problem and take the solver: -1 with a Python error set. */
static int start(PyObject *args, Game *g, State *s, long long *limit)
{
    if (parse_problem(args, g, s, limit) < 0)
        return -1;
    g->sv = begin_solve(USE_SHAPES(g));
    return g->sv == NULL ? -1 : 0;
}

static PyObject *dd_solve(PyObject *self, PyObject *args)
{
#ifdef HIST
    {
        for (int t = 0; t < 14; t++) {
            fprintf(stderr, "tl %2d: bound-lo %8lld bound-hi %8lld tt %8lld searched %8lld |", t, bcut[t][1], bcut[t][0], ttcut[t], searched[t]);
            for (int j = 0; j < 6; j++)
                fprintf(stderr, " %9lld", hist[t][j]);
            fprintf(stderr, "\n");
        }
        for (int j = 0; j < 4; j++) fprintf(stderr, "ply %d cuts %lld %lld %lld %lld %lld  all %lld avg moves %.2f\n", j, cutat[j][0], cutat[j][1], cutat[j][2], cutat[j][3], cutat[j][4], allnodes[j], allnodes[j] ? (double)allmoves[j]/allnodes[j] : 0.0);
        fprintf(stderr, "trick nodes %lld probes %lld (block found) avg scan %.1f with a match %lld; blocks %lld evicted %lld\n", tricknodes, probes, probes ? (double)pscan / probes : 0.0, pmatch, newblocks, evict);
        tricknodes = 0;
        fprintf(stderr, "cut at move:");
        for (int j = 0; j < 8; j++)
            fprintf(stderr, " %lld", cuts[j]);
        fprintf(stderr, "\n");
    }
#endif
    (void)self;
    Game g;
    State s;
    Ctx x = {&g, 0, 0, 0};
    if (start(args, &g, &s, &x.limit) < 0)
        return NULL;
    int mv[64];
    int vals[64];
    int m;
    Py_BEGIN_ALLOW_THREADS
    m = engine.root_values(&x, &s, mv, vals);
    Py_END_ALLOW_THREADS
    PyThread_release_lock(g.sv->lock);
    if (x.stopped)
        return Py_BuildValue("(OL)", Py_None, x.nodes);
    PyObject *out = PyList_New(m);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < m; i++) {
        PyObject *t = Py_BuildValue("(iii)", mv[i] & 255, mv[i] >> 8, vals[i]);
        if (t == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return Py_BuildValue("(NL)", out, x.nodes);
}

/* Only the value of the position (best play by everyone from here): one
 * MTD(f) search over all the moves at once, cheaper than every card's
 * value. */
static PyObject *dd_value(PyObject *self, PyObject *args)
{
    (void)self;
    Game g;
    State s;
    Ctx x = {&g, 0, 0, 0};
    if (start(args, &g, &s, &x.limit) < 0)
        return NULL;
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = engine.exact(&x, &s, -1);
    Py_END_ALLOW_THREADS
    PyThread_release_lock(g.sv->lock);
    if (x.stopped)
        return Py_BuildValue("(OL)", Py_None, x.nodes);
    return Py_BuildValue("(iL)", v, x.nodes);
}

static PyObject *dd_variant(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    return PyUnicode_FromString(engine.name);
}

static PyObject *dd_solvers(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    return PyLong_FromLong(n_solvers);
}

static PyMethodDef methods[] = {
    {"solvers", dd_solvers, METH_NOARGS,
     "solvers() -> int: how many searches run at once (one per processor, at most 8)."},
    {"variant", dd_variant, METH_NOARGS,
     "variant() -> str: the copy of the search in use: 'bmi2' (chosen at import where the CPU has it) or 'generic'."},
    {"solve", dd_solve, METH_VARARGS,
     "solve(problem: bytes, limit: int = 0) -> (list of (card, suit, value) or None past the node limit, nodes): see trumps.solver.cengine."},
    {"value", dd_value, METH_VARARGS,
     "value(problem: bytes, limit: int = 0) -> (value or None past the node limit, nodes): the position's value only (see trumps.solver.cengine)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_dd", "The C double-dummy search of trumps.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dd(void)
{
    choose_engine();
    if (n_solvers == 0) {
        long cpus = 1;
#ifdef _SC_NPROCESSORS_ONLN
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
#endif
        int want = cpus < 1 ? 1 : cpus > MAX_SOLVERS ? MAX_SOLVERS : (int)cpus;
        for (int i = 0; i < want; i++) {
            solvers[i].lock = PyThread_allocate_lock();
            if (solvers[i].lock == NULL)
                return PyErr_NoMemory();
        }
        n_solvers = want;
    }
    return PyModule_Create(&moduledef);
}
