/* The shuffle of a deal and the first dealer, from a seed text, in C: exactly
 * what ``random.Random(text)`` followed by ``rng.shuffle(items)`` (or
 * ``rng.randrange(n)``) gives on CPython 3.11-3.13, without making the
 * generator object.
 *
 * The specification is the Python beside it, ``trumps/core/shuffle.py``
 * (``seeded``, ``shuffle``, ``randbelow``), which is CPython's own
 * ``Modules/_randommodule.c`` and ``Lib/random.py``: version-2 seeding of a
 * string takes the integer whose big-endian bytes are the text followed by
 * its SHA-512 (computed by the caller and given here as ``key``), splits it
 * into 32-bit words from the least significant, and runs the Mersenne
 * Twister's ``init_by_array``; ``getrandbits(k)`` for k <= 32 is the next
 * output shifted right by 32 - k; the shuffle walks i from the end, drawing
 * j below i + 1 by rejection.  ``tests/core/test_shuffle.py`` compares the
 * two on many texts and lengths.
 *
 * Why: making the generator in Python costs about 5 us (the Python-level
 * ``seed``, the integer's conversion, ``init_genrand(19650218)``, then
 * ``init_by_array``) and the shuffle 2-3 us more (a method call per draw),
 * once per deal of every game.  Here ``init_genrand(19650218)`` is worked
 * out once, the shuffle's draws are C calls, and only the first outputs of
 * the generator's first block are made (the block is made whole only if a
 * shuffle draws more than N - M outputs, which none of a deck does).
 *
 * Seeding is two chains of about 624 steps, each step needing the word the
 * one before wrote: about 2.5 us in which the processor waits more than it
 * works.  A game's first dealer and first deal are two such seedings, so
 * randbelow_and_shuffle runs their chains side by side (init_short_two), in
 * about the time of one. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define N 624
#define M 397
#define MATRIX_A 0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

static uint32_t base_state[N]; /* init_genrand(19650218) */

typedef struct {
    uint32_t mt[N];
    int index;    /* the next output's place in the block */
    int twisted;  /* how many words of the new block are made */
} MT;

static void init_base(void) {
    base_state[0] = 19650218U;
    for (int i = 1; i < N; i++) {
        base_state[i] = 1812433253U * (base_state[i - 1] ^ (base_state[i - 1] >> 30)) + (uint32_t)i;
    }
}

/* CPython's init_by_array, for key_length <= N (every text an engine
 * seeds: a 64-byte digest after a short text): the first loop visits
 * i = 1 .. N-1 and then i = 1 again, the second i = 2 .. N-1 and then 1,
 * each step reading the word the step before wrote.  Written as those
 * straight runs, with key[j] + j worked out beforehand, a step is the chain
 * of dependent operations and nothing else. */
static void init_short(MT *g, const uint32_t *kj, int length) {
    uint32_t *mt = g->mt;
    memcpy(mt, base_state, sizeof(base_state));
    uint32_t prev = mt[0];
    int j = 0;
    for (int i = 1; i < N; i++) {
        prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kj[j];
        j = j + 1 == length ? 0 : j + 1;
    }
    mt[0] = prev;
    prev = mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + kj[j];
    for (int i = 2; i < N; i++) {
        prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - (uint32_t)i;
    }
    mt[0] = prev;
    mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - 1U;
    mt[0] = 0x80000000U;
    g->index = 0;
    g->twisted = 0;
}

/* The same for two generators at once: each step of one is a chain of
 * dependent operations that leaves the processor idle most of its cycles,
 * so the other's step fills them, and two seedings take the time of one
 * (a game's first dealer and its first deal). */
