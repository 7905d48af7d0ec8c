/* The OpenSHMEM names from before 1.4 that programs still use, and the active-set calls that
 * 1.5 deprecates, over the shmem_ calls of shmem.h (so they follow its error policy). Included
 * by shmem.h; not meant to be included alone. */
#ifndef ISHMEM_SHMEM_OLD_NAMES_H
#define ISHMEM_SHMEM_OLD_NAMES_H

#ifdef __cplusplus
extern "C" {
#endif

#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* Setup and memory (OpenSHMEM 1.0-1.2). start_pes ignores its argument, as 1.2 allowed. */
static inline void start_pes(int npes) {
  (void)npes;
  shmem_init();
}
static inline int _my_pe(void) {
  return shmem_my_pe();
}
static inline int _num_pes(void) {
  return shmem_n_pes();
}
static inline void *shmalloc(size_t size) {
  return shmem_malloc(size);
}
static inline void shfree(void *ptr) {
  (void)shmem_free(ptr);
}
static inline void *shrealloc(void *ptr, size_t size) {
  return shmem_realloc(ptr, size);
}
static inline void *shmemalign(size_t alignment, size_t size) {
  return shmem_align(alignment, size);
}
/* Cache management of old Cray and SGI machines: nothing to do on coherent memory. */
static inline void shmem_clear_cache_inv(void) {}
static inline void shmem_set_cache_inv(void) {}
static inline void shmem_clear_cache_line_inv(void *dest) {
  (void)dest;
}
static inline void shmem_set_cache_line_inv(void *dest) {
  (void)dest;
}
static inline void shmem_udcflush(void) {}
static inline void shmem_udcflush_line(void *dest) {
  (void)dest;
}

/* Atomics before the atomic_ names (1.3): fadd, finc, add, inc, cswap on int, long, long
 * long; swap, fetch, set also on float and double. */
#define ISHMEMI_SHMEM_OLD_EXTENDED(T, N)                                       \
  static inline T shmem_##N##_swap(T *dest, T value, int pe) {                 \
    return shmem_##N##_atomic_swap(dest, value, pe);                           \
  }                                                                            \
  static inline T shmem_##N##_fetch(const T *source, int pe) {                 \
    return shmem_##N##_atomic_fetch(source, pe);                               \
  }                                                                            \
  static inline ISHMEMI_SHMEM_VOID shmem_##N##_set(T *dest, T value, int pe) { \
    ISHMEMI_SHMEM_RETURN(shmem_##N##_atomic_set(dest, value, pe));             \
  }
#define ISHMEMI_SHMEM_OLD_STANDARD(T, N)                                       \
  ISHMEMI_SHMEM_OLD_EXTENDED(T, N)                                             \
  static inline T shmem_##N##_fadd(T *dest, T value, int pe) {                 \
    return shmem_##N##_atomic_fetch_add(dest, value, pe);                      \
  }                                                                            \
  static inline T shmem_##N##_finc(T *dest, int pe) {                          \
    return shmem_##N##_atomic_fetch_inc(dest, pe);                             \
  }                                                                            \
  static inline T shmem_##N##_cswap(T *dest, T cond, T value, int pe) {        \
    return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);             \
  }                                                                            \
  static inline ISHMEMI_SHMEM_VOID shmem_##N##_add(T *dest, T value, int pe) { \
    ISHMEMI_SHMEM_RETURN(shmem_##N##_atomic_add(dest, value, pe));             \
  }                                                                            \
  static inline ISHMEMI_SHMEM_VOID shmem_##N##_inc(T *dest, int pe) {          \
    ISHMEMI_SHMEM_RETURN(shmem_##N##_atomic_inc(dest, pe));                    \
  }
ISHMEMI_SHMEM_OLD_STANDARD(int, int)
ISHMEMI_SHMEM_OLD_STANDARD(long, long)
ISHMEMI_SHMEM_OLD_STANDARD(long long, longlong)
ISHMEMI_SHMEM_OLD_EXTENDED(float, float)
ISHMEMI_SHMEM_OLD_EXTENDED(double, double)

/* shmem_TYPE_wait and shmem_wait: wait until *ivar differs from cmp_value. */
#define ISHMEMI_SHMEM_OLD_WAIT(T, N)                                             \
  static inline ISHMEMI_SHMEM_VOID shmem_##N##_wait(T *ivar, T cmp_value) {      \
    ISHMEMI_SHMEM_RETURN(shmem_##N##_wait_until(ivar, SHMEM_CMP_NE, cmp_value)); \
  }
ISHMEMI_SHMEM_OLD_WAIT(short, short)
ISHMEMI_SHMEM_OLD_WAIT(int, int)
ISHMEMI_SHMEM_OLD_WAIT(long, long)
ISHMEMI_SHMEM_OLD_WAIT(long long, longlong)
static inline ISHMEMI_SHMEM_VOID shmem_wait(long *ivar, long cmp_value) {
  ISHMEMI_SHMEM_RETURN(shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value));
}

