/* Every type-generic name of shmem.h on every type of its family, generated from the type
 * tables of ishmem/types.h (the specification's tables): a type without the generic name
 * does not compile, and a call that reaches the wrong width moves the wrong values. The same
 * body is built as C11 (generic_types.c: the _Generic macros) and as C++ (generic_types.cpp:
 * the overloads). Run on two or more PEs: each PE works on its right neighbour. */
#include "shmem_test.h"

static int me, npes, right, left;
static unsigned char *scratch; /* 64 elements of the widest type */
static uint64_t *signal_word;

/* The scratch area, zeroed on every PE before anyone writes it. */
static void *fresh_scratch(void) {
  size_t i;
  shmem_barrier_all();
  for (i = 0; i < 64 * 32; ++i) scratch[i] = 0;
  shmem_barrier_all();

  return scratch;
}

/* RMA, put-with-signal and the collectives that move data. */
#define GT_RMA(T, N)                                                                            \
  {                                                                                             \
    T *d = (T *)fresh_scratch(), g[4] = {(T)0, (T)0, (T)0, (T)0};                               \
    T *s = d + 32, *c = d + 40;                                                                 \
    int i;                                                                                      \
    s[0] = (T)(me + 1);                                                                         \
    s[1] = (T)(me + 2);                                                                         \
    shmem_barrier_all();                                                                        \
    shmem_put(d, s, 2, right);                                                                  \
    shmem_put(SHMEM_CTX_DEFAULT, d + 2, s, 1, right);                                           \
    shmem_put_nbi(d + 10, s + 1, 1, right);                                                     \
    shmem_put_nbi(SHMEM_CTX_DEFAULT, d + 11, s, 1, right);                                      \
    shmem_p(d + 3, (T)(me + 5), right);                                                         \
    shmem_p(SHMEM_CTX_DEFAULT, d + 12, (T)(me + 6), right);                                     \
    shmem_iput(d + 4, s, 2, 1, 2, right);                                                       \
    shmem_iput(SHMEM_CTX_DEFAULT, d + 13, s, 2, 1, 2, right);                                   \
    shmem_put_signal(d + 8, s, 1, signal_word, 1, SHMEM_SIGNAL_ADD, right);                     \
    shmem_put_signal(SHMEM_CTX_DEFAULT, d + 16, s, 1, signal_word, 1, SHMEM_SIGNAL_ADD, right); \
    shmem_put_signal_nbi(d + 9, s + 1, 1, signal_word, 1, SHMEM_SIGNAL_ADD, right);             \
    shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, d + 17, s + 1, 1, signal_word, 1, SHMEM_SIGNAL_ADD, \
                         right);                                                                \
    shmem_barrier_all();                                                                        \
    CHECK(d[0] == (T)(left + 1) && d[1] == (T)(left + 2) && d[2] == (T)(left + 1));             \
    CHECK(d[3] == (T)(left + 5) && d[4] == (T)(left + 1) && d[5] == (T)0);                      \
    CHECK(d[6] == (T)(left + 2) && d[8] == (T)(left + 1) && d[9] == (T)(left + 2));             \
    CHECK(d[10] == (T)(left + 2) && d[11] == (T)(left + 1) && d[12] == (T)(left + 6));          \
    CHECK(d[13] == (T)(left + 1) && d[15] == (T)(left + 2));                                    \
    CHECK(d[16] == (T)(left + 1) && d[17] == (T)(left + 2));                                    \
    CHECK(shmem_g(d + 3, right) == (T)(me + 5));                                                \
    CHECK(shmem_g(SHMEM_CTX_DEFAULT, d + 12, right) == (T)(me + 6));                            \
    shmem_get(g, d, 2, right);                                                                  \
    shmem_get(SHMEM_CTX_DEFAULT, g + 2, d + 3, 1, right);                                       \
    CHECK(g[0] == (T)(me + 1) && g[1] == (T)(me + 2) && g[2] == (T)(me + 5));                   \
    shmem_get_nbi(g, d + 12, 1, right);                                                         \
    shmem_get_nbi(SHMEM_CTX_DEFAULT, g + 1, d + 10, 1, right);                                  \
    shmem_quiet();                                                                              \
    CHECK(g[0] == (T)(me + 6) && g[1] == (T)(me + 2));                                          \
    shmem_iget(g, d + 4, 1, 2, 2, right);                                                       \
    CHECK(g[0] == (T)(me + 1) && g[1] == (T)(me + 2));                                          \
    shmem_iget(SHMEM_CTX_DEFAULT, g + 2, d + 13, 1, 2, 2, right);                               \
    CHECK(g[2] == (T)(me + 1) && g[3] == (T)(me + 2));                                          \
    shmem_barrier_all();                                                                        \
    CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, c, s, 2, 0) == 0);                                  \
    CHECK(c[0] == (T)1 && c[1] == (T)2);                                                        \
    CHECK(shmem_collect(SHMEM_TEAM_WORLD, c + 2, s, 1) == 0);                                   \
    CHECK(shmem_fcollect(SHMEM_TEAM_WORLD, c + 6, s + 1, 1) == 0);                              \
    CHECK(c[2 + npes - 1] == (T)npes && c[6 + npes - 1] == (T)(npes + 1));                      \
    for (i = 0; i < npes; ++i) s[2 + i] = (T)(10 * me + i + 1); /* to PE i */                   \
    shmem_barrier_all();                                                                        \
    CHECK(shmem_alltoall(SHMEM_TEAM_WORLD, c + 10, s + 2, 1) == 0);                             \
    CHECK(shmem_alltoalls(SHMEM_TEAM_WORLD, c + 14, s + 2, 1, 1, 1) == 0);                      \
    CHECK(c[10] == (T)(me + 1) && c[10 + npes - 1] == (T)(10 * (npes - 1) + me + 1));           \
    CHECK(c[14] == (T)(me + 1) && c[14 + npes - 1] == (T)(10 * (npes - 1) + me + 1));           \
  }

