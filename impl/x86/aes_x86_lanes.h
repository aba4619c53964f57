/* Part of the x86 AES template (impl/x86/aes_x86_modes.h includes it once,
 * after the mode loops, with the template's width HWC_W and its macros):
 * the lane step of internal/kernel.h (chain_step). HWC_NB vectors of HWC_L
 * lanes = HWC_NB * HWC_L independent CBC / CBC-MAC chains (32 on zmm, 16 on
 * ymm, 8 on xmm), one block of every lane per round of the loop: with 8
 * vectors in flight the AESENC latency is covered as in ECB, so many
 * messages run at the parallel modes' rate (SP 800-38A 6.2, SP 800-38B 6.2).
 * Lane j of the step sits in vector j / HWC_L, 128-bit lane j % HWC_L.
 * Constant time: the same instructions whatever the data; branches on the
 * block count, the number of busy lanes, the buffers' addresses (L1 sets)
 * and on whether outputs are written only. */
#ifndef HWC_IMPL_X86_AES_X86_LANES_H
#define HWC_IMPL_X86_AES_X86_LANES_H

#ifndef HWC_L
#error "included by impl/x86/aes_x86_modes.h only"
#endif

/* Gather and scatter with one shuffle each on zmm (none on ymm): the lane
   loops are bound by the AES/shuffle slots on Zen 5 (docs/aes-batch.md).
   gather: lanes 1 and 3 by 128-bit broadcasts into a ymm (load-port only,
   unlike zmm broadcasts) blended over lanes 0 and 2, then one insert.
   scatter: lanes 0 and 2 by plain 16-byte stores, lanes 1 and 3 by masked
   32-byte stores of the low and high half at p[j] + off - 16, whose
   masked-out half is the block before (already written: no
   store-forwarding conflict with the loads of the next blocks; faults on
   masked-out bytes are suppressed). Under MemorySanitizer, which checks
   asm operands like branch conditions (internal/ct.h), the plain inserts
   and extracts. */
#if HWC_L > 1 && !defined(HWC_CT_MSAN)
#define HWC_LANES_ASM 1
/* v with its high 128-bit lane replaced by the block at p: a broadcast from
   memory (asm, so that the compiler does not turn it into an insert) and a
   blend. */
HWC_X86_INLINE __m256i bc_hi_half(__m256i v, const uint8_t *p) {
    __m256i b;
    __asm__("vbroadcasti128 %1, %0" : "=x"(b) : "m"(*(const __m128i *)(const void *)p));
    return _mm256_blend_epi32(v, b, 0xf0);
}
#endif

#if HWC_L > 1
/* The blocks at p[0] + off and p[1] + off as one ymm. */
HWC_X86_INLINE __m256i gather_pair(const uint8_t *const *p, size_t off) {
    const __m256i lo = _mm256_castsi128_si256(hwc_x86_ld(p[0] + off));
#if defined(HWC_LANES_ASM)
    return bc_hi_half(lo, p[1] + off);
#else
    return _mm256_inserti128_si256(lo, hwc_x86_ld(p[1] + off), 1);
#endif
}
#endif

/* Blocks at p[0] + off, ..., p[HWC_L - 1] + off as one vector. */
HWC_X86_INLINE hwc_v gather(const uint8_t *const *p, size_t off) {
#if HWC_L == 1
    return hwc_x86_ld(p[0] + off);
#elif HWC_L == 2
    return gather_pair(p, off);
#else
    return _mm512_inserti64x4(_mm512_castsi256_si512(gather_pair(p, off)), gather_pair(p + 2, off), 1);
#endif
}

#if HWC_L == 4 && defined(HWC_LANES_ASM)
/* The high half of h to p (16 bytes), by a masked store at p - 16. */
HWC_X86_INLINE void st_hi_half(uint8_t *p, __m256i h) {
    __asm__("vmovdqu32 %1, %0%{%2%}"
            : "+m"(*(__m256i *)(uintptr_t)((uintptr_t)p - 16))
            : "v"(h), "Yk"((__mmask8)0xf0));
}
#endif

/* The lanes of v to p[0] + off, ..., p[HWC_L - 1] + off by plain stores.
   The chaining values at the end of a step go this way: the next step
   reads them back at once, and a load does not take its bytes from a masked
   store still in flight (it waits until the store is written). With the
   masked stores there, 64 CBC messages of mixed lengths (about 50 steps)
   took 1.01-1.27x the time on Zen 4 (docs/aes-batch.md). */
