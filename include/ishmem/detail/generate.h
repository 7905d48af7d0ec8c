/* The generators: every device-side name of ishmem/device.h, from the signature lists
 * (ishmem/detail/signatures.h) and the type tables (ishmem/types.h).
 *  - Handle form, everywhere: overloads of the standard names with a leading
 *    ishmemx_device_handle_t. On a GPU they call the ishmemi operation; as plain C++ they
 *    forward to the host call of the same name.
 *  - No-argument form: on a GPU with relocatable device code, the standard names themselves
 *    as device functions reading the device library's state; as plain C++ the standard names
 *    are the host library's.
 *  - Group forms (ishmemx_*_warp, _block), in both forms.
 * Internal: included once, by ishmem/device.h, which undefines every name defined here. */

/* Handle parameter spellings, function-like so that they pass through the generators
 * unexpanded: with the handle (H) or without (NOARG), before more parameters or alone. The
 * handle is taken by value: bound to a reference, a kernel argument would be copied to local
 * memory and reloaded around every volatile store. */
#define ISHMEMI_H() ishmemx_device_handle_t ishmemi_h,
#define ISHMEMI_H_ONLY() ishmemx_device_handle_t ishmemi_h
#define ISHMEMI_NOARG()
#define ISHMEMI_NOARG_ONLY()

/* Calls with no signature list of their own (the host defines them by hand): F0 for those
 * without parameters. */
#define ISHMEMI_CORE_CALLS(F, F0)                                                          \
  F0(int, quiet, quiet)                                                                    \
  F0(int, fence, fence)                                                                    \
  F0(int, my_pe, my_pe)                                                                    \
  F0(int, n_pes, n_pes)                                                                    \
  F0(int, barrier_all, barrier_all)                                                        \
  F0(int, sync_all, sync_all)                                                              \
  F(void *, ptr, (const void *dest, int pe), (dest, pe), ptr, void)                        \
  F(int, team_my_pe, (ishmem_team_t team), (team), team_my_pe, void)                       \
  F(int, team_n_pes, (ishmem_team_t team), (team), team_n_pes, void)                       \
  F(int, team_translate_pe, (ishmem_team_t src_team, int src_pe, ishmem_team_t dest_team), \
    (src_team, src_pe, dest_team), team_translate_pe, void)                                \
  F(int, team_sync, (ishmem_team_t team), (team), team_sync_thread, void)

/* Every call with a standard OpenSHMEM name and a device form, applied to ISHMEMI_F. */
#define ISHMEMI_RMA_TYPED_F(T, N) ISHMEMI_RMA_TYPED_CALLS(ISHMEMI_F, T, N)
#define ISHMEMI_AMO_EXTENDED_F(T, N) ISHMEMI_AMO_EXTENDED_CALLS(ISHMEMI_F, T, N)
#define ISHMEMI_AMO_STANDARD_F(T, N) ISHMEMI_AMO_STANDARD_CALLS(ISHMEMI_F, T, N)
#define ISHMEMI_AMO_BITWISE_F(T, N) ISHMEMI_AMO_BITWISE_CALLS(ISHMEMI_F, T, N)
#define ISHMEMI_SIGNAL_TYPED_F(T, N) ISHMEMI_SIGNAL_TYPED_CALLS(ISHMEMI_F, T, N)
#define ISHMEMI_P2P_F(T, N) ISHMEMI_P2P_CALLS(ISHMEMI_F, T, N)
#define ISHMEMI_DEVICE_CALLS                              \
  ISHMEMI_CORE_CALLS(ISHMEMI_F, ISHMEMI_F0)               \
  ISHMEMI_RMA_BYTES_CALLS(ISHMEMI_F)                      \
  ISHMEMX_RMA_DEVICE_TYPES(ISHMEMI_RMA_TYPED_F)           \
  ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_AMO_EXTENDED_F)      \
  ISHMEMX_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_AMO_EXTENDED_F) \
  ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_AMO_STANDARD_F)      \
  ISHMEMX_AMO_BITWISE_TYPES(ISHMEMI_AMO_BITWISE_F)        \
  ISHMEMI_SIGNAL_PUT_CALLS(ISHMEMI_F)                     \
  ISHMEMX_RMA_DEVICE_TYPES(ISHMEMI_SIGNAL_TYPED_F)        \
  ISHMEMI_SIGNAL_READ_CALLS(ISHMEMI_F)                    \
  ISHMEMX_P2P_TYPES(ISHMEMI_P2P_F)