/* ---- Active-set collectives and their constants (ishmem/deprecated.h) ------------------ */

#define SHMEM_SYNC_VALUE ISHMEM_SYNC_VALUE
#define SHMEM_SYNC_SIZE ISHMEM_SYNC_SIZE
#define SHMEM_BCAST_SYNC_SIZE ISHMEM_BCAST_SYNC_SIZE
#define SHMEM_BARRIER_SYNC_SIZE ISHMEM_BARRIER_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE ISHMEM_REDUCE_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE ISHMEM_REDUCE_MIN_WRKDATA_SIZE
#define SHMEM_COLLECT_SYNC_SIZE ISHMEM_COLLECT_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE ISHMEM_ALLTOALL_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE ISHMEM_ALLTOALLS_SYNC_SIZE
#define SHMEM_MALLOC_ATOMICS_REMOTE ISHMEM_MALLOC_ATOMICS_REMOTE
#define SHMEM_MALLOC_SIGNAL_REMOTE ISHMEM_MALLOC_SIGNAL_REMOTE
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE

#define ISHMEMI_SHMEM_ACTIVE_SET int PE_start, int logPE_stride, int PE_size, long *pSync
#define ISHMEMI_SHMEM_ACTIVE_ARGS PE_start, logPE_stride, PE_size, pSync
ISHMEMI_SHMEM_VOID_CALL(barrier, (ISHMEMI_SHMEM_ACTIVE_SET), (ISHMEMI_SHMEM_ACTIVE_ARGS))
ISHMEMI_SHMEM_VOID_CALL(sync, (ISHMEMI_SHMEM_ACTIVE_SET), (ISHMEMI_SHMEM_ACTIVE_ARGS))
/* shmem_sync(team) of OpenSHMEM 1.5 beside the active-set form above: an overload in C++
 * (below, outside extern "C"); in C, picked by the number of arguments (the inner shmem_sync
 * is the function: a macro is not expanded in its own expansion). */
#ifndef __cplusplus
#define shmemi_sync_form(_1, _2, _3, _4, NAME, ...) NAME
#define shmem_sync(...) \
  shmemi_sync_form(__VA_ARGS__, shmem_sync, ~, ~, shmem_team_sync, ~)(__VA_ARGS__)
#endif
#define ISHMEMI_SHMEM_SIZED_COLLECTIVES(BITS)                                                    \
  ISHMEMI_SHMEM_VOID_CALL(                                                                       \
      broadcast##BITS,                                                                           \
      (void *dest, const void *source, size_t nelems, int PE_root, ISHMEMI_SHMEM_ACTIVE_SET),    \
      (dest, source, nelems, PE_root, ISHMEMI_SHMEM_ACTIVE_ARGS))                                \
  ISHMEMI_SHMEM_VOID_CALL(                                                                       \
      collect##BITS, (void *dest, const void *source, size_t nelems, ISHMEMI_SHMEM_ACTIVE_SET),  \
      (dest, source, nelems, ISHMEMI_SHMEM_ACTIVE_ARGS))                                         \
  ISHMEMI_SHMEM_VOID_CALL(                                                                       \
      fcollect##BITS, (void *dest, const void *source, size_t nelems, ISHMEMI_SHMEM_ACTIVE_SET), \
      (dest, source, nelems, ISHMEMI_SHMEM_ACTIVE_ARGS))                                         \
  ISHMEMI_SHMEM_VOID_CALL(                                                                       \
      alltoall##BITS, (void *dest, const void *source, size_t nelems, ISHMEMI_SHMEM_ACTIVE_SET), \
      (dest, source, nelems, ISHMEMI_SHMEM_ACTIVE_ARGS))                                         \
  ISHMEMI_SHMEM_VOID_CALL(alltoalls##BITS,                                                       \
                          (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,         \
                           size_t nelems, ISHMEMI_SHMEM_ACTIVE_SET),                             \
                          (dest, source, dst, sst, nelems, ISHMEMI_SHMEM_ACTIVE_ARGS))
ISHMEMI_SHMEM_SIZED_COLLECTIVES(32)
ISHMEMI_SHMEM_SIZED_COLLECTIVES(64)
ISHMEMI_TO_ALL_CALLS(ISHMEMI_SHMEM_F)
ISHMEMI_SHMEM_VOID_CALL(pcontrol, (int level, ...), (level))
ISHMEMI_SHMEM_PASS_CALL(void *, malloc_with_hints, (size_t size, long hints), (size, hints))

#ifdef __cplusplus
}
static inline int shmem_sync(shmem_team_t team) {
  return shmem_team_sync(team);
}
#endif

#endif /* ISHMEM_SHMEM_OLD_NAMES_H */