/* fetch, set, swap: the standard atomic types and float, double. */
#define GT_AMO_EXTENDED(T, N)                                                     \
  {                                                                               \
    T *a = (T *)fresh_scratch(), f = (T)0;                                        \
    shmem_atomic_set(a, (T)3, right);                                             \
    shmem_atomic_set(SHMEM_CTX_DEFAULT, a + 1, (T)4, right);                      \
    shmem_barrier_all();                                                          \
    CHECK(a[0] == (T)3 && a[1] == (T)4);                                          \
    shmem_barrier_all(); /* before the left neighbour goes on with these words */ \
    CHECK(shmem_atomic_fetch(a, right) == (T)3);                                  \
    CHECK(shmem_atomic_fetch(SHMEM_CTX_DEFAULT, a + 1, right) == (T)4);           \
    CHECK(shmem_atomic_swap(a, (T)6, right) == (T)3);                             \
    CHECK(shmem_atomic_swap(SHMEM_CTX_DEFAULT, a, (T)7, right) == (T)6);          \
    shmem_atomic_fetch_nbi(&f, a, right);                                         \
    shmem_quiet();                                                                \
    CHECK(f == (T)7);                                                             \
    shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &f, a + 1, right);                  \
    shmem_quiet();                                                                \
    CHECK(f == (T)4);                                                             \
    shmem_atomic_swap_nbi(&f, a, (T)8, right);                                    \
    shmem_quiet();                                                                \
    CHECK(f == (T)7);                                                             \
    shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &f, a, (T)9, right);                 \
    shmem_quiet();                                                                \
    CHECK(f == (T)8);                                                             \
    GT_OLD_EXTENDED(T)                                                            \
  }
#ifndef __cplusplus /* the generic atomics of OpenSHMEM 1.3 are C11 names only */
#define GT_OLD_EXTENDED(T)                  \
  shmem_set(a + 2, (T)5, right);            \
  CHECK(shmem_fetch(a + 2, right) == (T)5); \
  CHECK(shmem_swap(a + 2, (T)2, right) == (T)5);