static void init_short_two(MT *a, const uint32_t *ka, int la, MT *b, const uint32_t *kb, int lb) {
    uint32_t *x = a->mt, *y = b->mt;
    memcpy(x, base_state, sizeof(base_state));
    memcpy(y, base_state, sizeof(base_state));
    uint32_t p = x[0], q = y[0];
    int ja = 0, jb = 0;
    for (int i = 1; i < N; i++) {
        p = x[i] = (x[i] ^ ((p ^ (p >> 30)) * 1664525U)) + ka[ja];
        q = y[i] = (y[i] ^ ((q ^ (q >> 30)) * 1664525U)) + kb[jb];
        ja = ja + 1 == la ? 0 : ja + 1;
        jb = jb + 1 == lb ? 0 : jb + 1;
    }
    x[0] = p;
    y[0] = q;
    p = x[1] = (x[1] ^ ((p ^ (p >> 30)) * 1664525U)) + ka[ja];
    q = y[1] = (y[1] ^ ((q ^ (q >> 30)) * 1664525U)) + kb[jb];
    for (int i = 2; i < N; i++) {
        p = x[i] = (x[i] ^ ((p ^ (p >> 30)) * 1566083941U)) - (uint32_t)i;
        q = y[i] = (y[i] ^ ((q ^ (q >> 30)) * 1566083941U)) - (uint32_t)i;
    }
    x[0] = p;
    y[0] = q;
    x[1] = (x[1] ^ ((p ^ (p >> 30)) * 1566083941U)) - 1U;
    y[1] = (y[1] ^ ((q ^ (q >> 30)) * 1566083941U)) - 1U;
    x[0] = y[0] = 0x80000000U;
    a->index = b->index = 0;
    a->twisted = b->twisted = 0;
}

/* CPython's init_by_array as it is written, for keys longer than N words
 * (a text of more than about 2.4 kB). */
static void init_by_array(MT *g, const uint32_t *key, size_t key_length) {
    uint32_t *mt = g->mt;
    memcpy(mt, base_state, sizeof(base_state));
    size_t i = 1, j = 0, k = N > key_length ? N : key_length;
    for (; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= N) {
            mt[0] = mt[N - 1];
            i = 1;
        }
        if (j >= key_length) j = 0;
    }
    for (k = N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= N) {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    g->index = 0;
    g->twisted = 0;
}

static inline uint32_t twist_word(const uint32_t *mt, int kk, int next, int far) {
    uint32_t y = (mt[kk] & UPPER_MASK) | (mt[next] & LOWER_MASK);
    return mt[far] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
}

/* CPython's genrand_uint32, each block made word by word as the outputs are
 * read: word kk < N - M reads the old words kk, kk + 1 and kk + M, none yet
 * overwritten when words are made in order; the rest are made at once, in
 * CPython's order, the first time one of them is needed. */
static uint32_t next_output(MT *g) {
    uint32_t *mt = g->mt;
    if (g->index >= N) { /* the next block (no deck needs one): made the same way */
        g->index = 0;
        g->twisted = 0;
    }
    if (g->index >= g->twisted) {
        if (g->index < N - M) {
            mt[g->index] = twist_word(mt, g->index, g->index + 1, g->index + M);
            g->twisted = g->index + 1;
        } else {
            int kk;
            for (kk = g->twisted; kk < N - M; kk++) mt[kk] = twist_word(mt, kk, kk + 1, kk + M);
            for (; kk < N - 1; kk++) mt[kk] = twist_word(mt, kk, kk + 1, kk + (M - N));
            mt[N - 1] = twist_word(mt, N - 1, 0, M - 1);
            g->twisted = N;
        }
    }
    uint32_t y = mt[g->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static int bit_length(uint32_t n) {
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
}

/* below(n) as random.Random's _randbelow_with_getrandbits: k = n's bit
 * length, draw getrandbits(k) until below n (n >= 1, n < 2**32) */
static uint32_t below(MT *g, uint32_t n) {
    int k = bit_length(n);
    uint32_t r = next_output(g) >> (32 - k);
    while (r >= n) r = next_output(g) >> (32 - k);
    return r;
}

/* A seed: the integer whose big-endian bytes are ``key`` (CPython's
 * random_seed of a non-negative int: its 32-bit words from the least
 * significant, as many as its bit length needs, at least one), as the
 * words init_short reads (key[j] + j) when there are at most N of them. */
typedef struct {
    uint32_t small[N];
    uint32_t *words;
    size_t length;
} Key;

static int key_from(Key *k, PyObject *key_obj) {
    char *bytes;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(key_obj, &bytes, &len) < 0) return -1;
    const unsigned char *b = (const unsigned char *)bytes;
    Py_ssize_t start = 0;
    while (start < len && b[start] == 0) start++; /* leading zero bytes: no bits */
    Py_ssize_t used = len - start;
    size_t words = used == 0 ? 1 : (size_t)((used + 3) / 4);
    k->words = k->small;
    k->length = words;
    if (words > N) {
        k->words = PyMem_Malloc(words * sizeof(uint32_t));
        if (k->words == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    memset(k->words, 0, words * sizeof(uint32_t));
    for (Py_ssize_t p = 0; p < used; p++) { /* p-th byte from the least significant */
        k->words[p / 4] |= (uint32_t)b[len - 1 - p] << (8 * (p % 4));
    }
    if (words <= N) {
        for (size_t j = 0; j < words; j++) k->words[j] += (uint32_t)j;
    }
    return 0;
}

static void key_free(Key *k) {
    if (k->words != k->small) PyMem_Free(k->words);
}

static void seed(MT *g, const Key *k) {
    if (k->length <= N) {
        init_short(g, k->words, (int)k->length);
    } else {
        init_by_array(g, k->words, k->length);
    }
}

static int seed_from(MT *g, PyObject *key_obj) {
    Key k;
    if (key_from(&k, key_obj) < 0) return -1;
    seed(g, &k);
    key_free(&k);
    return 0;
}

static void shuffle_with(MT *g, PyObject *items) {
    PyObject **cells = ((PyListObject *)items)->ob_item;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        uint32_t j = below(g, (uint32_t)(i + 1));
        PyObject *t = cells[i];
        cells[i] = cells[j];
        cells[j] = t;
    }
}

static PyObject *seeded_shuffle(PyObject *self, PyObject *args) {
    PyObject *key, *items;
    if (!PyArg_ParseTuple(args, "SO!:shuffle", &key, &PyList_Type, &items)) return NULL;
    Py_ssize_t size = PyList_GET_SIZE(items);
    if (size > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "shuffle: too many items");
        return NULL;
    }
    MT g;
    if (seed_from(&g, key) < 0) return NULL;
    shuffle_with(&g, items);
    Py_RETURN_NONE;
}

static PyObject *seeded_randbelow(PyObject *self, PyObject *args) {
    PyObject *key;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Sn:randbelow", &key, &n)) return NULL;
    if (n < 1 || n > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "randbelow: n must be in 1 .. 2**32 - 1");
        return NULL;
    }
    MT g;
    if (seed_from(&g, key) < 0) return NULL;
    return PyLong_FromUnsignedLong(below(&g, (uint32_t)n));
}

