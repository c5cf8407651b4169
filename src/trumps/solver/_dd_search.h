/*
 * The search of _dd.c (everything from the move generator to the MTD(f)
 * driver), kept apart so that _dd.c can compile it twice: once for the
 * generic baseline of the target (x86-64, arm64...), and on x86-64 once
 * more with BMI2/POPCNT/LZCNT enabled under other names (the `_bmi2`
 * copy).  Which copy runs is decided once at import by CPU detection, so a
 * wheel built on one machine runs on any other of its architecture, and
 * where the CPU has PEXT the transposition-table keys use it.  Both copies
 * are the same code: results are identical, only the speed differs.
 *
 * No include guard: it is meant to be included twice.  `DD_FAST` selects
 * the instructions of PEXT/PDEP.
 */

#if DD_FAST
/* the instructions themselves (this copy runs only where the CPU has them) */
static inline u64 PEXT(u64 x, u64 m) { return _pext_u64(x, m); }
static inline u64 PDEP(u64 x, u64 m) { return _pdep_u64(x, m); }
#else
/* bit extract / deposit in portable C */
static inline u64 PEXT(u64 x, u64 m)
{
    u64 r = 0, bb = 1;
    while (m) {
        u64 low = m & -m;
        if (x & low)
            r |= bb;
        bb <<= 1;
        m ^= low;
    }
    return r;
}

static inline u64 PDEP(u64 x, u64 m)
{
    u64 r = 0, bb = 1;
    while (m) {
        u64 low = m & -m;
        if (x & bb)
            r |= low;
        bb <<= 1;
        m ^= low;
    }
    return r;
}
#endif

static inline int ctz64(u64 x) { return __builtin_ctzll(x); }
static inline int pop64(u64 x) { return __builtin_popcountll(x); }
static inline u64 above(int c) { return c >= 63 ? 0 : (~0ULL) << (c + 1); }

/* The cards that beat every other suit: the trumps, or in a 500 no-trump
 * deal the high jokers (none in coinche no trumps or a low-joker misère). */
static inline u64 boss_mask(const Game *g)
{
    return g->trump >= 0 ? g->smask[g->trump] : g->joker_high ? g->smask[4] : 0;
}

/* The seat `k` places after seat `a` (k < n): (a + k) % n without a
 * division, which showed in the profile of the hottest lines. */
static inline int seat_after(const Game *g, int a, int k)
{
    int q = a + k;
    return q >= g->n ? q - g->n : q;
}

static inline int card_key(const Game *g, int c, int led)
{
    int s = g->suit[c];
    if (s == 4)
        return g->joker_high ? 400 + c : 0;
    if (s == g->trump)
        return 300 + c;
    if (s == led)
        return 100 + c;
    return 0;
}

/* The legal cards of position p (before equivalence pruning). */
static u64 legal_mask(const Game *g, const State *s, int p)
{
    u64 h = s->hand[p];
    if (s->ntrick == 0)
        return h;
    u64 follow = h & g->smask[s->led];
    if (g->kind == 0)
        return follow ? follow : h;
    /* coinche */
    if (g->ctype == 0)
        return follow ? follow : h;
    int top = s->tcard[s->best];
    int bestpos = seat_after(g, s->leader, s->best);
    int partner = g->decl[bestpos] == g->decl[p];
    if (g->ctype == 1 || s->led == g->trump) {
        if (!follow)
            return h;
        if (partner && g->exempt)
            return follow;
        u64 higher = follow & above(top);
        return higher ? higher : follow;
    }
    if (follow)
        return follow;
    u64 trumps = h & g->smask[g->trump];
    u64 over = (g->suit[top] == g->trump) ? (trumps & above(top)) : trumps;
    if (partner && g->mexempt) {
        if (g->movertrump) {
            u64 allowed = (h & ~g->smask[g->trump]) | over;
            return allowed ? allowed : h;
        }
        return h;
    }
    if (!trumps)
        return h;
    if (over)
        return over;
    return g->undertrump ? trumps : h;
}

/* The highest card of the run of touching cards (among the cards still live)
 * that starts at c within `legal`, with equal points. */
static inline int run_top(const Game *g, u64 live, u64 legal, int c)
{
    for (;;) {
        u64 up = live & above(c) & g->smask[g->suit[c]];
        if (!up)
            return c;
        int nx = ctz64(up);
        if (!((legal >> nx) & 1) || g->pts[nx] != g->pts[c])
            return c;
        c = nx;
    }
}

/* Moves: card | (nominated suit << 8). */
static int gen_moves(const Game *g, const State *s, int p, u64 live, int *mv, int prune, int *pairs, int *npairs)
{
    u64 legal = legal_mask(g, s, p);
    int m = 0;
    u64 l = legal;
    while (l) {
        int c = ctz64(l);
        l &= l - 1;
        if (prune) {
            u64 up = live & above(c) & g->smask[g->suit[c]];
            if (up) {
                int nx = ctz64(up);
                if (((legal >> nx) & 1) && g->pts[nx] == g->pts[c]) {
                    /* c is the same as nx: remember the pair (see search) */
                    pairs[(*npairs)++] = c | (nx << 8);
                    continue;
                }
            }
        }
        if (s->ntrick == 0 && g->nominate && g->suit[c] == 4) {
            unsigned allowed = 15;
            if (g->restrict_) {
                allowed = 15 & ~s->shown[p];
                if (!allowed)
                    allowed = 15;
            }
            for (int x = 0; x < 4; x++)
                if (allowed & (1u << x))
                    mv[m++] = c | (x << 8);
        } else {
            mv[m++] = c | (g->suit[c] << 8);
        }
    }
    return m;
}

/* Apply a move to a copy of the state; returns the value won by the
 * declaring side if the move completed a trick (else 0). */
static inline int apply_move(const Game *g, State *s, int p, int mv, u64 *winrel)
{
    int c = mv & 255;
    u64 bit = 1ULL << c;
    s->hand[p] &= ~bit;
    int lb = (p * 5 + g->suit[c]) * 4;
    s->lens[lb >> 6] -= 1ULL << (lb & 63);
    if (s->ntrick == 0) {
        s->led = mv >> 8;
        s->best = 0;
        s->bkey = card_key(g, c, s->led);
    } else {
        int k = card_key(g, c, s->led);
        if (k > s->bkey) {
            s->bkey = k;
            s->best = s->ntrick;
        }
        if (g->restrict_ && g->suit[c] != s->led)
            s->shown[p] |= 1u << s->led;
    }
    s->tcard[s->ntrick++] = c;
    s->trickmask |= bit;
    if (s->ntrick < g->n)
        return 0;
    int winner = seat_after(g, s->leader, s->best);
    int w = s->tcard[s->best];
    int beaten = -1;
    for (int i = 0; i < g->n; i++) {
        int c = s->tcard[i];
        if (i != s->best && g->suit[c] == g->suit[w] && c > beaten)
            beaten = c;
    }
    if (beaten >= 0) {
        /* it beat a card of its own suit: its rank mattered; in misère,
         * where a side wants to lose, so does the rank it had to beat */
        *winrel |= 1ULL << w;
        if (g->misere)
            *winrel |= 1ULL << beaten;
    }
    int tp = 0;
    if (g->points) {
        for (int i = 0; i < g->n; i++)
            tp += g->pts[s->tcard[i]];
        if (s->tricks_left == 1)
            tp += g->dix;
    } else {
        tp = 1;
    }
    s->rem_pts -= tp;
    s->tricks_left--;
    s->leader = winner;
    s->ntrick = 0;
    s->trickmask = 0;
    s->led = -1;
    return g->decl[winner] ? tp : 0;
}


/* Second hand in four: its winner c will be overtaken when the third hand
 * (an opponent) plays a higher card of its suit and the fourth hand
 * (the partner) holds none above the third hand's best: try the low cards
 * first then (DDS's "second hand low"; 13 % fewer no-trump median nodes,
 * 7 % in suit deals, 4 % in coinche, mean over five seeds). */
static int second_overtaken(const Game *g, const State *s, int p, int c)
{
    int third = (p + 1) % 4;
    u64 sm = g->smask[g->suit[c]];
    u64 f3 = s->hand[third] & sm;
    if (g->decl[third] == g->decl[p])
        return 0;
    /* a ruff: only a third hand void in the led suit too can overruff
     * (-6 % suit nodes in total, every one of five seeds) */
    if (g->suit[c] != s->led && (s->hand[third] & g->smask[s->led]))
        return 0;
    if (!(f3 & above(c)))
        return 0;
    return !(s->hand[(p + 2) % 4] & sm & above(63 - __builtin_clzll(f3)));
}

/* DDS's move ordering (its Moves.cpp weight functions), for four hands in
 * two partnerships taking tricks (bridge, 500 of four hands once the
 * jokers are out): a weight for each move by the hand's place in the
 * trick, whether trumps are left, and who holds the top cards of each suit.
 * It replaced this search's own ordering for those games: 61 % and 49 %
 * fewer nodes on 20 bridge deals (every card, seeds 1 and 2; no trumps
 * alone 63 % and 70 %), 41 % fewer on 200 500 deals.  Every weight
 * function helps: the leads alone gave 45 % / 14 % in no trumps, the third
 * hand alone 27 % / 43 %.  Cards are this search's; a card's "rank" is its
 * place in its suit (2 for the lowest card of the deck in the suit), and
 * the top three cards of a suit are those at the start of the trick (its
 * played cards included: DDS changes them only when a trick ends); the
 * view of a trick is DView (_dd.c). */
static inline int top_of(u64 h) { return h ? 63 - __builtin_clzll(h) : -1; }
static inline int dd_rank(const Game *g, int c) { return g->rank[c]; }
static inline int hlen(const State *s, int h, int x)
{
    int lb = (h * 5 + x) * 4;
    return (int)((s->lens[lb >> 6] >> (lb & 63)) & 15);
}

static void dview_init(const Game *g, const State *s, u64 live, DView *d)
{
    d->L = s->leader;
    d->lho = seat_after(g, d->L, 1);
    d->part = seat_after(g, d->L, 2);
    d->rho = seat_after(g, d->L, 3);
    d->have = 0;
    d->t = g->trump >= 0 && ((live | s->trickmask) & g->smask[g->trump]) ? g->trump : -1;
    if (d->t >= 0)
        for (int i = 0; i < 4; i++) {
            d->lt[i] = hlen(s, i, d->t);
            d->tt[i] = top_of(s->hand[i] & g->smask[d->t]);
        }
}

/* Suit x's top three cards at the start of the trick and who holds (or
 * played) each. */
static void dview_suit(const Game *g, const State *s, u64 live, DView *d, int x)
{
    if ((d->have >> x) & 1)
        return;
    d->have |= 1u << x;
    u64 all = (live | s->trickmask) & g->smask[x];
    for (int k = 0; k < 3; k++) {
        int c = top_of(all), h = -1;
        if (c >= 0) {
            all &= ~(1ULL << c);
            for (int i = 0; i < 4 && h < 0; i++)
                if ((s->hand[i] >> c) & 1)
                    h = i;
            for (int i = 0; i < s->ntrick && h < 0; i++)
                if (s->tcard[i] == c)
                    h = seat_after(g, d->L, i);
        }
        d->w[x][k] = c;
        d->h[x][k] = h;
    }
}

/* After the lead: p (as h1, h2) where p holds suit x's top (second) card
 * at the start of the trick, else -1; p's length of x in len[p]. */