#define GT_OLD_STANDARD(T)                             \
  shmem_add(a, (T)1, right);                           \
  shmem_inc(a, right);                                 \
  CHECK(shmem_fadd(a, (T)1, right) == (T)14);          \
  CHECK(shmem_finc(a, right) == (T)15);                \
  CHECK(shmem_cswap(a, (T)16, (T)20, right) == (T)16); \
  CHECK(shmem_atomic_fetch(a, right) == (T)20);
#else
#define GT_OLD_EXTENDED(T)
#define GT_OLD_STANDARD(T)
#endif

/* add, inc, compare_swap and their fetching forms: the standard atomic types. */
#define GT_AMO_STANDARD(T, N)                                                          \
  {                                                                                    \
    T *a = (T *)fresh_scratch(), f = (T)0;                                             \
    shmem_atomic_add(a, (T)1, right);                                                  \
    shmem_atomic_add(SHMEM_CTX_DEFAULT, a, (T)1, right);                               \
    shmem_atomic_inc(a, right);                                                        \
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, a + 1, right);                                 \
    shmem_barrier_all();                                                               \
    CHECK(a[0] == (T)3 && a[1] == (T)1);                                               \
    shmem_barrier_all(); /* before the left neighbour goes on with these words */      \
    CHECK(shmem_atomic_fetch_add(a, (T)1, right) == (T)3);                             \
    CHECK(shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, a + 1, (T)1, right) == (T)1);      \
    CHECK(shmem_atomic_fetch_inc(a, right) == (T)4);                                   \
    CHECK(shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, a + 1, right) == (T)2);            \
    CHECK(shmem_atomic_compare_swap(a, (T)5, (T)8, right) == (T)5);                    \
    CHECK(shmem_atomic_compare_swap(SHMEM_CTX_DEFAULT, a, (T)8, (T)9, right) == (T)8); \
    shmem_atomic_fetch_add_nbi(&f, a, (T)1, right);                                    \
    shmem_quiet();                                                                     \
    CHECK(f == (T)9);                                                                  \
    shmem_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, &f, a + 1, (T)1, right);             \
    shmem_quiet();                                                                     \
    CHECK(f == (T)3);                                                                  \
    shmem_atomic_fetch_inc_nbi(&f, a, right);                                          \
    shmem_quiet();                                                                     \
    CHECK(f == (T)10);                                                                 \
    shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &f, a + 1, right);                   \
    shmem_quiet();                                                                     \
    CHECK(f == (T)4);                                                                  \
    shmem_atomic_compare_swap_nbi(&f, a, (T)11, (T)12, right);                         \
    shmem_quiet();                                                                     \
    CHECK(f == (T)11);                                                                 \
    shmem_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, &f, a, (T)12, (T)12, right);      \
    shmem_quiet();                                                                     \
    CHECK(f == (T)12);                                                                 \
    GT_OLD_STANDARD(T)                                                                 \
  }