/* randbelow(dealer_key, n) and shuffle(deal_key, items) in one call, the
 * two generators seeded side by side: a game's first dealer and its first
 * deal, each drawn from its own seed text. */
static PyObject *seeded_randbelow_and_shuffle(PyObject *self, PyObject *args) {
    PyObject *dealer_key, *deal_key, *items;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "SnSO!:randbelow_and_shuffle", &dealer_key, &n, &deal_key, &PyList_Type, &items))
        return NULL;
    if (n < 1 || n > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "randbelow: n must be in 1 .. 2**32 - 1");
        return NULL;
    }
    if (PyList_GET_SIZE(items) > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "shuffle: too many items");
        return NULL;
    }
    Key ka, kb;
    if (key_from(&ka, dealer_key) < 0) return NULL;
    if (key_from(&kb, deal_key) < 0) {
        key_free(&ka);
        return NULL;
    }
    MT a, b;
    if (ka.length <= N && kb.length <= N) {
        init_short_two(&a, ka.words, (int)ka.length, &b, kb.words, (int)kb.length);
    } else {
        seed(&a, &ka);
        seed(&b, &kb);
    }
    key_free(&ka);
    key_free(&kb);
    uint32_t dealer = below(&a, (uint32_t)n);
    shuffle_with(&b, items);
    return PyLong_FromUnsignedLong(dealer);
}

static PyMethodDef methods[] = {
    {"shuffle", seeded_shuffle, METH_VARARGS,
     "shuffle(key, items): items shuffled in place as random.Random(seed).shuffle does, "
     "the generator seeded by the integer whose big-endian bytes are key"},
    {"randbelow", seeded_randbelow, METH_VARARGS,
     "randbelow(key, n): random.Random(seed).randrange(n), the generator seeded as for shuffle"},
    {"randbelow_and_shuffle", seeded_randbelow_and_shuffle, METH_VARARGS,
     "randbelow_and_shuffle(dealer_key, n, deal_key, items): randbelow(dealer_key, n), returned, and "
     "shuffle(deal_key, items), the two generators seeded side by side"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "trumps.core._seeded",
    "A deal's shuffle and the first dealer from a seed, in C (see trumps.core.shuffle).", -1, methods,
};

PyMODINIT_FUNC PyInit__seeded(void) {
    init_base();
    return PyModule_Create(&module);
}