static inline void own_tops(const Game *g, const State *s, int p, u64 live, int x, int *h1, int *h2, int *len)
{
    u64 at = (live | s->trickmask) & g->smask[x];
    int t1 = top_of(at), t2 = top_of(at & ~(1ULL << t1));
    *h1 = (s->hand[p] >> t1) & 1 ? p : -1;
    *h2 = t2 >= 0 && ((s->hand[p] >> t2) & 1) ? p : -1;
    len[p] = hlen(s, p, x);
}

/* DDS's RankForcesAce for the third hand: whether c is the move that
 * forces out the fourth hand's top card as cheaply as possible (the lowest
 * of our moves above the top of the fourth hand's second group of touching
 * cards), or else, when the second hand is winning, that beats it as
 * cheaply as possible. */
static int forces_ace(const Game *g, const State *s, int p, u64 live, u64 f4, int c)
{
    u64 lm = g->smask[s->led], lv = (live | s->trickmask) & lm;
    u64 mine = s->hand[p] & lm;
    int top4 = 63 - __builtin_clzll(f4);
    /* the fourth hand's second group: its highest card below a card of
     * someone else (or of this trick) under its top group */
    int sec = -1, gap = 0;
    for (u64 t = lv & ((1ULL << top4) - 1); t;) {
        int q = 63 - __builtin_clzll(t);
        t &= ~(1ULL << q);
        if (!((f4 >> q) & 1))
            gap = 1;
        else if (gap) {
            sec = q;
            break;
        }
    }
    if (sec < 0)
        return 0;
    int bestc = s->tcard[s->best], target;
    if (sec > bestc)
        target = sec;
    else if (s->best == 1)
        target = bestc;
    else
        return 0;
    u64 over = mine & above(target);
    if (!over)
        return 0;
    /* the move that stands for our lowest card above target: the top of its run */
    return c == run_top(g, lv, mine, ctz64(over));
}

/* DDS's relative rank of c (1: the top live card of its suit), and whether
 * c heads a sequence (the next lower card of the suit, live or of this
 * trick, is the mover's too): computed where a weight uses them. */
#define RRANK (pop64(live & sm & above(c)) + 1)
#define SEQ (dd_seq(s, p, live, sm, c))
static inline int dd_seq(const State *s, int p, u64 live, u64 sm, int c)
{
    u64 below = (live | s->trickmask) & sm & ((1ULL << c) - 1);
    return below && ((s->hand[p] >> (63 - __builtin_clzll(below))) & 1);
}

/* DDS's weight of card c for p when no trump is left (WeightAllocNT0,
 * NTNotvoid1, NTVoid1, NTNotvoid2, NTVoid2, CombinedNotvoid3, NTVoid3; its
 * third hand's unblocking bonus left out); `killer`: c is the killer lead. */
static int dds_nt_weight(const Game *g, const State *s, int p, u64 live, DView *v, int c, int killer)
{
    int L = v->L, lho = v->lho, part = v->part, rho = v->rho;
    int x = g->suit[c], r = dd_rank(g, c);
    u64 sm = g->smask[x];
    /* who holds the suit's top cards, and its lengths: for a lead every
     * hand, after it only this hand (which of the top two it holds) */
    int h1, h2, h3 = -1, w2 = -1, len[4];
    if (s->ntrick == 0) {
        dview_suit(g, s, live, v, x);
        w2 = v->w[x][1], h1 = v->h[x][0], h2 = v->h[x][1], h3 = v->h[x][2];
        for (int i = 0; i < 4; i++)
            len[i] = hlen(s, i, x);
    } else
        h1 = h2 = -1; /* own_tops below, for a discard */
    if (s->ntrick == 0) {
        int cl = len[lho], cr = len[rho];
        int countLH = (cl == 0 ? s->tricks_left : cl) << 2, countRH = (cr == 0 ? s->tricks_left : cr) << 2;
        int d = -(((countLH + countRH) << 5) / 19);
        if (len[part] == 0)
            d += -9;
        u64 pm = s->hand[part] & sm, om = (s->hand[lho] | s->hand[rho]) & sm;
        int wt;
        if (v->w[x][0] == c || top_of(pm) > top_of(om)) {
            if (h2 == rho) {
                if (cr != 1)
                    d += -1;
            } else if (h2 == lho) {
                d += cl != 1 ? 22 : 16;
            }
            if ((h2 != lho || cl == 1) && (h2 != rho || cr == 1))
                wt = d + 45 + RRANK;
            else
                wt = d + 18 + RRANK;
            if (killer)
                wt += 126;
        } else {
            if (h1 == rho || h2 == rho) {
                if (cr != 1)
                    d += -10;
            } else if (h1 == lho && h2 == part) {
                if (len[part] != 1)
                    d += 31;
            }
            if (h2 == part && h3 == part)
                d += 35;
            else if ((h2 == L && h3 == part && len[part] > 1) || (h2 == part && h3 == L && len[part] > 1))
                d += 25;
            if ((cl == 1 && h1 == lho) || (cr == 1 && h1 == rho))
                wt = d + 28 + RRANK;
            else if (h1 == L)
                wt = d - 17 + RRANK;
            else if (!SEQ)
                wt = d + 12 + RRANK;
            else if (c == w2)
                wt = d + 48;
            else
                wt = d + 29 - RRANK;
            if (killer)
                wt += 47;
        }
        return wt;
    }
    int led = s->led;
    u64 lm = g->smask[led];
    int leadc = s->tcard[0], leadr = dd_rank(g, leadc);
    int follow = x == led;
    if (s->ntrick == 1) {
        u64 f3 = s->hand[part] & lm, f4 = s->hand[rho] & lm;
        if (follow) {
            int max3 = f3 ? dd_rank(g, 63 - __builtin_clzll(f3)) : 0;
            int maxpd = f4 ? dd_rank(g, 63 - __builtin_clzll(f4)) : 0;
            if (maxpd > leadr && maxpd > max3)
                return -r;
            int min3 = f3 ? dd_rank(g, ctz64(f3)) : 0, minpd = f4 ? dd_rank(g, ctz64(f4)) : 0;
            int rr = pop64(live & lm & above(c)) + 1;
            if (r > leadr && r > max3)
                return 81 - r;
            if (min3 > r || minpd > r)
                return -3 + rr;
            if (r < leadr)
                return -11 + rr;
            if (SEQ)
                return 10 + rr;
            return 13 - r;
        }
        /* partner (fourth) can win: its top card beats the third hand's and the lead */
        int pw = f4 && (63 - __builtin_clzll(f4)) > (f3 ? 63 - __builtin_clzll(f3) : -1) && (63 - __builtin_clzll(f4)) > leadc;
        own_tops(g, s, p, live, x, &h1, &h2, len);
        int cnt = len[p];
        int add;
        if (pw) {
            add = (cnt << 6) / 23;
            if (cnt == 2 && h2 == p)
                add += -2;
            else if (cnt == 1 && h1 == p)
                add += -3;
        } else {
            add = (cnt << 6) / 33;
            if (cnt == 2 && h2 == p)
                add += -6;
            else if (cnt == 1 && h1 == p)
                add += -8;
        }
        return -r + add;
    }
    int bestc = s->tcard[s->best];
    if (s->ntrick == 2) {
        if (!follow) {
            own_tops(g, s, p, live, x, &h1, &h2, len);
            int cnt = len[p], add = (cnt << 6) / 24;
            if (cnt == 2 && h2 == p)
                add -= 4;
            else if (cnt == 1 && h1 == p)
                add -= 4;
            return -r + add;
        }
        u64 f4 = s->hand[rho] & lm;
        int max4 = f4 ? dd_rank(g, 63 - __builtin_clzll(f4)) : 0, min4 = f4 ? dd_rank(g, ctz64(f4)) : 0;
        u64 mine = s->hand[p] & lm;
        int max3 = dd_rank(g, 63 - __builtin_clzll(mine));
        int best1 = dd_rank(g, bestc);
        if (s->best == 0 && leadr > max4)
            return -r;
        if (max3 < min4 || max3 < best1)
            return -r;
        int wt = (r > best1 && r > max4) ? 60 - r : -r;
        if (max4 > max3 && max4 > best1 && forces_ace(g, s, p, live, f4, c))
            wt += 20;
        return wt;
    }
    /* fourth hand */
    if (!follow) {
        own_tops(g, s, p, live, x, &h1, &h2, len);
        int cnt = len[p], val = (cnt << 6) / 27;
        if (cnt == 2 && h2 == p)
            val -= 6;
        else if (cnt == 1 && h1 == p)
            val -= 8;
        return -r + val;
    }
    if (s->best == 1)
        return -r;
    return r > dd_rank(g, bestc) && g->suit[bestc] == led ? 30 - r : -r;
}

/* DDS's weights when trumps are left (WeightAllocTrump0, TrumpNotvoid1,
 * TrumpVoid1, TrumpNotvoid2, TrumpVoid2, CombinedNotvoid3, TrumpVoid3). */