/* Group forms (device-only extension names): PREFIX is the storage, H0/H1 the handle
 * parameter and the handle expression passed on; NAME is warp or block, G the group. */
#define ISHMEMI_GROUP_CALLS(PREFIX, H0, H1, NAME, G)                                              \
  PREFIX int ishmemx_putmem_##NAME(H0() void *dest, const void *source, size_t nbytes, int pe) {  \
    return ::ishmemi::put_group<G, false>(H1, dest, source, nbytes, pe);                          \
  }                                                                                               \
  PREFIX int ishmemx_getmem_##NAME(H0() void *dest, const void *source, size_t nbytes, int pe) {  \
    return ::ishmemi::get_group<G, false>(H1, dest, source, nbytes, pe);                          \
  }                                                                                               \
  PREFIX int ishmemx_putmem_nbi_##NAME(H0() void *dest, const void *source, size_t nbytes,        \
                                       int pe) {                                                  \
    return ::ishmemi::put_group<G, true>(H1, dest, source, nbytes, pe);                           \
  }                                                                                               \
  PREFIX int ishmemx_getmem_nbi_##NAME(H0() void *dest, const void *source, size_t nbytes,        \
                                       int pe) {                                                  \
    return ::ishmemi::get_group<G, true>(H1, dest, source, nbytes, pe);                           \
  }                                                                                               \
  PREFIX int ishmemx_putmem_signal_##NAME(H0() void *dest, const void *source, size_t nbytes,     \
                                          uint64_t *sig_addr, uint64_t signal, int sig_op,        \
                                          int pe) {                                               \
    return ::ishmemi::put_signal_group<G, false>(H1, dest, source, nbytes, sig_addr, signal,      \
                                                 sig_op, pe);                                     \
  }                                                                                               \
  PREFIX int ishmemx_putmem_signal_nbi_##NAME(H0() void *dest, const void *source, size_t nbytes, \
                                              uint64_t *sig_addr, uint64_t signal, int sig_op,    \
                                              int pe) {                                           \
    return ::ishmemi::put_signal_group<G, true>(H1, dest, source, nbytes, sig_addr, signal,       \
                                                sig_op, pe);                                      \
  }
#define ISHMEMI_EXTENSIONS(PREFIX, H0, H1)                         \
  ISHMEMI_GROUP_CALLS(PREFIX, H0, H1, warp, ::ishmemi::Warp)       \
  ISHMEMI_GROUP_CALLS(PREFIX, H0, H1, block, ::ishmemi::Block)     \
  PREFIX int ishmemx_barrier_all_block(H0##_ONLY()) {              \
    return ::ishmemi::barrier_block<true>(H1);                     \
  }                                                                \
  PREFIX int ishmemx_sync_all_block(H0##_ONLY()) {                 \
    return ::ishmemi::barrier_block<false>(H1);                    \
  }                                                                \
  PREFIX int ishmemx_team_sync_warp(H0() ishmem_team_t team) {     \
    return ::ishmemi::team_sync_group<::ishmemi::Warp>(H1, team);  \
  }                                                                \
  PREFIX int ishmemx_team_sync_block(H0() ishmem_team_t team) {    \
    return ::ishmemi::team_sync_group<::ishmemi::Block>(H1, team); \
  }