/* and, or, xor and their fetching forms: the bitwise atomic types. */
#define GT_AMO_BITWISE(T, N)                                                      \
  {                                                                               \
    T *a = (T *)fresh_scratch(), f = (T)0;                                        \
    shmem_atomic_or(a, (T)6, right);                                              \
    shmem_atomic_and(a, (T)3, right);                                             \
    shmem_atomic_xor(a, (T)3, right);                                             \
    shmem_atomic_or(SHMEM_CTX_DEFAULT, a + 1, (T)7, right);                       \
    shmem_atomic_and(SHMEM_CTX_DEFAULT, a + 1, (T)5, right);                      \
    shmem_atomic_xor(SHMEM_CTX_DEFAULT, a + 1, (T)1, right);                      \
    shmem_barrier_all();                                                          \
    CHECK(a[0] == (T)1 && a[1] == (T)4);                                          \
    shmem_barrier_all(); /* before the left neighbour goes on with these words */ \
    CHECK(shmem_atomic_fetch_or(a, (T)4, right) == (T)1);                         \
    CHECK(shmem_atomic_fetch_and(a, (T)6, right) == (T)5);                        \
    CHECK(shmem_atomic_fetch_xor(a, (T)1, right) == (T)4);                        \
    CHECK(shmem_atomic_fetch_or(SHMEM_CTX_DEFAULT, a + 1, (T)2, right) == (T)4);  \
    CHECK(shmem_atomic_fetch_and(SHMEM_CTX_DEFAULT, a + 1, (T)3, right) == (T)6); \
    CHECK(shmem_atomic_fetch_xor(SHMEM_CTX_DEFAULT, a + 1, (T)3, right) == (T)2); \
    shmem_atomic_fetch_or_nbi(&f, a, (T)2, right);                                \
    shmem_quiet();                                                                \
    CHECK(f == (T)5);                                                             \
    shmem_atomic_fetch_and_nbi(&f, a, (T)3, right);                               \
    shmem_quiet();                                                                \
    CHECK(f == (T)7);                                                             \
    shmem_atomic_fetch_xor_nbi(&f, a, (T)1, right);                               \
    shmem_quiet();                                                                \
    CHECK(f == (T)3);                                                             \
    shmem_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, &f, a + 1, (T)4, right);         \
    shmem_quiet();                                                                \
    CHECK(f == (T)1);                                                             \
    shmem_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &f, a + 1, (T)4, right);        \
    shmem_quiet();                                                                \
    CHECK(f == (T)5);                                                             \
    shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &f, a + 1, (T)6, right);        \
    shmem_quiet();                                                                \
    CHECK(f == (T)4 && shmem_atomic_fetch(a, right) == (T)2);                     \
    CHECK(shmem_atomic_fetch(a + 1, right) == (T)2);                              \
  }

/* wait_until and test in every form on {0, 1, 1}: a call that read another width would see
 * other values. */
#define GT_P2P(T, N)                                                                             \
  {                                                                                              \
    T *v = (T *)fresh_scratch(), t[3] = {(T)1, (T)1, (T)1};                                      \
    size_t idx[3] = {9, 9, 9}, k;                                                                \
    v[1] = v[2] = (T)1;                                                                          \
    shmem_wait_until(v + 1, SHMEM_CMP_EQ, (T)1);                                                 \
    shmem_wait_until_all(v + 1, 2, NULL, SHMEM_CMP_EQ, (T)1);                                    \
    k = shmem_wait_until_any(v, 3, NULL, SHMEM_CMP_EQ, (T)1);                                    \
    CHECK(k == 1 || k == 2);                                                                     \
    CHECK(shmem_wait_until_some(v, 3, idx, NULL, SHMEM_CMP_EQ, (T)1) == 2);                      \
    CHECK(idx[0] == 1 && idx[1] == 2);                                                           \
    shmem_wait_until_all_vector(v + 1, 2, NULL, SHMEM_CMP_EQ, t);                                \
    k = shmem_wait_until_any_vector(v, 3, NULL, SHMEM_CMP_EQ, t);                                \
    CHECK(k == 1 || k == 2);                                                                     \
    CHECK(shmem_wait_until_some_vector(v, 3, idx, NULL, SHMEM_CMP_EQ, t) == 2);                  \
    CHECK(shmem_test(v + 1, SHMEM_CMP_EQ, (T)1) == 1 && shmem_test(v, SHMEM_CMP_EQ, (T)1) == 0); \
    CHECK(shmem_test_all(v, 3, NULL, SHMEM_CMP_EQ, (T)1) == 0);                                  \
    k = shmem_test_any(v, 3, NULL, SHMEM_CMP_EQ, (T)1);                                          \
    CHECK(k == 1 || k == 2);                                                                     \
    CHECK(shmem_test_some(v, 3, idx, NULL, SHMEM_CMP_EQ, (T)1) == 2);                            \
    CHECK(shmem_test_all_vector(v + 1, 2, NULL, SHMEM_CMP_EQ, t) == 1);                          \
    k = shmem_test_any_vector(v, 3, NULL, SHMEM_CMP_EQ, t);                                      \
    CHECK(k == 1 || k == 2);                                                                     \
    CHECK(shmem_test_some_vector(v, 3, idx, NULL, SHMEM_CMP_EQ, t) == 2);                        \
  }