static int dds_trump_weight(const Game *g, const State *s, int p, u64 live, DView *v, int c, int killer)
{
    int L = v->L, lho = v->lho, part = v->part, rho = v->rho;
    int t = v->t, x = g->suit[c], r = dd_rank(g, c);
    u64 sm = g->smask[x];
    const int *lt = v->lt, *tt = v->tt;
    int h1, h2, h3 = -1, w1 = -1, w2 = -1, len[4];
    if (s->ntrick == 0) {
        dview_suit(g, s, live, v, x);
        w1 = v->w[x][0], w2 = v->w[x][1], h1 = v->h[x][0], h2 = v->h[x][1], h3 = v->h[x][2];
        for (int i = 0; i < 4; i++)
            len[i] = hlen(s, i, x);
    } else
        h1 = h2 = -1; /* own_tops below, for a discard */
    if (s->ntrick == 0) {
        int cl = len[lho], cr = len[rho], cp = len[part];
        int countLH = (cl == 0 ? s->tricks_left : cl) << 2, countRH = (cr == 0 ? s->tricks_left : cr) << 2;
        int wd = -(((countLH + countRH) << 5) / 13), b = 0, win = 0;
        if (x != t && ((cl == 0 && lt[lho]) || (cr == 0 && lt[rho])))
            b = -12;
        if (x != t && cp == 0 && lt[part] > 0 && cr > 0)
            b += 17;
        if (h1 == rho || h2 == rho) {
            if (cr != 1)
                b += -12;
        } else if (h1 == lho && h2 == part) {
            if (cp != 1)
                b += 27;
        }
        if (x != t && len[L] == 1 && lt[L] > 0 && cp > 1 && h1 == part)
            b += 19;
        int d = b + wd;
        if (w1 == c) {
            if (x != t) {
                if (cp != 0 || lt[part] == 0) {
                    if ((cl != 0 || lt[lho] == 0) && (cr != 0 || lt[rho] == 0))
                        win = 1;
                } else if ((cl != 0 || tt[part] > tt[lho]) && (cr != 0 || tt[part] > tt[rho]))
                    win = 1;
            } else
                win = 1;
        } else if (top_of(s->hand[part] & sm) > top_of((s->hand[lho] | s->hand[rho]) & sm)) {
            if (x != t) {
                if ((cl != 0 || lt[lho] == 0) && (cr != 0 || lt[rho] == 0))
                    win = 1;
            } else
                win = 1;
        } else if (x != t) {
            if (cp == 0 && lt[part] != 0) {
                if (cl == 0 && lt[lho] && cr == 0 && lt[rho]) {
                    if (tt[part] > tt[lho] && tt[part] > tt[rho])
                        win = 1;
                } else if (cl == 0 && lt[lho]) {
                    if (tt[part] > tt[lho])
                        win = 1;
                } else if (cr == 0 && lt[rho]) {
                    if (tt[part] > tt[rho])
                        win = 1;
                } else
                    win = 1;
            }
        }
        int wt;
        if (win) {
            if ((cl == 1 && h1 == lho) || (cr == 1 && h1 == rho))
                wt = d + 35 + RRANK;
            else if (h1 == L)
                wt = h2 == part ? d + 48 + RRANK : w1 == c ? d + 31 : d - 3 + RRANK;
            else if (h1 == part)
                wt = h2 == L ? d + 42 + RRANK : d + 28 + RRANK;
            else if (SEQ && c == w2)
                wt = d + 40;
            else if (SEQ)
                wt = d + 22 + RRANK;
            else
                wt = d + 11 + RRANK;
            if (killer)
                wt += 55;
        } else {
            if (h2 == part && h3 == part)
                d += 20;
            else if ((h2 == L && h3 == part && cp > 1) || (h2 == part && h3 == L && cp > 1))
                d += 13;
            if ((cl == 1 && h1 == lho) || (cr == 1 && h1 == rho))
                wt = d + RRANK + 2;
            else if (h1 == L)
                wt = h2 == part ? d + 33 + RRANK : w1 == c ? d + 38 : d - 14 + RRANK;
            else if (h1 == part)
                wt = d + 34 + RRANK;
            else if (SEQ && c == w2)
                wt = d + 35;
            else
                wt = d + 17 - r;
            if (killer)
                wt += 18;
        }
        return wt;
    }
    int led = s->led;
    u64 lm = g->smask[led];
    int leadc = s->tcard[0], leadr = dd_rank(g, leadc);
    int bestc = s->tcard[s->best], bestr = dd_rank(g, bestc);
    int ruffed = led != t && g->suit[bestc] == t; /* the winning card so far is a ruff */
    int follow = x == led;
    if (s->ntrick == 1) {
        u64 f3 = s->hand[part] & lm, f4 = s->hand[rho] & lm;
        int max3 = f3 ? dd_rank(g, top_of(f3)) : 0, maxpd = f4 ? dd_rank(g, top_of(f4)) : 0;
        if (follow) {
            int min3 = f3 ? dd_rank(g, ctz64(f3)) : 0, minpd = f4 ? dd_rank(g, ctz64(f4)) : 0;
            int win = 0;
            if (led == t)
                win = (maxpd > leadr && maxpd > max3) || (r > leadr && r > max3);
            else if (r > leadr && r > max3) {
                if (max3 != 0 || lt[part] == 0)
                    win = 1;
                else if (maxpd == 0 && lt[rho] != 0 && tt[rho] > tt[part])
                    win = 1;
            } else if (maxpd > leadr && maxpd > max3) {
                if (max3 != 0 || lt[part] == 0)
                    win = 1;
            } else if (leadr > maxpd && leadr > max3 && leadr > r) {
                if (maxpd == 0 && lt[rho] != 0) {
                    if (max3 != 0 || lt[part] == 0)
                        win = 1;
                    else if (tt[rho] > tt[part])
                        win = 1;
                }
            } else if (maxpd == 0 && lt[rho] != 0)
                win = 1;
            if (win) {
                if (min3 > r)
                    return 40 + RRANK;
                if (maxpd > leadr && top_of(s->hand[L] & lm) > top_of(f4))
                    return 41 + RRANK;
                if (r > leadr) {
                    if (r < maxpd)
                        return 78 - r;
                    if (r > max3)
                        return 73 - r;
                    return SEQ ? 62 - r : 49 - r;
                }
                return maxpd > 0 ? 47 - r : 40 - r;
            }
            if (r < min3 || r < minpd)
                return -9 + RRANK;
            if (r < leadr)
                return -16 + RRANK;
            return SEQ ? 22 - r : 10 - r;
        }
        own_tops(g, s, p, live, x, &h1, &h2, len);
        int cnt = len[p], add;
        int pw = top_of(f4) > (top_of(f3) > leadc ? top_of(f3) : leadc);
        if (led == t) {
            if (pw)
                add = (cnt << 6) / 44;
            else {
                add = (cnt << 6) / 36;
                if (cnt == 2 && h2 == p)
                    add += -4;
            }
            return -r + add;
        }
        if (x != t) {
            int good;
            if (f3)
                good = pw || (!f4 && lt[rho] != 0);
            else if (!f4 && tt[rho] > tt[part])
                good = 1;
            else
                good = lt[part] == 0 && top_of(f4) > leadc;
            if (good)
                add = 60 + (cnt << 6) / 44;
            else {
                add = -2 + (cnt << 6) / 36;
                if (cnt == 2 && h2 == p)
                    add += -4;
            }
            return -r + add;
        }
        if (f3 || (!f4 && lt[rho] != 0 && tt[rho] > tt[part]))
            return 24 - r + (cnt << 6) / 44;
        if (c > tt[part])
            return 24 - r + (cnt << 6) / 44;
        add = (cnt << 6) / 36;
        if (cnt == 2 && h2 == p)
            add += -4;
        return 15 - r + add;
    }
    if (s->ntrick == 2) {
        u64 f4 = s->hand[rho] & lm;
        int max4 = f4 ? dd_rank(g, top_of(f4)) : 0;
        if (!follow) {
            own_tops(g, s, p, live, x, &h1, &h2, len);
            int cnt = len[p];
            if (led == t || x != t)
                return -r + (cnt << 6) / 40;
            if (s->best == 0 && leadr > max4 && (max4 != 0 || lt[rho] == 0))
                return -r - 50;
            if (ruffed && r < bestr)
                return -32 + RRANK + (cnt << 6) / 40;
            int add = (cnt << 6) / 50;
            if (s->best == 0) {
                if (max4 != 0) {
                    /* the second best of the led suit at the start of the trick */
                    /* the leader held the led suit's second card */
                    u64 la = (live | s->trickmask) & lm;
                    int sec = top_of(la & ~(1ULL << top_of(la)));
                    int lh2 = sec == leadc || (sec >= 0 && ((s->hand[L] >> sec) & 1));
                    return (lh2 ? 36 : 48) - r + add;
                }
                return (c > tt[rho] ? 48 : -12) - r + add;
            }
            if (max4 != 0)
                return 72 - r + add;
            return (c > tt[rho] ? 48 : 36) - r + add;
        }
        int min4 = f4 ? dd_rank(g, ctz64(f4)) : 0;
        int max3 = dd_rank(g, top_of(s->hand[p] & lm));
        if (led == t) {
            if (s->best == 0 && leadr > max4)
                return -r;
            if (max3 < min4 || max3 < bestr)
                return -r;
            if (max3 > max4)
                return r > max4 && r > bestr ? 58 - r : -r;
            return -r + (forces_ace(g, s, p, live, f4, c) ? 20 : 0);
        }
        if (ruffed)
            return -r;
        if (s->best == 0) {
            if (max4 == 0 || leadr > max4)
                return -r;
            if (max3 < min4 || max3 < bestr)
                return -r;
            if (max3 > max4)
                return r > max4 ? 58 - r : -r;
            return (r > bestr && r > max4 ? 60 - r : -r) + (forces_ace(g, s, p, live, f4, c) ? 20 : 0);
        }
        if (max4 == 0)
            return r > bestr ? 20 - r : -r;
        if (max3 < min4 || max3 < bestr)
            return -r;
        if (max3 > max4)
            return r > bestr && r > max4 ? 58 - r : -r;
        return (r > bestr && r > max4 ? 60 - r : -r) + (forces_ace(g, s, p, live, f4, c) ? 20 : 0);
    }
    /* fourth hand */
    if (follow) {
        if (s->best == 1 || ruffed)
            return -r;
        return r > bestr ? 30 - r : -r;
    }
    own_tops(g, s, p, live, x, &h1, &h2, len);
    int mylen = len[p], val = (mylen << 6) / 24;
    if (mylen == 2 && h2 == p)
        val -= 2;
    if (led == t)
        return -r + val;
    if (s->best == 1)
        return x == t ? 2 - r + val : 25 - r + val;
    if (ruffed) {
        if (x == t)
            return r > bestr ? 33 + RRANK : -13 + RRANK;
        return 14 - r + val;
    }
    return x == t ? 33 + RRANK : 14 - r + val;
}

#undef RRANK
#undef SEQ

/* Whether DDS's weights order the moves: four hands in two partnerships
 * taking tricks, no joker left. */
static inline int dds_order(const Game *g, u64 live)
{
    return g->n == 4 && !g->points && !g->misere && !(live & g->smask[4]) && g->decl[0] == g->decl[2] &&
           g->decl[1] == g->decl[3] && g->decl[0] != g->decl[1];
}