HWC_X86_INLINE void scatter_plain(uint8_t *const *p, size_t off, hwc_v v) {
#if HWC_L == 1
    hwc_x86_st(p[0] + off, v);
#elif HWC_L == 2
    hwc_x86_st(p[0] + off, _mm256_castsi256_si128(v));
    hwc_x86_st(p[1] + off, _mm256_extracti128_si256(v, 1));
#else
    hwc_x86_st(p[0] + off, _mm512_castsi512_si128(v));
    hwc_x86_st(p[1] + off, _mm512_extracti32x4_epi32(v, 1));
    hwc_x86_st(p[2] + off, _mm512_extracti32x4_epi32(v, 2));
    hwc_x86_st(p[3] + off, _mm512_extracti32x4_epi32(v, 3));
#endif
}

/* The lanes of v to p[0] + off, ..., p[HWC_L - 1] + off: the blocks of the
   lane loops. */
HWC_X86_INLINE void scatter(uint8_t *const *p, size_t off, hwc_v v) {
#if HWC_L == 4 && defined(HWC_LANES_ASM)
    const __m256i lo = _mm512_castsi512_si256(v), hi = _mm512_extracti64x4_epi64(v, 1);
    hwc_x86_st(p[0] + off, _mm256_castsi256_si128(lo));
    st_hi_half(p[1] + off, lo);
    hwc_x86_st(p[2] + off, _mm256_castsi256_si128(hi));
    st_hi_half(p[3] + off, hi);
#else
    scatter_plain(p, off, v);
#endif
}

/* Runs the chains x[0..nb) (nb a constant after inlining) by `blocks`
   blocks, block b of lane j at in[j] + in_off + 16 b (output at out[j] +
   out_off + 16 b when store). */
HWC_X86_INLINE void chain_run_nb(hwc_v *x, hwc_keys *K, const uint8_t *const *in, size_t in_off,
                                 uint8_t *const *out, size_t out_off, size_t blocks, const unsigned nr,
                                 const int store, const int nb) {
    for (size_t b = 0; b < blocks; b++) {
        keys_fresh(K);
        /* every lane's block read before any of this block index is written */
        HWC_UNROLL for (int i = 0; i < nb; i++)
            x[i] = V_XOR3(x[i], gather(in + HWC_L * i, in_off + 16 * b), vkey(K, 0));
        rounds_mid(x, nb, K, nr, 0);
        HWC_UNROLL for (int i = 0; i < nb; i++) x[i] = V_ENCL(x[i], vkey(K, nr));
        if (store) HWC_UNROLL for (int i = 0; i < nb; i++) scatter(out + HWC_L * i, out_off + 16 * b, x[i]);
    }
}

HWC_X86_INLINE void chain_run(hwc_v *x, hwc_keys *K, const uint8_t *const *in, size_t in_off,
                              uint8_t *const *out, size_t out_off, size_t blocks, const unsigned nr,
                              const int store) {
    chain_run_nb(x, K, in, in_off, out, out_off, blocks, nr, store, HWC_NB);
}

/* 64 bytes (one cache line of blocks) from s to d. */
HWC_X86_INLINE void copy64(uint8_t *d, const uint8_t *s) {
    HWC_UNROLL for (int q = 0; q < 4 / HWC_L; q++) V_ST(d + 16 * HWC_L * q, V_LD(s + 16 * HWC_L * q));
}

/* Messages at the same offset in their pages put every lane's block in one
   L1 set: more lanes than ways would evict each line before its next block
   is read. So groups of four blocks go through staging areas, one
   whole-line copy per lane in and (CBC) out, spread over the group's four
   block steps (a quarter of the lanes each, so that few misses to one set
   are in flight): group g + 1 is copied in and group g - 1 out while group
   g runs. A lane's input line is copied before its output of the same
   bytes is copied back (out == in allowed). */
HWC_X86_INLINE void chain_group(hwc_v *x, hwc_keys *K, const uint8_t *const *sin, uint8_t *const *dst,
                                size_t dst_off, uint8_t *next_in, const uint8_t *const *in, size_t in_off,
                                const uint8_t *prev_out, uint8_t *const *out, size_t out_off,
                                const unsigned nr, const int store) {
    enum { W = HWC_NB * HWC_L, Q = HWC_NB * HWC_L / 4 };
    HWC_UNROLL for (int b = 0; b < 4; b++) {
        chain_run(x, K, sin, 16 * (size_t)b, dst, dst_off + 16 * (size_t)b, 1, nr, store);
        if (next_in)
            for (int j = Q * b; j < Q * (b + 1); j++) copy64(next_in + 64 * j, in[j] + in_off);
        if (prev_out)
            for (int j = Q * b; j < Q * (b + 1); j++) copy64(out[j] + out_off, prev_out + 64 * j);
    }
}