/* The collectives' device forms (ishmem/collectives.h lists them): ishmemx_STEM_warp, _block and
 * _grid, with the storage, handle parameter and handle expression in ISHMEMI_COLL_PREFIX,
 * ISHMEMI_COLL_H0 and ISHMEMI_COLL_H1, set before each expansion. ISHMEMI_COLL_BODY is the
 * call: a device operation on a GPU, the host call as plain C++. */
#define ISHMEMI_COLL_FORM(STEM, SUFFIX, PARAMS, ARGS, OP, TARG, G, L)                           \
  ISHMEMI_COLL_PREFIX int ishmemx_##STEM##_##SUFFIX(ISHMEMI_COLL_H0() ISHMEMI_UNPAREN PARAMS) { \
    return ISHMEMI_COLL_BODY(STEM, ARGS, OP, TARG, G, L);                                       \
  }
#define ISHMEMI_COLL_F(RET, STEM, PARAMS, ARGS, OP, TARG)                            \
  ISHMEMI_COLL_FORM(STEM, warp, PARAMS, ARGS, OP, TARG, ::ishmemi::Warp, one_lane)   \
  ISHMEMI_COLL_FORM(STEM, block, PARAMS, ARGS, OP, TARG, ::ishmemi::Block, one_lane) \
  ISHMEMI_COLL_FORM(STEM, grid, PARAMS, ARGS, OP, TARG, ::ishmemi::Block, grid_lanes)
#define ISHMEMI_COLL_TYPED_F(T, N) ISHMEMI_COLLECTIVE_TYPED_CALLS(ISHMEMI_COLL_F, T, N)
#define ISHMEMI_COLL_BITWISE_F(T, N) ISHMEMI_REDUCE_BITWISE_CALLS(ISHMEMI_COLL_F, T, N)
#define ISHMEMI_COLL_MINMAX_F(T, N) ISHMEMI_REDUCE_MINMAX_CALLS(ISHMEMI_COLL_F, T, N)
#define ISHMEMI_COLL_ARITH_F(T, N) ISHMEMI_REDUCE_ARITH_CALLS(ISHMEMI_COLL_F, T, N)
#define ISHMEMI_COLLECTIVE_FORMS                            \
  ISHMEMI_COLLECTIVE_BYTES_CALLS(ISHMEMI_COLL_F)            \
  ISHMEMX_RMA_DEVICE_TYPES(ISHMEMI_COLL_TYPED_F)            \
  ISHMEMX_REDUCE_BITWISE_TYPES(ISHMEMI_COLL_BITWISE_F)      \
  ISHMEMX_REDUCE_MINMAX_DEVICE_TYPES(ISHMEMI_COLL_MINMAX_F) \
  ISHMEMX_REDUCE_ARITH_DEVICE_TYPES(ISHMEMI_COLL_ARITH_F)

#if defined(ISHMEMI_GPU)
/* ---- Handle form ---------------------------------------------------------------------------- */
#define ISHMEMI_F(RET, STEM, PARAMS, ARGS, OP, TARG)                                        \
  ISHMEMI_FN RET ishmem_##STEM(ishmemx_device_handle_t ishmemi_h, ISHMEMI_UNPAREN PARAMS) { \
    return ::ishmemi::OP<TARG>(ishmemi_h, ISHMEMI_UNPAREN ARGS);                            \
  }
#define ISHMEMI_F0(RET, STEM, OP)                                   \
  ISHMEMI_FN RET ishmem_##STEM(ishmemx_device_handle_t ishmemi_h) { \
    return ::ishmemi::OP(ishmemi_h);                                \
  }
ISHMEMI_DEVICE_CALLS
#undef ISHMEMI_F
#undef ISHMEMI_F0
ISHMEMI_EXTENSIONS(ISHMEMI_FN, ISHMEMI_H, ishmemi_h)
#define ISHMEMI_COLL_BODY(STEM, ARGS, OP, TARG, G, L) \
  ::ishmemi::OP<TARG, G>(ISHMEMI_COLL_H1, ::ishmemi::L(), ISHMEMI_UNPAREN ARGS)