static void order_moves(const Game *g, const State *s, int p, u64 live, int *mv, int m)
{
    int score[64];
    if (m < 2)
        return;
    if (dds_order(g, live)) {
        DView v;
        dview_init(g, s, live, &v);
        for (int i = 0; i < m; i++) {
            int c = mv[i] & 255;
            /* the killer lead: DDS's bonus for its "best move" of the
             * depth, whoever leads (3 % and 6 % fewer bridge nodes than
             * one killer per leader, 1 % in 500) */
            int kl = s->ntrick == 0 && g->sv->killer[s->tricks_left][0] == c + 1;
            int sc = 1000 + (v.t >= 0 ? dds_trump_weight(g, s, p, live, &v, c, kl) : dds_nt_weight(g, s, p, live, &v, c, kl));
            int h = g->sv->history[p][c]; /* ties (as a tie-break only: 0 to -1 %) */
            score[i] = HIST_MIX;
        }
        goto sort;
    }
    u64 opp = 0, mate = 0;
    int side = g->decl[p];
    for (int j = 0; j < g->n; j++) {
        if (g->decl[j] != side)
            opp |= s->hand[j];
        else if (j != p)
            mate |= s->hand[j];
    }
    for (int i = 0; i < m; i++) {
        int c = mv[i] & 255;
        int sc;
        if (s->ntrick == 0) {
            int x = g->suit[c];
            u64 suitlive = live & g->smask[x];
            int top = 63 - __builtin_clzll(suitlive);
            int rank = pop64(suitlive & above(c)); /* live cards above c */
            /* an opponent void in the suit could ruff it (with a trump, or
             * in 500 no trumps the high joker) */
            int ruffable = 0;
            u64 rm = boss_mask(g);
            if (x != g->trump && x < 4 && rm)
                for (int j = 0; j < g->n; j++)
                    if (g->decl[j] != side && !(s->hand[j] & g->smask[x]) && (s->hand[j] & rm))
                        ruffable = 1;
            /* tricks (not misère): our side's length in the suit, the
             * suits to run or set up first (7-11 % fewer no-trump nodes
             * in total on five seeds; suit deals' medians -13 to +0.4 %) */
            int len = !g->points && !g->misere ? pop64((s->hand[p] | mate) & g->smask[x]) : 0;
            if (x == 4)
                sc = 120; /* the 500 joker: after cashing and partner's tops */
            else if (c == top)
                /* a top card an opponent may ruff: after the low leads in
                 * suit deals (-6 % total nodes, every one of five seeds) */
                sc = (ruffable ? (g->trump >= 0 ? 40 : 90) : 200) + g->pts[c] + 4 * len;
            else if ((mate >> top) & 1)
                sc = 150 + rank + g->pts[c] + 4 * len - (ruffable ? 60 : 0);
            else {
                /* low; toward partner's second-best card first (suit
                 * deals -5 % total nodes, every one of five seeds) */
                u64 rest = suitlive & ~(1ULL << top);
                int toward = rest && ((mate >> (63 - __builtin_clzll(rest))) & 1);
                sc = 50 + rank - g->pts[c] - (ruffable ? 30 : 0) + 8 * len + (toward ? 20 : 0);
            }
        } else {
            int bestpos = seat_after(g, s->leader, s->best);
            int partner = g->decl[bestpos] == g->decl[p];
            int k = card_key(g, c, s->led);
            int last = s->ntrick == g->n - 1;
            if (partner) {
                sc = g->points ? 100 + 4 * g->pts[c] - (c & 63) / 4 : 100 - c;
                if (k > s->bkey && !last)
                    sc -= 50;
                if (!g->points && s->ntrick == 2 && g->n == 4 && g->suit[c] == s->led) {
                    /* third hand high: partner's card would be beaten by
                     * the fourth hand, this one would not (its cheapest
                     * such card first; -10 % suit and -13 % no-trump
                     * median nodes, mean over five seeds) */
                    u64 f4 = s->hand[(p + 1) % 4] & g->smask[s->led];
                    if (f4 && card_key(g, 63 - __builtin_clzll(f4), s->led) > s->bkey && !(f4 & above(c)))
                        sc = 1000 - k;
                }
            } else if (k > s->bkey) {
                /* a winner: for tricks the cheapest; for card points the
                 * cheapest last, else the highest */
                if (s->ntrick == 1 && g->n == 4 && second_overtaken(g, s, p, c))
                    sc = g->points ? 90 - 4 * g->pts[c] - (c & 63) / 4 : 90 - c; /* after the low cards */
                else if (g->points)
                    sc = last ? 1000 - k : 700 + k / 8;
                else if (s->ntrick == 2 && g->n == 4 && g->suit[c] == s->led &&
                         (s->hand[(p + 1) % 4] & g->smask[s->led] & above(c)))
                    sc = 900 - k; /* the fourth hand would beat it: after the winners it would not (-3 % nodes) */
                else
                    sc = 1000 - k;
            } else if (!g->points && g->suit[c] != s->led) {
                /* a discard: from the suit we hold most of, not a trump,
                 * not a suit's top card, its lowest card first */
                int x = g->suit[c];
                sc = 60 + 4 * pop64(s->hand[p] & g->smask[x]) - pop64(live & g->smask[x] & ~above(c) & ~(1ULL << c)) / 2;
                if (x == g->trump)
                    sc -= 40;
                if (!(live & g->smask[x] & above(c)))
                    sc -= 30;
            } else {
                sc = g->points ? 100 - 4 * g->pts[c] - (c & 63) / 4 : 100 - c;
            }
        }
        int h = g->sv->history[p][c];
        score[i] = HIST_MIX;
        /* the killer lead: in trick games a bonus on its score (the lead
         * scores' classes are 50-200 apart), not first whatever the
         * position: 1-2 % fewer nodes than first in bridge and 500 on five
         * sets of deals; first for card points (+2 % coinche nodes else) */
        if (s->ntrick == 0 && g->sv->killer[s->tricks_left][p] == c + 1) {
            if (g->points)
                score[i] = 1 << 30;
            else
                score[i] += 150 * 4096;
        }
    }
sort:
    for (int i = 1; i < m; i++) {
        int v = mv[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) {
            mv[j + 1] = mv[j];
            score[j + 1] = score[j];
            j--;
        }
        mv[j + 1] = v;
        score[j + 1] = sc;
    }
}