/* Staggered lanes (CBC outputs of page-aligned messages): vector i runs
   STAGGER i blocks (i lines) behind vector 0, so one L1 set holds the input
   and output lines of one vector's HWC_L lanes at a time (4 + 4 lines, in
   12 ways) and outputs go straight to their lines; with every lane at the
   same offset, 32 input and 32 output lines in one set cost more than the
   AES work. Measured against the other layouts tried (docs/aes-batch.md):
   pairs of vectors two lines apart (8 + 8 lines per set) 9% (AES-256) to
   25% (AES-128) slower out of place at 4 KiB; single vectors two lines
   apart as fast out of place but 4-8% slower in place (the ramps at both
   ends, latency-bound iterations, are twice as long). An 8-way L1 holds
   only the 4 + 4 lines themselves: there (out_limit below 8) steps of
   STAGGER_WIDE_MIN_BLOCKS or more put vectors two lines apart (the next
   lines the prefetchers fetch then land in a set of their own); shorter
   steps keep one line, their ramps would cost more (docs/aes-batch.md).
   Iterations t0..t1 - 1 run vectors lo..hi - 1; vector i's block at
   iteration t is t - st i. */
enum { STAGGER = 4, STAGGER_WIDE_MIN_BLOCKS = 256 };

HWC_X86_INLINE void chain_run_staggered(hwc_v *x, hwc_keys *K, const uint8_t *const *in,
                                        uint8_t *const *out, size_t t0, size_t t1, const int lo, const int hi,
                                        const size_t st, const unsigned nr) {
    for (size_t t = t0; t < t1; t++) {
        keys_fresh(K);
        /* every lane's block read before any output of this iteration */
        HWC_UNROLL for (int i = lo; i < hi; i++)
            x[i] = V_XOR3(x[i], gather(in + HWC_L * i, 16 * (t - st * (size_t)i)), vkey(K, 0));
        rounds_mid(x + lo, hi - lo, K, nr, 0);
        HWC_UNROLL for (int i = lo; i < hi; i++) x[i] = V_ENCL(x[i], vkey(K, nr));
        HWC_UNROLL for (int i = lo; i < hi; i++) scatter(out + HWC_L * i, 16 * (t - st * (size_t)i), x[i]);
    }
}

/* A whole step staggered by st blocks (blocks >= (HWC_NB - 1) st): the
   vectors start one after another and finish one after another, (HWC_NB -
   1) st iterations at each end with some vectors idle. */
HWC_X86_INLINE void chain_staggered(hwc_v *x, hwc_keys *K, const uint8_t *const *in, uint8_t *const *out,
                                    size_t blocks, const size_t st, const unsigned nr) {
    HWC_UNROLL for (int p = 1; p < HWC_NB; p++)
        chain_run_staggered(x, K, in, out, st * (size_t)(p - 1), st * (size_t)p, 0, p, st, nr);
    hwc_keys H = *K;   /* the keys in registers for the full iterations only */
    hold_keys(&H, nr);
    chain_run_staggered(x, &H, in, out, st * (size_t)(HWC_NB - 1), blocks, 0, HWC_NB, st, nr);
    HWC_UNROLL for (int p = 1; p < HWC_NB; p++)
        chain_run_staggered(x, K, in, out, blocks + st * (size_t)(p - 1), blocks + st * (size_t)p, p, HWC_NB, st,
                            nr);
}

/* 1 when more than `limit` lines fall into one L1 set (64-byte lines, 64
   sets) among the first n lanes' blocks at p[j] + off and, with q, at
   q[j] + off where that is another line, for the same off: only then is
   staging or staggering worth its cost (thresholds: docs/aes-batch.md).
   Addresses only, no data. */
HWC_X86_INLINE int lanes_collide_pq(const uint8_t *const *p, const uint8_t *const *q, const int n,
                                    const int limit) {
    uint8_t per_set[64] = {0};
    int worst = 0;
    for (int j = 0; j < n; j++) {
        const int c = ++per_set[((uintptr_t)p[j] >> 6) & 63];
        worst = c > worst ? c : worst;
        if (q && (uintptr_t)q[j] >> 6 != (uintptr_t)p[j] >> 6) {
            const int d = ++per_set[((uintptr_t)q[j] >> 6) & 63];
            worst = d > worst ? d : worst;
        }
    }
    return worst > limit;
}
HWC_X86_INLINE int lanes_collide_n(const uint8_t *const *p, const int n, const int limit) {
    return lanes_collide_pq(p, NULL, n, limit);
}
HWC_X86_INLINE int lanes_collide(const uint8_t *const *p, const int limit) {
    return lanes_collide_n(p, HWC_NB * HWC_L, limit);
}