#define ISHMEMI_COLL_PREFIX ISHMEMI_FN
#define ISHMEMI_COLL_H0 ISHMEMI_H
#define ISHMEMI_COLL_H1 ishmemi_h
ISHMEMI_COLLECTIVE_FORMS

/* ---- No-argument form (relocatable device code) --------------------------------------------- */
#if defined(ISHMEMI_DEVICE_STATE)
/* The device library's copy of the layout (ishmem::device), set at ishmem_init. */
extern __constant__ ishmemx_device_handle_t ishmemi_device_state;
ISHMEMI_EXTENSIONS(ISHMEMI_FN, ISHMEMI_NOARG, ishmemi_device_state)
#undef ISHMEMI_COLL_H0
#undef ISHMEMI_COLL_H1
#define ISHMEMI_COLL_H0 ISHMEMI_NOARG
#define ISHMEMI_COLL_H1 ishmemi_device_state
ISHMEMI_COLLECTIVE_FORMS

/* The standard names are also host functions (ishmem.h). nvcc merges a device definition
 * with the host declaration into one __host__ __device__ function, so it sees the device
 * body only in its device pass; clang overloads on __device__ and sees it in both. */
#if defined(ISHMEMI_GPU_NVCC) && defined(__CUDA_ARCH__)
#define ISHMEMI_NOARG_API extern "C" __host__ __device__ __forceinline__
#pragma nv_diag_suppress 20040
#elif defined(ISHMEMI_GPU_CLANG)
#define ISHMEMI_NOARG_API extern "C" __device__ __forceinline__
#endif
#ifdef ISHMEMI_NOARG_API
#define ISHMEMI_F(RET, STEM, PARAMS, ARGS, OP, TARG)                        \
  ISHMEMI_NOARG_API RET ishmem_##STEM PARAMS {                              \
    return ::ishmemi::OP<TARG>(ishmemi_device_state, ISHMEMI_UNPAREN ARGS); \
  }
#define ISHMEMI_F0(RET, STEM, OP)               \
  ISHMEMI_NOARG_API RET ishmem_##STEM(void) {   \
    return ::ishmemi::OP(ishmemi_device_state); \
  }
ISHMEMI_DEVICE_CALLS
#undef ISHMEMI_F
#undef ISHMEMI_F0
#endif
#if defined(ISHMEMI_GPU_NVCC) && defined(__CUDA_ARCH__)
#pragma nv_diag_default 20040
#endif
#endif /* ISHMEMI_DEVICE_STATE */

#else
/* ---- Plain C++: handle overloads forward to the host call of the same name ------------------ */
#define ISHMEMI_F(RET, STEM, PARAMS, ARGS, OP, TARG)                          \
  inline RET ishmem_##STEM(ishmemx_device_handle_t, ISHMEMI_UNPAREN PARAMS) { \
    return ishmem_##STEM ARGS;                                                \
  }
#define ISHMEMI_F0(RET, STEM, OP)                     \
  inline RET ishmem_##STEM(ishmemx_device_handle_t) { \
    return ishmem_##STEM();                           \
  }
ISHMEMI_DEVICE_CALLS
#undef ISHMEMI_F
#undef ISHMEMI_F0
ISHMEMI_EXTENSIONS(inline, ISHMEMI_H, ishmemi_h)
ISHMEMI_EXTENSIONS(inline, ISHMEMI_NOARG, ::ishmemi::host_state())
#define ISHMEMI_COLL_BODY(STEM, ARGS, OP, TARG, G, L) ishmem_##STEM ARGS
#define ISHMEMI_COLL_PREFIX inline
#define ISHMEMI_COLL_H0 ISHMEMI_H
ISHMEMI_COLLECTIVE_FORMS
#undef ISHMEMI_COLL_H0
#define ISHMEMI_COLL_H0 ISHMEMI_NOARG
ISHMEMI_COLLECTIVE_FORMS
#endif