static inline u64 mix(u64 x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static inline u64 live_of(const Game *g, const State *s)
{
    u64 live = 0;
    for (int i = 0; i < g->n; i++)
        live |= s->hand[i];
    return live;
}

/* The card-point key (coinche): every hand in relative ranks, and the
 * points of the live cards in rank order (4-bit classes) in the two spare
 * words, so positions that differ only in which equal-point cards were
 * played share an entry.  Only for at most 4 hands and 32 live cards. */
static void points_key(const Game *g, const State *s, u64 live, u64 *rk)
{
    for (int i = 0; i < MAXN; i++)
        rk[i] = i < g->n ? PEXT(s->hand[i], live) : 0;
    rk[4] = PEXT(g->pcbit[0], live) | PEXT(g->pcbit[1], live) << 32;
    rk[5] = PEXT(g->pcbit[2], live) | PEXT(g->pcbit[3], live) << 32;
}

/* Suit lengths of every hand (4 bits each; kept up to date by apply_move)
 * and the leader/void metadata. */
static void tt_shape(const Game *g, const State *s, u64 *lens, u64 *meta)
{
    lens[0] = s->lens[0];
    lens[1] = s->lens[1];
    u64 m = (u64)s->leader;
    if (g->restrict_)
        for (int i = 0; i < g->n; i++)
            m |= (u64)(s->shown[i] & 15) << (4 + 4 * i);
    *meta = m;
}

/* The relative-rank mask (over the live cards) of every live card ranked at
 * or above the lowest relevant card of its suit. */
static u64 spec_of(const Game *g, u64 live, u64 rel)
{
    u64 abs_ = 0;
    for (int x = 0; x < 5; x++) {
        u64 r = rel & g->smask[x] & live;
        if (r) {
            int low = ctz64(r);
            abs_ |= live & g->smask[x] & ~((1ULL << low) - 1);
        }
    }
    return PEXT(abs_, live);
}

/* The sum of the `k` lowest card points in a hand. */
static int cheapest_points(const Game *g, u64 hand, int k)
{
    int total = 0;
    for (int v = 0; v < g->nval && k > 0; v++) {
        int have = pop64(hand & g->vmask[v]);
        int take = have < k ? have : k;
        total += take * g->val[v];
        k -= take;
    }
    return total;
}

/* A lower bound on the tricks the side on lead can win at once, if it
 * wants them: the leader cashes the top live cards of a suit from the top.
 * Counted only when nobody else can win or take over those tricks: no
 * opponent may ruff (an opponent with trumps only while it follows), every
 * partner of the leader either holds no trump or follows to every round,
 * and nobody else holds a no-trump joker.  When no opponent can ruff and
 * they run out of the suit, the leader's small cards of it win too.
 * `rel` gets the cards whose rank the count used. */
static int quick_tricks(const Game *g, const State *s, u64 *rel, int *qpts, int skipboss)
{
    int n = g->n;
    int leader = s->leader;
    int side = g->decl[leader];
    u64 lh = s->hand[leader];
    u64 others = 0, opp = 0;
    for (int i = 0; i < n; i++) {
        if (i == leader)
            continue;
        others |= s->hand[i];
        if (g->decl[i] != side)
            opp |= s->hand[i];
    }
    u64 tm = g->trump >= 0 ? g->smask[g->trump] : 0;
    u64 jm = g->smask[4]; /* 500 no-trump jokers */
    if (jm) {
        /* a high joker is played only when void in the led suit (or led):
         * to the cashing it is a one-card trump suit */
        if (!g->joker_high && (others & jm))
            return 0;
        tm = jm;
    }
    int qt = 0, qp = 0;
    for (int x = 0; x < 4; x++) {
        u64 sm = g->smask[x];
        if (!(lh & sm) || (skipboss && x == g->trump))
            continue;
        u64 live = (lh | others) & sm;
        int cnt = 0;
        u64 used = 0;
        while (live) {
            int top = 63 - __builtin_clzll(live);
            if (!((lh >> top) & 1))
                break;
            cnt++;
            used |= 1ULL << top;
            live &= ~(1ULL << top);
        }
        if (cnt == 0)
            continue;
        int maxlen = 0;
        for (int i = 0; i < n; i++)
            if (g->decl[i] != side) {
                int l = pop64(s->hand[i] & sm);
                if (l > maxlen)
                    maxlen = l;
            }
        if (x != g->trump && (opp & tm)) {
            for (int i = 0; i < n; i++)
                if (g->decl[i] != side && (s->hand[i] & tm)) {
                    int l = pop64(s->hand[i] & sm);
                    if (l < cnt)
                        cnt = l;
                }
        } else if (cnt >= maxlen) {
            /* the small cards win too, unless a partner could overtake
             * one of them and take the lead away */
            u64 mates = 0;
            for (int i = 0; i < n; i++)
                if (i != leader && g->decl[i] == side)
                    mates |= s->hand[i];
            if (!(mates & sm))
                cnt = pop64(lh & sm);
        }
        if (cnt == 0)
            continue;
        if (x != g->trump && tm) {
            int ok = 1;
            for (int i = 0; i < n; i++)
                if (i != leader && g->decl[i] == side && (s->hand[i] & tm) && pop64(s->hand[i] & sm) < cnt)
                    ok = 0;
            if (!ok)
                continue;
        }
        *rel |= used;
        qt += cnt;
        /* the points of the cards cashed: the top `cnt` of the leader's */
        u64 mine = lh & sm;
        for (int k = 0; k < cnt && mine; k++) {
            int top = 63 - __builtin_clzll(mine);
            qp += g->pts[top];
            mine &= ~(1ULL << top);
        }
    }
    if (jm && g->joker_high && (lh & jm) && !skipboss) {
        /* the leader's joker, if no higher one is out, wins when led */
        int top = 63 - __builtin_clzll((lh | others) & jm);
        if ((lh >> top) & 1) {
            *rel |= 1ULL << top;
            qt++;
            qp += g->pts[top];
        }
    }
    if (qt > s->tricks_left)
        qt = s->tricks_left;
    if (g->points && qt > 0) {
        /* every other hand plays a card of its own to each cashed trick: at
         * least its `qt` cheapest cards' points; the last trick's bonus too */
        for (int i = 0; i < n; i++)
            if (i != leader)
                qp += cheapest_points(g, s->hand[i], qt);
        if (qt == s->tricks_left)
            qp += g->dix;
    }
    *qpts = qp;
    return qt;
}

/* Quick tricks through a partner's entry: the leader leads a small card of
 * a suit whose top live card a partner holds (every opponent follows to it,
 * or, void, can only throw a card: for tricks, when it holds nothing that
 * beats the suit), the partner wins and cashes its own quick tricks.  A
 * lower bound on the side's tricks (and the cashed points) counted in the
 * position after that trick, with each following opponent's lowest card of
 * the suit gone (the worst case for the partner's later tricks) and a void
 * one's cards all kept. */
static int cross_tricks(const Game *g, const State *s, u64 *rel, int *qpts)
{
    int n = g->n;
    int leader = s->leader;
    int side = g->decl[leader];
    u64 lh = s->hand[leader];
    int best = 0, bestp = 0;
    u64 bestrel = 0;
    if (s->tricks_left < 2)
        return 0;
    for (int x = 0; x < 4; x++) {
        u64 sm = g->smask[x];
        if (!(lh & sm))
            continue;
        u64 live = 0;
        for (int i = 0; i < n; i++)
            live |= s->hand[i] & sm;
        int top = 63 - __builtin_clzll(live);
        int p = -1;
        for (int i = 0; i < n; i++)
            if (i != leader && ((s->hand[i] >> top) & 1))
                p = i;
        if (p < 0 || g->decl[p] != side)
            continue;
        /* an opponent void in the suit may only discard: not for card
         * points (its discard's points), nor when it holds a card that
         * beats the suit (a trump, a 500 no-trump high joker) */
        u64 bm = boss_mask(g);
        int ok = 1;
        for (int i = 0; i < n && ok; i++)
            if (g->decl[i] != side && !(s->hand[i] & sm) && (g->points || (s->hand[i] & bm)))
                ok = 0;
        if (!ok)
            continue;
        State c = *s;
        int low = ctz64(lh & sm);
        c.hand[leader] &= ~(1ULL << low);
        c.hand[p] &= ~(1ULL << top);
        int tp = g->pts[low] + g->pts[top];
        for (int i = 0; i < n; i++) {
            if (i == leader || i == p)
                continue;
            /* other hands follow with their lowest card of the suit (a
             * partner too: it has one, or it is an opponent) */
            u64 h = c.hand[i] & sm;
            if (h) {
                int q = ctz64(h);
                c.hand[i] &= ~(1ULL << q);
                tp += g->pts[q];
            } else if (g->decl[i] == side) {
                ok = 0; /* a void partner: it could ruff or overtake; skip */
            }
            /* a void opponent keeps its cards here: whichever it throws,
             * the partner's quick tricks below are at least those counted
             * with it still held (an opponent's card never adds to them) */
        }
        if (!ok)
            continue;
        c.leader = p;
        c.tricks_left--;
        u64 r = 0;
        int qp = 0;
        int qt = quick_tricks(g, &c, &r, &qp, 0);
        if (1 + qt > best) {
            best = 1 + qt;
            bestp = tp + qp;
            bestrel = r | (1ULL << top);
        }
    }
    if (best > 0) {
        *rel |= bestrel;
        *qpts = bestp;
    }
    return best;
}

/* The side on lead's quick tricks outside the boss suit (trumps, or the
 * high jokers of a 500 no-trump deal) plus the boss cards of one of its
 * hands that are above every opposing one: the cashed tricks are won by
 * side-suit cards while every opponent and every partner holding boss
 * cards follows suit (quick_tricks' conditions), so those master cards are
 * all still there and each wins a trick of its own later. */
static int quick_plus_masters(const Game *g, const State *s, u64 *rel, int *qpts)
{
    u64 bm = boss_mask(g);
    if (!bm)
        return 0;
    int side = g->decl[s->leader];
    u64 ob = 0;
    for (int i = 0; i < g->n; i++)
        if (g->decl[i] != side)
            ob |= s->hand[i] & bm;
    u64 over = ob ? above(63 - __builtin_clzll(ob)) : ~0ULL;
    u64 topo = ob ? 1ULL << (63 - __builtin_clzll(ob)) : 0;
    int best = -1, bestp = 0;
    u64 brel = 0;
    for (int i = 0; i < g->n; i++) {
        if (g->decl[i] != side)
            continue;
        u64 mine = s->hand[i] & bm & over;
        if (!mine)
            continue;
        int c = pop64(mine), pts = 0;
        for (u64 t = mine; t; t &= t - 1)
            pts += g->pts[ctz64(t)];
        if (g->points ? pts > bestp : c > best) {
            best = c;
            bestp = pts;
            brel = topo | (1ULL << ctz64(mine));
        }
    }
    if (best <= 0)
        return 0;
    u64 r = 0;
    int qp = 0;
    int qt = quick_tricks(g, s, &r, &qp, 1);
    if (qt == 0)
        return 0; /* the masters alone: master_bound counts them */
    int t = qt + best;
    if (t > s->tricks_left)
        t = s->tricks_left;
    *rel |= r | brel;
    *qpts = qp + bestp;
    return t;
}

/* Two more lower bounds of the quick-trick kind for the side on lead
 * (quick_plus_masters, cross_tricks), costlier than quick_tricks, so search
 * computes them only once the cheap bounds and the table have not decided:
 * the better one, if above `q` (quick_tricks' count, or points), narrows lo
 * (the declaring side on lead) or hi.  Not tried once a count already
 * decides the window. */
static void more_quick(const Game *g, const State *s, int alpha, int beta, int q, int *lo, int *hi, u64 *rel_lo,
                       u64 *rel_hi)
{
    static int (*const more[])(const Game *, const State *, u64 *, int *) = {quick_plus_masters, cross_tricks};
    int full = g->points ? s->rem_pts : s->tricks_left;
    int need = g->decl[s->leader] ? beta : full - alpha;
    int best = q;
    u64 brel = 0;
    for (int b = 0; b < 2 && best < need; b++) {
        u64 mrel = 0;
        int mp = 0;
        int mt = more[b](g, s, &mrel, &mp);
        int val = g->points ? mp : mt;
        if (val > best) {
            best = val;
            brel = mrel;
        }
    }
    if (best == q)
        return;
    if (g->decl[s->leader]) {
        if (best > *lo) {
            *lo = best;
            *rel_lo = brel;
        }
    } else if (full - best < *hi) {
        *hi = full - best;
        *rel_hi = brel;
    }
}

/* Tricks each side must win whatever happens: a hand's trumps (or, in a
 * 500 no-trump deal, jokers) above every such card of the other side each
 * win a trick, one per trick.  Narrows lo/hi (declaring side's future). */
static void master_bound(const Game *g, const State *s, int *lo, int *hi, u64 *rel_lo, u64 *rel_hi)
{
    int full = g->points ? s->rem_pts : s->tricks_left;
    int boss = g->trump >= 0 ? g->trump : (g->joker_high ? 4 : -1);
    if (boss < 0)
        return;
    u64 sm = g->smask[boss];
    u64 bside[2] = {0, 0};
    for (int i = 0; i < g->n; i++)
        bside[g->decl[i]] |= s->hand[i] & sm;
    for (int side = 0; side < 2; side++) {
        u64 other = bside[1 - side];
        u64 over = other ? above(63 - __builtin_clzll(other)) : ~0ULL;
        u64 topo = other ? 1ULL << (63 - __builtin_clzll(other)) : 0;
        int m = 0;
        u64 mrel = 0;
        for (int i = 0; i < g->n; i++)
            if (g->decl[i] == side) {
                u64 mine = s->hand[i] & over & sm;
                int c = pop64(mine);
                if (g->points) {
                    /* card points: each master trump brings at least itself
                     * and a card of every other hand */
                    int k = c;
                    c = 0;
                    for (u64 t = mine; t; t &= t - 1)
                        c += g->pts[ctz64(t)];
                    for (int j = 0; j < g->n; j++)
                        if (j != i)
                            c += cheapest_points(g, s->hand[j], k);
                }
                if (c > m) {
                    m = c;
                    mrel = topo | (mine ? 1ULL << ctz64(mine) : 0);
                }
            }
        if (side == 1) {
            if (m > *lo) {
                *lo = m;
                *rel_lo = mrel;
            }
        } else if (full - m < *hi) {
            *hi = full - m;
            *rel_hi = mrel;
        }
    }
}

/* The side on lead loses the current trick if the other side wants it:
 * whatever suit the leader leads, an opponent holds its top live card (and,
 * for a side suit, no partner of the leader could ruff instead; no jokers
 * on the leader's side).  `rel` gets the top cards it looked at. */
static int must_lose_trick(const Game *g, const State *s, u64 *rel)
{
    int leader = s->leader;
    int side = g->decl[leader];
    u64 lh = s->hand[leader], live = 0, opp = 0;
    for (int i = 0; i < g->n; i++) {
        live |= s->hand[i];
        if (g->decl[i] != side)
            opp |= s->hand[i];
        else if (s->hand[i] & g->smask[4])
            return 0;
    }
    u64 tm = g->trump >= 0 ? g->smask[g->trump] : 0;
    u64 r = 0;
    for (int x = 0; x < 4; x++) {
        u64 sm = g->smask[x];
        if (!(lh & sm))
            continue;
        int top = 63 - __builtin_clzll(live & sm);
        if (!((opp >> top) & 1))
            return 0;
        r |= 1ULL << top;
        if (x != g->trump && tm)
            for (int i = 0; i < g->n; i++)
                if (i != leader && g->decl[i] == side && !(s->hand[i] & sm) && (s->hand[i] & tm))
                    return 0;
    }
    *rel |= r;
    return 1;
}

/* DDS's later-trick bounds (LaterTricksMIN/MAX), for four hands in two
 * partnerships: an upper bound on the tricks the side on lead can still
 * win, when the other side wants tricks; -1 if none applies.  `rel` gets
 * the cards whose rank it used.
 *   - No trumps (or none left): every trick is led by the winner, so to
 *     win them all the side on lead must win every trick in suits it
 *     controls (holds the top card of); there are at most max(len of its
 *     two hands) rounds of each: if those add up to fewer than the tricks
 *     left, it loses one.  Only the other side's top cards matter (a top
 *     card of our side's suit moving to them lowers the sum).  A 500 joker
 *     of theirs is master_bound's; our single joker adds its own trick, and
 *     a suit whose cards above ours the joker (or a lead to it) would fell
 *     (each a singleton in its hand) counts as ours.
 *   - Trumps, the top one theirs: each of their longer hand's trumps wins a
 *     trick if we have none; else their top trump wins one, and their top
 *     two win two if one of their hands holds two trumps.
 *   - Trumps, the top one ours: their second-best trump (in a hand with
 *     two) wins a trick when it sits over our top one or they also hold the
 *     third. */
static int later_tricks(const Game *g, const State *s, u64 live, u64 *rel)
{
    if (g->n != 4 || g->points)
        return -1;
    int L = s->leader, side = g->decl[L], o1 = (L + 1) % 4, o2 = (L + 3) % 4, mate = (L + 2) % 4;
    if (g->decl[mate] != side || g->decl[o1] == side || g->decl[o2] == side)
        return -1;
    if (g->maxi[o1] != g->decl[o1])
        return -1; /* they do not want tricks (misère) */
    int tl = s->tricks_left;
    u64 ours = s->hand[L] | s->hand[mate];
    u64 tm = g->trump >= 0 ? g->smask[g->trump] & live : 0;
    if (!tm) {
        u64 jl = live & g->smask[4];
        /* a 500 joker: theirs is master_bound's; ours wins one trick, and
         * led it may fell their top cards of the nominated suit */
        if (jl && ((jl & ~ours) || (jl & (jl - 1))))
            return -1;
        int sum = jl ? 1 : 0;
        u64 r = 0;
        for (int x = 0; x < 4; x++) {
            u64 sl = live & g->smask[x];
            if (!sl)
                continue;
            int top = 63 - __builtin_clzll(sl);
            int a = pop64(s->hand[L] & g->smask[x]), b = pop64(s->hand[mate] & g->smask[x]);
            if ((ours >> top) & 1) {
                sum += a > b ? a : b;
            } else if (sl & ~(1ULL << top)) {
                r |= 1ULL << top;
                u64 ox = ours & sl;
                if (jl && ox) {
                    /* the joker led, nominating x, drops every card of
                     * theirs above our best x card only if each is a
                     * singleton x in its hand: then count x as ours */
                    u64 over = sl & above(63 - __builtin_clzll(ox));
                    int forced = 1;
                    for (int h = 0; h < 2; h++) {
                        u64 hx = s->hand[h ? o2 : o1] & g->smask[x];
                        if ((hx & over) && (hx & (hx - 1)))
                            forced = 0;
                    }
                    r |= over | (1ULL << (63 - __builtin_clzll(ox)));
                    if (forced)
                        sum += a > b ? a : b;
                }
            }
        }
        if (sum > 0 && sum < tl) {
            *rel |= r;
            return tl - 1;
        }
        return -1;
    }
    u64 tt = tm;
    int t1 = 63 - __builtin_clzll(tt);
    tt &= ~(1ULL << t1);
    int t2 = tt ? 63 - __builtin_clzll(tt) : -1;
    if (t2 >= 0)
        tt &= ~(1ULL << t2);
    int t3 = tt ? 63 - __builtin_clzll(tt) : -1;
    int h1 = -1, h2 = -1, h3 = -1;
    for (int i = 0; i < 4; i++) {
        if ((s->hand[i] >> t1) & 1)
            h1 = i;
        if (t2 >= 0 && ((s->hand[i] >> t2) & 1))
            h2 = i;
        if (t3 >= 0 && ((s->hand[i] >> t3) & 1))
            h3 = i;
    }
    if (g->decl[h1] != side) {
        if (!(ours & tm)) {
            int a = pop64(s->hand[o1] & tm), b = pop64(s->hand[o2] & tm);
            return tl - (a > b ? a : b);
        }
        if (h2 >= 0 && g->decl[h2] != side &&
            (pop64(s->hand[h2] & tm) > 1 || pop64(s->hand[(h2 + 2) % 4] & tm) > 1)) {
            *rel |= 1ULL << t2;
            return tl - 2;
        }
        *rel |= 1ULL << t1;
        return tl - 1;
    }
    if (h2 < 0 || g->decl[h2] == side || pop64(s->hand[h2] & tm) <= 1)
        return -1;
    if (h1 == (h2 + 3) % 4) {
        *rel |= 1ULL << t2;
        return tl - 1;
    }
    if (h3 >= 0 && g->decl[h3] != side) {
        *rel |= 1ULL << t3;
        return tl - 1;
    }
    return -1;
}

/* Look the position up: the tightest bounds of the matching entries (and
 * the relevant cards of each), and the best-move hint of one of them. */
static Entry *tt_probe(const Game *g, const u64 *rk, u64 live, const u64 *lens, u64 meta, Entry *bucket,
                       const uint32_t *tags, uint32_t tag, int *lo, int *hi, u64 *rel_lo, u64 *rel_hi)
{
    Entry *hint = NULL;
    for (int w = 0; w < TT_WAYS; w++) {
        if (tags[w] != tag)
            continue;
        Entry *e = &bucket[w];
        if (e->gen != g->sv->tt_gen || e->meta != meta || e->lens[0] != lens[0] || e->lens[1] != lens[1])
            continue;
        int ok = 1;
        for (int i = 0; i < MAXN && ok; i++)
            if ((rk[i] & e->spec) != e->k[i])
                ok = 0;
        if (!ok)
            continue;
        u64 r = g->points ? 0 : PDEP(e->spec, live);
        if (e->lo > *lo) {
            *lo = e->lo;
            *rel_lo = r;
        }
        if (e->hi < *hi) {
            *hi = e->hi;
            *rel_hi = r;
        }
        if (e->mrank != 255)
            hint = e;
    }
    return hint;
}

static void tt_store(const Game *g, const u64 *rk, u64 live, const u64 *lens, u64 meta, Entry *bucket,
                     uint32_t *tags, uint32_t tag, u64 rel, int lo, int hi, int bestmove)
{
#ifdef NO_PART
    u64 spec = g->points ? ~0ULL : PEXT(live, live);
#else
    u64 spec = g->points ? ~0ULL : spec_of(g, live, rel);
#endif
    u64 k[MAXN];
    for (int i = 0; i < MAXN; i++)
        k[i] = rk[i] & spec;
    Entry *e = NULL;
    for (int w = 0; w < TT_WAYS && e == NULL; w++) {
        if (tags[w] != tag)
            continue;
        Entry *c = &bucket[w];
        if (c->gen == g->sv->tt_gen && c->meta == meta && c->lens[0] == lens[0] && c->lens[1] == lens[1] &&
            c->spec == spec && memcmp(c->k, k, sizeof k) == 0)
            e = c;
    }
    if (e == NULL) {
        int w = -1;
        for (int v = 0; v < TT_WAYS && w < 0; v++)
            if ((tags[v] & 255u) != (g->sv->tt_gen & 255u) || tags[v] == 0)
                w = v; /* empty, or left from an earlier solve */
        if (w < 0)
            w = (int)((g->sv->tt_victim++) % TT_WAYS);
        e = &bucket[w];
        tags[w] = tag;
        e->gen = g->sv->tt_gen;
        e->meta = meta;
        e->lens[0] = lens[0];
        e->lens[1] = lens[1];
        e->spec = spec;
        memcpy(e->k, k, sizeof k);
        e->lo = 0;
        e->hi = 30000;
        e->mrank = 255;
    }
    if (lo > e->lo)
        e->lo = (int16_t)lo;
    if (hi < e->hi)
        e->hi = (int16_t)hi;
    if (bestmove >= 0) {
        int c = bestmove & 255;
        e->msuit = (uint8_t)g->suit[c];
        e->mnom = (uint8_t)(bestmove >> 8);
        e->mrank = (uint8_t)pop64(live & g->smask[g->suit[c]] & above(c));
    }
}

/* The block of a shape (leader, suit lengths, shown voids) in the shape
 * table: one of SB_ASSOC candidates next to each other; -1 if none holds
 * it, unless `make`: then one is emptied for it, one not used in this solve
 * if any, else the one with the fewest tricks left (its entries save the
 * least search), the least recently used of those. */
static int sb_find(const Game *g, const u64 *lens, u64 meta, u64 h, int tl, int make)
{
    Solver *sv = g->sv;
    unsigned base = (unsigned)(h & (SB_SIZE - 1)) & ~(unsigned)(SB_ASSOC - 1);
    SHead *b = &sv->sb_head[base];
    for (int k = 0; k < SB_ASSOC; k++)
        if (b[k].gen == sv->tt_gen && b[k].meta == (uint32_t)meta && b[k].lens[0] == lens[0] &&
            b[k].lens[1] == lens[1]) {
            b[k].stamp = ++sv->sb_stamp;
            return (int)(base + k);
        }
    if (!make)
        return -1;
    int k = -1;
    for (int j = 0; j < SB_ASSOC && k < 0; j++)
        if (b[j].gen != sv->tt_gen)
            k = j;
    if (k < 0) {
        k = 0;
        for (int j = 1; j < SB_ASSOC; j++)
            if (b[j].tl < b[k].tl || (b[j].tl == b[k].tl && (int32_t)(b[j].stamp - b[k].stamp) < 0))
                k = j;
#ifdef HIST
        evict++;
#endif
    }
#ifdef HIST
    newblocks++;
#endif
    b[k].lens[0] = lens[0];
    b[k].lens[1] = lens[1];
    b[k].meta = (uint32_t)meta;
    b[k].gen = sv->tt_gen;
    b[k].count = 0;
    b[k].next = 0;
    b[k].tl = (uint8_t)tl;
    b[k].stamp = ++sv->sb_stamp;
    return (int)(base + k);
}

/* tt_probe for a shape block: the entries whose relevant cards have the
 * same owners here (x0, x1: the owners' bit planes over the live cards),
 * newest first, until one decides the window (alpha, beta) on its own:
 * most look-ups that match are decided by the first match, so the rest of
 * the block is not scanned (a block holds up to SB_WAYS entries).
 *
 * Unlike tt_probe it gives no best move to try first: a stored best move
 * tried first cost nodes here (20 bridge deals every card of seed 2: 16.3M
 * nodes without it, 18.4M with it first; 500 suit deals -2 %, 500 no trumps
 * -3 %): the move ordering's own first choice, the killer lead included,
 * finds smaller proofs than a move that was best under another window. */
static void sb_probe(const Game *g, int blk, u64 x0, u64 x1, u64 live, int alpha, int beta, int *lo, int *hi,
                     u64 *rel_lo, u64 *rel_hi)
{
    const SHead *b = &g->sv->sb_head[blk];
    const SEntry *base = &g->sv->sb_ent[(size_t)blk * SB_WAYS];
    int w = b->next;
#ifdef HIST
    int nm = 0;
    probes++;
#endif
    for (int left = b->count; left > 0; left--) {
        w = (w == 0 ? SB_WAYS : w) - 1;
        const SEntry *e = &base[w];
#ifdef HIST
        pscan++;
#endif
        if (((e->o0 ^ x0) | (e->o1 ^ x1)) & e->spec)
            continue;
#ifdef HIST
        if (!nm++)
            pmatch++;
#endif
        if (e->lo > *lo) {
            *lo = e->lo;
            *rel_lo = PDEP(e->spec, live);
            if (*lo >= beta)
                break;
        }
        if (e->hi < *hi) {
            *hi = e->hi;
            *rel_hi = PDEP(e->spec, live);
            if (*hi <= alpha)
                break;
        }
    }
}

/* tt_store for the shape table: the entry with the same relevant cards and
 * owners, else a new one (the block's oldest when it is full). */
static void sb_store(const Game *g, const u64 *lens, u64 meta, u64 h, int tl, u64 x0, u64 x1, u64 live, u64 rel,
                     int lo, int hi)
{
    int blk = sb_find(g, lens, meta, h, tl, 1);
    SHead *b = &g->sv->sb_head[blk];
    SEntry *base = &g->sv->sb_ent[(size_t)blk * SB_WAYS], *e = NULL;
#ifdef NO_PART
    u64 spec = PEXT(live, live);
#else
    u64 spec = spec_of(g, live, rel);
#endif
    u64 k0 = x0 & spec, k1 = x1 & spec;
    for (int w = 0; w < b->count && e == NULL; w++)
        if (base[w].spec == spec && base[w].o0 == k0 && base[w].o1 == k1)
            e = &base[w];
    if (e == NULL) {
        e = &base[b->next];
        b->next = (uint8_t)((b->next + 1) % SB_WAYS);
        if (b->count < SB_WAYS)
            b->count++;
        e->spec = spec;
        e->o0 = k0;
        e->o1 = k1;
        e->lo = 0;
        e->hi = 30000;
    }
    if (lo > e->lo)
        e->lo = (int16_t)lo;
    if (hi < e->hi)
        e->hi = (int16_t)hi;
}

/* Whether the side of p, second to play to the current trick (4 hands, no
 * 500 no-trump joker), wins it whatever the others do: 0 if not, else the
 * tricks it surely wins from here, this one and, in no trumps, those that
 * the hand winning it cashes next (DDS's QuickTricksSecondHand): its second
 * master of the led suit, the top card of each other suit it holds, every
 * card of a suit nobody else holds.  `rel` gets the top cards it used. */
static int second_hand_wins(const Game *g, const State *s, int p, u64 live, u64 *rel)
{
    if (live & g->smask[4])
        return 0;
    int x = s->led, t = g->trump;
    int part = (p + 2) % 4, lho = (p + 1) % 4;
    if (g->decl[part] != g->decl[p] || g->decl[lho] == g->decl[p])
        return 0;
    u64 sm = g->smask[x];
    u64 lho_x = s->hand[lho] & sm;
    int lho_ruffs = t >= 0 && x != t && !lho_x && (s->hand[lho] & g->smask[t]);
    if (t >= 0 && x != t) {
        int own_ruff = (!(s->hand[p] & sm) && (s->hand[p] & g->smask[t])) ||
                       (!(s->hand[part] & sm) && (s->hand[part] & g->smask[t]));
        if (own_ruff)
            return !lho_ruffs; /* own side ruffs, theirs cannot */
    }
    if (lho_ruffs)
        return 0;
    u64 own = (s->hand[p] | s->hand[part]) & sm;
    if (!own)
        return 0;
    int top = 63 - __builtin_clzll(own);
    int led = s->tcard[0];
    if (top < led || (lho_x && top < 63 - __builtin_clzll(lho_x)))
        return 0;
    *rel |= 1ULL << top;
    if (t >= 0)
        return 1;
    /* no trumps: the hand with `top` wins the trick and leads the next */
    int hh = (s->hand[p] >> top) & 1 ? p : part;
    u64 mine = s->hand[hh], others = 0;
    for (int i = 0; i < 4; i++)
        if (i != hh)
            others |= s->hand[i];
    int k = 1;
    u64 sl = live & sm;
    int t1 = 63 - __builtin_clzll(sl);
    u64 rest = sl & ~(1ULL << t1);
    if (((mine >> t1) & 1) && rest && ((mine >> (63 - __builtin_clzll(rest))) & 1)) {
        /* the top two of the suit: the other one is a master next */
        k++;
        *rel |= (1ULL << t1) | (1ULL << (63 - __builtin_clzll(rest)));
    }
    for (int y = 0; y < 4; y++) {
        u64 my = mine & g->smask[y];
        if (y == x || !my)
            continue;
        if (!(others & g->smask[y])) {
            k += pop64(my); /* a suit nobody else holds */
        } else {
            int ty = 63 - __builtin_clzll(live & g->smask[y]);
            if ((mine >> ty) & 1) {
                k++;
                *rel |= 1ULL << ty;
            }
        }
    }
    return k < s->tricks_left ? k : s->tricks_left;
}

/* Fail-soft alpha-beta on the declaring side's future total.  `rel` gets
 * the cards whose rank the returned bound depends on (partition search). */
static int search(Ctx *x, const State *s, int alpha, int beta, u64 *rel)
{
    const Game *g = x->g;
    x->nodes++;
    *rel = 0;
    if (x->limit && x->nodes > x->limit)
        x->stopped = 1;
    if (x->stopped)
        return alpha;
#ifdef HIST
    hist[s->tricks_left][s->ntrick]++;
#endif
    Entry *bucket = NULL;
    uint32_t *tags = NULL, tag = 0;
    u64 lens[2] = {0, 0}, meta = 0, live = 0, extra = 0, rk[MAXN];
    /* the shape table (USE_SHAPES): the hash, the owners' bit planes */
    int shapes = USE_SHAPES(g), stored = 0;
    u64 hsh = 0, x0 = 0, x1 = 0;
    /* the (old) table's best move: suit, live cards above it, nominated suit */
    int hsuit = -1, hrank = 0, hnom = 0;
    int a0 = alpha, b0 = beta;
    if (s->ntrick == 0) {
        if (s->tricks_left == 0)
            return 0;
        if (s->tricks_left == 1 && !(g->nominate && (s->hand[s->leader] & g->smask[4]))) {
            /* the last trick plays itself: one card in every hand */
            State c = *s;
            int d = 0;
            for (int i = 0; i < g->n; i++) {
                int q = seat_after(g, c.leader, c.ntrick);
                int card = ctz64(c.hand[q]);
                d = apply_move(g, &c, q, card | (g->suit[card] << 8), rel);
            }
            return d;
        }
        int lo = 0, hi = g->points ? s->rem_pts : s->tricks_left;
        u64 rel_lo = 0, rel_hi = 0;
        live = live_of(g, s);
        int use_tt = s->tricks_left > (g->points ? TT_MIN_POINTS : TT_MIN_TRICKS);
        if (use_tt) {
            tt_shape(g, s, lens, &meta);
            u64 h;
            if (g->points) {
                points_key(g, s, live, rk);
                h = mix(meta * 0x9e3779b97f4a7c15ULL ^ rk[0] * 0x632be59bd9b4e019ULL ^ rk[1] * 0xc2b2ae3d27d4eb4fULL ^
                        rk[2] * 0x165667b19e3779f9ULL ^ rk[3] * 0xd6e8feb86659fd93ULL ^ rk[4] * 0xff51afd7ed558ccdULL ^
                        rk[5] * 0xc4ceb9fe1a85ec53ULL);
            } else {
                for (int i = 0; i < MAXN; i++)
                    rk[i] = i < g->n ? PEXT(s->hand[i], live) : 0;
                h = mix(mix(lens[0] ^ meta * 0x9e3779b97f4a7c15ULL) ^ lens[1]);
            }
            if (shapes) {
                hsh = h;
                x0 = rk[1] | rk[3];
                x1 = rk[2] | rk[3];
                unsigned base = (unsigned)(h & (SB_SIZE - 1)) & ~(unsigned)(SB_ASSOC - 1);
                /* the candidate heads and the first entries are
                 * fetched while the bounds are computed */
                __builtin_prefetch(&g->sv->sb_head[base]);
                __builtin_prefetch(&g->sv->sb_head[base + SB_ASSOC - 1]);
                __builtin_prefetch(&g->sv->sb_ent[(size_t)base * SB_WAYS]);
            } else {
                bucket = &g->sv->tt[(h & (TT_SIZE - 1)) * TT_WAYS];
                tags = &g->sv->tt_tags[(h & (TT_SIZE - 1)) * TT_WAYS];
                tag = ((uint32_t)(h >> 40) << 8) | (g->sv->tt_gen & 255u);
                /* the table line is fetched while the bounds are computed */
                __builtin_prefetch(tags);
                __builtin_prefetch(bucket);
            }
        }
#ifdef NO_QT
        int wants = 0;
#else
        /* the side on lead wants tricks (never in misère) */
        int wants = g->maxi[s->leader] == g->decl[s->leader];
#endif
        int qbase = 0; /* its quick tricks (card points: their points) */
        if (wants) {
            /* for card points, the cashed cards' own points */
            u64 qrel = 0;
            int qp = 0;
            int qt = quick_tricks(g, s, &qrel, &qp, 0);
            if (g->points)
                qt = qp;
            qbase = qt;
            if (g->decl[s->leader]) {
                lo = qt;
                rel_lo = qrel;
            } else {
                hi -= qt;
                rel_hi = qrel;
            }
        }
        if (!g->points && g->maxi[s->leader] == g->decl[s->leader]) {
            u64 lrel = 0;
            if (must_lose_trick(g, s, &lrel)) {
                if (g->decl[s->leader]) {
                    if (s->tricks_left - 1 < hi) {
                        hi = s->tricks_left - 1;
                        rel_hi |= lrel;
                    }
                } else if (lo < 1) {
                    lo = 1;
                    rel_lo |= lrel;
                }
            }
        }
        if (!g->points) {
            u64 lrel = 0;
            int u = later_tricks(g, s, live, &lrel);
            if (u >= 0) {
                if (g->decl[s->leader]) {
                    if (u < hi) {
                        hi = u;
                        rel_hi = lrel;
                    }
                } else if (s->tricks_left - u > lo) {
                    lo = s->tricks_left - u;
                    rel_lo = lrel;
                }
            }
        }
#ifndef NO_MASTER
        if (!g->points || g->trump >= 0)
            master_bound(g, s, &lo, &hi, &rel_lo, &rel_hi);
#endif
        /* the bounds alone may decide: no look-up then */
#ifdef HIST
        if (lo >= beta || hi <= alpha) bcut[s->tricks_left][lo >= beta]++;
#endif
        if (lo >= beta) {
            *rel = rel_lo;
            return lo;
        }
        if (hi <= alpha) {
            *rel = rel_hi;
            return hi;
        }
        if (!use_tt) {
            /* small endings: searching is cheaper than a table look-up */
            if (wants) {
                more_quick(g, s, alpha, beta, qbase, &lo, &hi, &rel_lo, &rel_hi);
                if (lo >= beta) {
                    *rel = rel_lo;
                    return lo;
                }
                if (hi <= alpha) {
                    *rel = rel_hi;
                    return hi;
                }
            }
            if (lo > alpha) {
                alpha = lo;
                extra |= rel_lo;
            }
            if (hi < beta) {
                beta = hi;
                extra |= rel_hi;
            }
            goto moves;
        }
        stored = 1;
        if (shapes) {
            int blk = sb_find(g, lens, meta, hsh, s->tricks_left, 0);
            if (blk >= 0)
                sb_probe(g, blk, x0, x1, live, alpha, beta, &lo, &hi, &rel_lo, &rel_hi);
        } else {
            Entry *e = tt_probe(g, rk, live, lens, meta, bucket, tags, tag, &lo, &hi, &rel_lo, &rel_hi);
            if (e != NULL) {
                hsuit = e->msuit;
                hrank = e->mrank;
                hnom = e->mnom;
            }
        }
#ifdef HIST
        if (lo >= beta || hi <= alpha || lo == hi) ttcut[s->tricks_left]++; else searched[s->tricks_left]++;
#endif
        if (lo >= beta) {
            *rel = rel_lo;
            return lo;
        }
        if (hi <= alpha) {
            *rel = rel_hi;
            return hi;
        }
        if (wants && lo < hi) {
            /* the costlier quick tricks only now: most look-ups decide */
            more_quick(g, s, alpha, beta, qbase, &lo, &hi, &rel_lo, &rel_hi);
            if (lo >= beta) {
                *rel = rel_lo;
                return lo;
            }
            if (hi <= alpha) {
                *rel = rel_hi;
                return hi;
            }
        }
        if (lo == hi) {
            *rel = rel_lo | rel_hi;
            return lo;
        }
        if (lo > alpha) {
            alpha = lo;
            extra |= rel_lo;
        }
        if (hi < beta) {
            beta = hi;
            extra |= rel_hi;
        }
        a0 = alpha;
        b0 = beta;
    }
moves:;
    int p = seat_after(g, s->leader, s->ntrick);
    int mv[64];
    int pairs[64], npairs = 0;
    if (s->ntrick != 0)
        live = live_of(g, s);
    if (s->ntrick == 1 && g->n == 4 && !g->points && g->maxi[p] == g->decl[p]) {
        /* second hand (DDS's QuickTricksSecondHand): the trick is surely
         * won by this hand's side when its top card of the led suit beats
         * the lead and the next hand's cards of the suit (and the next hand
         * cannot ruff), or when it or its partner can ruff and the next hand
         * cannot.  Worth one trick, often all the window asks for, if
         * this side wants tricks (not a misère contractor's). */
        u64 srel = 0;
        int sure = second_hand_wins(g, s, p, live, &srel);
        if (sure) {
            int side = g->decl[p];
            int lo1 = side ? sure : 0, hi1 = side ? s->tricks_left : s->tricks_left - sure;
            if (lo1 >= beta) {
                *rel = srel;
                return lo1;
            }
            if (hi1 <= alpha) {
                *rel = srel;
                return hi1;
            }
        }
    }
    u64 lv = live | s->trickmask; /* the hands and the current trick */
    int m = gen_moves(g, s, p, lv, mv, 1, pairs, &npairs);
    order_moves(g, s, p, live, mv, m);
    if (hsuit >= 0) {
        /* the stored best move, in relative rank, first */
        u64 sm = live & g->smask[hsuit];
        int want = pop64(sm) - 1 - hrank;
        for (int i = 0; i < m; i++) {
            int c = mv[i] & 255;
            if (g->suit[c] == hsuit && (mv[i] >> 8) == hnom && pop64(sm & ((1ULL << c) - 1)) == want) {
                int t = mv[i];
                memmove(mv + 1, mv, i * sizeof(int));
                mv[0] = t;
                break;
            }
        }
    }
    int bestmove = -1;
    int maxi = g->maxi[p];
    int best = maxi ? -INF : INF;
    u64 all = 0, cut = 0;
    int cutoff = 0;
    /* lowest win (DDS): after a card of a suit fails, the mover's other
     * cards of that suit below every card its refutation depended on fail
     * the same way (swap the two cards' names: every trick has the same
     * winner); per suit, the card index they must reach to be searched */
    int lw[4] = {0, 0, 0, 0};
    int lowwin = !g->points;
    for (int i = 0; i < m; i++) {
        int mc = mv[i] & 255, mx = g->suit[mc];
        if (lowwin && mx < 4 && mc < lw[mx])
            continue;
        State c = *s;
        u64 crel = 0, wrel = 0;
#ifdef HIST
        if (s->ntrick == g->n - 1) tricknodes++;
#endif
        int d = apply_move(g, &c, p, mv[i], &wrel);
        int v = d + search(x, &c, alpha - d, beta - d, &crel);
        crel |= wrel;
        all |= crel;
        if (lowwin && mx < 4 && lw[mx] == 0) {
            u64 rs = crel & g->smask[mx];
            int low = rs ? ctz64(rs) : 64;
            if (mc < low)
                lw[mx] = low;
        }
        if (maxi) {
            if (v > best) {
                best = v;
                bestmove = mv[i];
            }
            if (best > alpha)
                alpha = best;
        } else {
            if (v < best) {
                best = v;
                bestmove = mv[i];
            }
            if (best < beta)
                beta = best;
        }
        if (alpha >= beta) {
#ifdef HIST
            cuts[i]++;
            if (m > 1) cutat[s->ntrick][i < 7 ? i : 7]++;
#endif
            g->sv->history[p][mv[i] & 255] += s->tricks_left * s->tricks_left;
            if (s->ntrick == 0)
                g->sv->killer[s->tricks_left][dds_order(g, live) ? 0 : p] = (mv[i] & 255) + 1;
            cut = crel;
            cutoff = 1;
            break;
        }
    }
#ifdef HIST
    if (!cutoff && m > 1) { allnodes[s->ntrick]++; allmoves[s->ntrick] += m; }
#endif
    if (cutoff) {
        *rel = cut | extra;
    } else {
        /* A touching pair pruned as one move stays one move in every position
         * matching on the relevant ranks unless the threshold of relevance
         * falls between its two cards: then the lower card becomes relevant
         * too (highest pairs first, as each can lower the threshold). */
        u64 r = all | extra;
        for (int j = npairs - 1; j >= 0; j--) {
            int c = pairs[j] & 255, nx = pairs[j] >> 8;
            u64 rs = r & lv & g->smask[g->suit[c]];
            if (rs) {
                int tau = ctz64(rs);
                if (c < tau && tau <= nx)
                    r |= 1ULL << c;
            }
        }
        *rel = r;
    }
    if (stored && !x->stopped) {
        /* fail-soft: an upper bound, a lower bound, or the value */
        int slo = best <= a0 ? 0 : best, shi = best >= b0 ? 30000 : best;
        if (shapes)
            sb_store(g, lens, meta, hsh, s->tricks_left, x0, x1, live, *rel, slo, shi);
        else
            tt_store(g, rk, live, lens, meta, bucket, tags, tag, *rel, slo, shi, bestmove);
    }
    return best;
}


static void features(const Game *g, const State *s, Features *f)
{
    int owner[64];
    u64 live = 0;
    memset(f, 0, sizeof *f);
    for (int i = 0; i < g->n; i++) {
        live |= s->hand[i];
        for (u64 t = s->hand[i]; t; t &= t - 1)
            owner[ctz64(t)] = g->decl[i];
    }
    for (int x = 0; x < 5; x++) {
        u64 l = live & g->smask[x];
        int r = 0, run = 1, first = -1;
        while (l) {
            int c = 63 - __builtin_clzll(l);
            l &= ~(1ULL << c);
            int sd = owner[c];
            if (r < 4)
                f->hcp[sd] += 4 - r;
            f->pts[sd] += g->pts[c];
            if (x == g->trump || g->ctype == 1)
                f->tr[sd]++;
            if (first < 0)
                first = sd;
            else if (sd != first)
                run = 0;
            if (run) {
                f->top[sd]++;
                f->tpts[sd] += g->pts[c];
            }
            r++;
        }
    }
    /* per suit: who holds its top card, each side's longest holding, and
     * whether a side stops it (holds one of its top three cards in a hand
     * longer than the cards above it); 500 jokers */
    for (int x = 0; x < 4; x++) {
        u64 sl = live & g->smask[x];
        if (!sl)
            continue;
        f->ctrl[owner[63 - __builtin_clzll(sl)]]++;
        int ml[2] = {0, 0}, st[2] = {0, 0};
        for (int i = 0; i < g->n; i++) {
            u64 h = s->hand[i] & g->smask[x];
            int l = pop64(h), sd = g->decl[i];
            if (l > ml[sd])
                ml[sd] = l;
            for (u64 t = h; t; t &= t - 1) {
                int above_it = pop64(sl & above(ctz64(t)));
                if (above_it < 3 && l > above_it)
                    st[sd] = 1;
            }
        }
        for (int sd = 0; sd < 2; sd++) {
            f->longest[sd] += ml[sd];
            f->stop[sd] += st[sd];
        }
    }
    for (u64 t = live & g->smask[4]; t; t &= t - 1)
        f->jok[owner[ctz64(t)]]++;
}

/* A first guess at the declaring side's future tricks, for the first
 * null-window search: its share of the top cards, its trump majority, its
 * runs of top cards, the suits whose top card it holds, and in suit deals
 * its longest holdings, in no trumps its jokers and stoppers; coefficients
 * fitted by least squares to the exact values of 500 random deals of each
 * kind (seeds 2, 3, 6, 7 and 8 of benchmarks/solver.py, not the
 * benchmark's own seed 1): the guess is the value or one above it (one
 * null-window search each way) in 70 % of the no-trump deals of seeds 1
 * and 4 (51 % before the joker and stopper terms) and 74 % of the suit
 * deals (69 %).  A guess only decides where the search starts, never its
 * result: within a trick of the value it saves about a null-window
 * search. */
static int guess_tricks(const Game *g, const State *s)
{
    Features f;
    features(g, s, &f);
    double tl = s->tricks_left, e;
    double share = f.hcp[0] + f.hcp[1] ? (double)f.hcp[1] / (f.hcp[0] + f.hcp[1]) : 0.5;
    if (g->misere)
        e = 0.26 * tl + 0.695 * share * tl + 0.069 * (f.top[1] - f.top[0]);
    else if (g->trump >= 0)
        e = 0.027 * tl + 0.997 * share * tl - 0.078 * (f.top[1] - f.top[0]) + 0.556 * (f.tr[1] - f.tr[0]) +
            0.362 * (f.ctrl[1] - f.ctrl[0]) + 0.213 * (f.longest[1] - f.longest[0]);
    else
        e = 0.037 * tl + 1.001 * share * tl - 0.088 * (f.top[1] - f.top[0]) + 0.484 * (f.ctrl[1] - f.ctrl[0]) +
            1.318 * (f.jok[1] - f.jok[0]) + 0.384 * (f.stop[1] - f.stop[0]);
    int v = (int)(e + 1.0); /* rounded up: a guess a trick high costs least */
    return v < 0 ? 0 : v > s->tricks_left ? s->tricks_left : v;
}

/* The same for card points (coinche): the points in play, the declaring
 * side's card points in hand, its trump majority, its runs of top cards
 * and their points, and the kind of contract; fitted like guess_tricks
 * (100 coinche deals of seed 2). */
static int guess_points(const Game *g, const State *s)
{
    Features f;
    features(g, s, &f);
    double e = 0.295 * s->rem_pts + 0.3046 * f.pts[1] + 8.4133 * (f.tr[1] - f.tr[0]) - 3.4829 * (f.top[1] - f.top[0]) +
               0.9985 * (f.tpts[1] - f.tpts[0]) + (g->ctype == 0 ? 5.1837 : g->ctype == 1 ? 13.4246 : 0.0);
    int v = (int)(e + 0.5);
    return v < 0 ? 0 : v > s->rem_pts ? s->rem_pts : v;
}

/* The exact future value of a state, by null-window searches: MTD(f) from
 * a guess, galloping (steps doubling) while the bound moves one way and
 * bisecting once it turns, so a card-point range of 0-162 is closed in a
 * few searches.  A negative guess bisects from the start. */
static int exact(Ctx *x, const State *s, int guess)
{
    const Game *g = x->g;
    int lo = 0, hi = g->points ? s->rem_pts : s->tricks_left;
    int dir = 0, step = 1, first = 1;
    if (!g->points) {
        /* tricks: MTD(f), one trick at a time from the guess */
        int v = guess >= 0 ? guess : guess_tricks(g, s);
        if (v > hi)
            v = hi;
        while (lo < hi) {
            int beta = v <= lo ? lo + 1 : v;
            u64 r;
#ifdef DD_DEBUG
            long long n0 = x->nodes;
#endif
            v = search(x, s, beta - 1, beta, &r);
#ifdef DD_DEBUG
            fprintf(stderr, "  beta %d -> %d  (%lld nodes)\n", beta, v, x->nodes - n0);
#endif
            if (x->stopped)
                return lo;
            if (v >= beta)
                lo = v;
            else
                hi = v;
        }
        return lo;
    }
    if (guess < 0 && s->ntrick == 0)
        guess = guess_points(g, s);
    while (lo < hi) {
        int beta;
        if (first && guess >= 0)
            beta = guess;
        else if (first || dir == 0)
            beta = (lo + hi + 1) / 2;
        else if (dir > 0)
            beta = lo + step;
        else
            beta = hi - step + 1;
        if (beta <= lo)
            beta = lo + 1;
        if (beta > hi)
            beta = hi;
        first = 0;
        u64 r;
        long long b4 = x->nodes;
        int v = search(x, s, beta - 1, beta, &r);
        if (x->stopped)
            return lo;
#ifdef DD_DEBUG
        fprintf(stderr, "  beta %d -> %d  (%lld nodes)\n", beta, v, x->nodes - b4);
#else
        (void)b4;
#endif
        int d = v >= beta ? 1 : -1;
        if (d > 0)
            lo = v;
        else
            hi = v;
        if (d == dir) {
            step *= 2;
        } else if (dir != 0) {
            dir = 0; /* turned: bisect next */
            step = 1;
            continue;
        } else {
            step = 2;
        }
        dir = d;
    }
    return lo;
}

/* The value of every legal move of the seat to play (the moves in `mv`,
 * their values in `vals`); returns how many.  A move equal to a later one
 * (a card of the same run) takes its value without a search. */
static int root_values(Ctx *x, const State *s, int *mv, int *vals)
{
    const Game *g = x->g;
    int p = seat_after(g, s->leader, s->ntrick);
    int m;
    int pr0[64], npr0 = 0;
    u64 live = s->trickmask;
    for (int i = 0; i < g->n; i++)
        live |= s->hand[i];
    m = gen_moves(g, s, p, live, mv, 0, pr0, &npr0);
    u64 legal = legal_mask(g, s, p);
    int guess = -1;
    int rep[64];
    for (int i = 0; i < m; i++)
        rep[i] = run_top(g, live, legal, mv[i] & 255) | (mv[i] & ~255);
    for (int i = m - 1; i >= 0 && !x->stopped; i--) {
        int found = -1;
        for (int j = i + 1; j < m && found < 0; j++)
            if (mv[j] == rep[i])
                found = j;
        if (found >= 0) {
            vals[i] = vals[found];
            continue;
        }
        State c2 = *s;
        u64 wr = 0;
        int d = apply_move(g, &c2, p, mv[i], &wr);
        long long before = x->nodes;
        vals[i] = d + exact(x, &c2, guess < 0 ? -1 : guess - d);
        guess = vals[i];
#ifdef DD_DEBUG
        fprintf(stderr, "move %d value %d nodes %lld\n", mv[i], vals[i], x->nodes - before);
#else
        (void)before;
#endif
    }
    return m;
}