/* 1 when a CBC step should stagger its vectors (below). ymm / zmm: more
   than out_limit output lines per L1 set. xmm (8 lanes, never staged):
   more than 8 input and output lines per set, i.e. out of place with the
   lanes in one set; in place the 8 lines fit and the stagger's ramps would
   cost 9% (docs/aes-batch.md). */
HWC_X86_INLINE int stagger_outputs(const uint8_t *const *in, uint8_t *const *out, const int out_limit) {
    if (HWC_L > 1) return lanes_collide((const uint8_t *const *)out, out_limit);
    return lanes_collide_pq(in, (const uint8_t *const *)out, HWC_NB, 8);
}

/* The pointers of the first w lanes of a step with `busy` busy lanes,
   repeats past those as hwc_aes_lane_fill (internal/kernel.h) makes them:
   copied from the lanes already loaded, which took fewer instructions than
   going through that function's pointer array (3 292 against 3 836 in the
   step of a 64 x 64 B call). */
HWC_X86_INLINE void lanes_load(const hwc_aes_chain *lane, size_t busy, const int w, const uint8_t **in,
                               uint8_t **out, uint8_t **st) {
    const int b = (size_t)w < busy ? w : (int)busy;
    for (int j = 0; j < b; j++) {
        in[j] = lane[j].in;
        out[j] = lane[j].out;
        st[j] = lane[j].st;
    }
    for (int j = b; j < w; j++) {
        in[j] = in[j % 2];
        out[j] = out[j % 2];
        st[j] = st[j % 2];
    }
}

/* A step whose busy lanes fit nb vectors (nb < HWC_NB, a constant): those
   vectors only. Their chains are fewer than the AES units could run, but
   the step costs about one chain's latency per block, where all HWC_NB
   vectors would cost their full AES work and every lane's gathers and
   scatters (docs/aes-batch.md, "Repeated lanes"). No staging: the inputs'
   loads do not wait for the chains, so at 2 vectors their L1 misses overlap
   them; 4 vectors come here only when their lines fit the sets. */
HWC_X86_INLINE void chain_step_few(const uint8_t *const *in, uint8_t *const *out, uint8_t *const *st, hwc_keys *K,
                                   size_t blocks, const unsigned nr, const int store, const int nb) {
    hwc_v x[HWC_NB];
    HWC_UNROLL for (int i = 0; i < nb; i++) x[i] = gather((const uint8_t *const *)st + HWC_L * i, 0);
    chain_run_nb(x, K, in, 0, out, 0, blocks, nr, store, nb);
    HWC_UNROLL for (int i = 0; i < nb; i++) scatter_plain(st + HWC_L * i, 0, x[i]);
}

/* zmm steps from this many blocks stagger colliding CBC outputs instead of
   staging them (at 64 blocks both cost the same; docs/aes-batch.md). */
enum { STAGGER_MIN_BLOCKS = 64 };
_Static_assert(STAGGER_MIN_BLOCKS >= (HWC_NB - 1) * STAGGER, "a staggered step runs every vector");
_Static_assert(STAGGER_WIDE_MIN_BLOCKS >= (HWC_NB - 1) * 2 * STAGGER, "a staggered step runs every vector");