/* The reductions over the world, each PE giving me + 1 and me + 2. */
#define GT_REDUCE_START(T)             \
  T *r = (T *)fresh_scratch(), e0, e1; \
  int i;                               \
  r[0] = (T)(me + 1);                  \
  r[1] = (T)(me + 2);                  \
  shmem_barrier_all();
#define GT_REDUCE_BITWISE(T, N)                                      \
  {                                                                  \
    GT_REDUCE_START(T)                                               \
    CHECK(shmem_and_reduce(SHMEM_TEAM_WORLD, r + 4, r, 2) == 0);     \
    CHECK(shmem_or_reduce(SHMEM_TEAM_WORLD, r + 6, r, 2) == 0);      \
    CHECK(shmem_xor_reduce(SHMEM_TEAM_WORLD, r + 8, r, 2) == 0);     \
    for (e0 = (T)1, i = 1; i < npes; ++i) e0 = (T)(e0 & (T)(i + 1)); \
    for (e1 = (T)0, i = 0; i < npes; ++i) e1 = (T)(e1 | (T)(i + 2)); \
    CHECK(r[4] == e0 && r[7] == e1);                                 \
    for (e0 = (T)0, i = 0; i < npes; ++i) e0 = (T)(e0 ^ (T)(i + 1)); \
    CHECK(r[8] == e0);                                               \
  }
#define GT_REDUCE_MINMAX(T, N)                                   \
  {                                                              \
    GT_REDUCE_START(T)                                           \
    (void)e0;                                                    \
    (void)e1;                                                    \
    (void)i;                                                     \
    CHECK(shmem_max_reduce(SHMEM_TEAM_WORLD, r + 4, r, 2) == 0); \
    CHECK(shmem_min_reduce(SHMEM_TEAM_WORLD, r + 6, r, 2) == 0); \
    CHECK(r[4] == (T)npes && r[5] == (T)(npes + 1));             \
    CHECK(r[6] == (T)1 && r[7] == (T)2);                         \
  }
#define GT_REDUCE_ARITH(T, N)                                     \
  {                                                               \
    GT_REDUCE_START(T)                                            \
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, r + 4, r, 2) == 0);  \
    CHECK(shmem_prod_reduce(SHMEM_TEAM_WORLD, r + 6, r, 2) == 0); \
    for (e0 = (T)0, e1 = (T)1, i = 0; i < npes; ++i) {            \
      e0 = e0 + (T)(i + 1);                                       \
      e1 = e1 * (T)(i + 2);                                       \
    }                                                             \
    CHECK(r[4] == e0 && r[7] == e1);                              \
  }

static int run_generic_types(const char *name) {
  shmem_init();
  shmem_test_ring(&me, &npes, &right, &left);
  scratch = (unsigned char *)shmem_calloc(64, 32);
  signal_word = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  if (!scratch || !signal_word) {
    fprintf(stderr, "pe %d: shmem_calloc failed\n", me);
    return 1;
  }
  ISHMEMX_RMA_TYPES(GT_RMA)
  ISHMEMX_AMO_STANDARD_TYPES(GT_AMO_EXTENDED)
  ISHMEMX_AMO_EXTENDED_ONLY_TYPES(GT_AMO_EXTENDED)
  ISHMEMX_AMO_STANDARD_TYPES(GT_AMO_STANDARD)
  ISHMEMX_AMO_BITWISE_TYPES(GT_AMO_BITWISE)
  ISHMEMX_P2P_TYPES(GT_P2P)
  ISHMEMX_REDUCE_BITWISE_TYPES(GT_REDUCE_BITWISE)
  ISHMEMX_REDUCE_MINMAX_TYPES(GT_REDUCE_MINMAX)
  ISHMEMX_REDUCE_ARITH_TYPES(GT_REDUCE_ARITH)
  shmem_barrier_all();
  shmem_free(signal_word);
  shmem_free(scratch);
  return shmem_test_finish(name);
}