HWC_X86_INLINE void chain_step_n(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy, size_t blocks,
                                 const unsigned nr, const int store, const int out_limit) {
    enum { W = HWC_NB * HWC_L };
    const uint8_t *in[W], *sin[2][W];
    uint8_t *out[W], *st[W], *sout[2][W];
    _Alignas(64) uint8_t stage_in[2][W * 64], stage_out[2][W * 64];
    hwc_keys K;
    load_keys(&K, k->sched, nr);
    /* few busy lanes: up to 2 vectors always; up to 4 when their lines
       need no staging (docs/aes-batch.md, "Repeated lanes") */
    if (busy <= 2 * HWC_L) {
        lanes_load(lane, busy, 2 * HWC_L, in, out, st);
        if (busy <= HWC_L) chain_step_few(in, out, st, &K, blocks, nr, store, 1);
        else chain_step_few(in, out, st, &K, blocks, nr, store, 2);
        return;
    }
    lanes_load(lane, busy, W, in, out, st);
    if (busy <= 4 * HWC_L && !lanes_collide_n(in, (int)busy, 4) &&
        !(store && lanes_collide_n((const uint8_t *const *)out, (int)busy, out_limit))) {
        chain_step_few(in, out, st, &K, blocks, nr, store, 4);
        return;
    }
    /* zmm: CBC-MAC reads the keys from a per-call buffer of broadcast keys;
       CBC encryption broadcasts them per step instead: its 32 output lines
       per step, page-aligned in the usual case, would alias (same address
       bits 11:0) with the buffer's loads. Held in registers they measured
       faster, but compilers spilled them to the frame
       (tests/test_stack_scan.c; docs/aes-batch.md). */
    hwc_v wide[15];
    if (!store) wide_keys(&K, wide, nr);
    hwc_v x[HWC_NB];
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) x[i] = gather((const uint8_t *const *)st + HWC_L * i, 0);
    /* a repeated lane staggered would read outputs of its original */
    if (store && blocks >= STAGGER_MIN_BLOCKS && busy == W && stagger_outputs(in, out, out_limit)) {
        /* the skew a constant in each copy (its multiples fold into the addresses) */
        if (out_limit < 8 && blocks >= STAGGER_WIDE_MIN_BLOCKS)
            chain_staggered(x, &K, in, out, blocks, 2 * STAGGER, nr);
        else
            chain_staggered(x, &K, in, out, blocks, STAGGER, nr);
        HWC_UNROLL for (int i = 0; i < HWC_NB; i++) scatter_plain(st + HWC_L * i, 0, x[i]);
        return;   /* CBC: no wide keys to wipe */
    }
    /* 8 lanes (xmm) fit in the ways of one set: no staging there */
    const size_t groups = W > 8 && blocks >= 8 && lanes_collide(in, 4) ? blocks / 4 : 0;
    const int stage_out_lines = store && groups && lanes_collide((const uint8_t *const *)out, out_limit);
    if (groups) {   /* the staging areas' lines, and the first group in */
        HWC_UNROLL for (int j = 0; j < W; j++)
            for (int h = 0; h < 2; h++) {
                sin[h][j] = stage_in[h] + 64 * j;
                sout[h][j] = stage_out[h] + 64 * j;
            }
        for (int j = 0; j < W; j++) copy64(stage_in[0] + 64 * j, in[j]);
    }
    if (stage_out_lines) {
        for (size_t g = 0; g < groups; g++)
            chain_group(x, &K, sin[g & 1], sout[g & 1], 0, g + 1 < groups ? stage_in[(g + 1) & 1] : NULL, in,
                        64 * (g + 1), g ? stage_out[(g - 1) & 1] : NULL, out, 64 * (g - 1), nr, 1);
        for (int j = 0; j < W; j++) copy64(out[j] + 64 * (groups - 1), stage_out[(groups - 1) & 1] + 64 * j);
    } else {
        for (size_t g = 0; g < groups; g++)
            chain_group(x, &K, sin[g & 1], out, 64 * g, g + 1 < groups ? stage_in[(g + 1) & 1] : NULL, in,
                        64 * (g + 1), NULL, out, 0, nr, store);
    }
    chain_run(x, &K, in, 64 * groups, out, 64 * groups, blocks - 4 * groups, nr, store);
    HWC_UNROLL for (int i = 0; i < HWC_NB; i++) scatter_plain(st + HWC_L * i, 0, x[i]);
    if (groups) hwc_wipe_inline(stage_in, sizeof stage_in);
    if (stage_out_lines) hwc_wipe_inline(stage_out, sizeof stage_out);
    if (!store) wide_keys_end(wide, nr);
}

/* out_limit: the output lines per L1 set that the cache takes as they are
   (more: staged or staggered). 8 in 12 ways (docs/aes-batch.md); 4 in 8
   ways, where 8 output lines fill a set (zmm: HWC_T_L1D_8WAY picks the
   table hwc_aes_avx512_l1d8). */
static __attribute__((noinline)) void chain_step_limit(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy,
                                                       size_t blocks, const int out_limit) {
    if (lane[0].out) HWC_BY_ROUNDS(k->rounds, nr, chain_step_n(k, lane, busy, blocks, nr, 1, out_limit));
    else HWC_BY_ROUNDS(k->rounds, nr, chain_step_n(k, lane, busy, blocks, nr, 0, out_limit));
}

static void chain_step(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy, size_t blocks) {
    chain_step_limit(k, lane, busy, blocks, 8);
}

#if HWC_W == 512
static void chain_step_l1d8(const hwc_aes_key *k, const hwc_aes_chain *lane, size_t busy, size_t blocks) {
    chain_step_limit(k, lane, busy, blocks, 4);
}
#endif

#undef HWC_LANES_ASM

#endif
