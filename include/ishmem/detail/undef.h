/* Undefines every internal macro of the device headers (compile mode, generators) and the
 * signature lists, so that of ishmem's macros only the documented ISHMEM_ and ISHMEMX_ names
 * reach users' code (tests/header_macros.sh checks it). Internal: included at the end of
 * ishmem/device.h; no include guard. */
#include "ishmem/detail/signatures_end.h"
#undef ISHMEMI_AMO_BITWISE_F
#undef ISHMEMI_AMO_EXTENDED_F
#undef ISHMEMI_AMO_STANDARD_F
#undef ISHMEMI_COLL_ARITH_F
#undef ISHMEMI_COLL_BITWISE_F
#undef ISHMEMI_COLL_BODY
#undef ISHMEMI_COLL_F
#undef ISHMEMI_COLL_FORM
#undef ISHMEMI_COLL_H0
#undef ISHMEMI_COLL_H1
#undef ISHMEMI_COLL_MINMAX_F
#undef ISHMEMI_COLL_PREFIX
#undef ISHMEMI_COLL_TYPED_F
#undef ISHMEMI_COLLECTIVE_BYTES_CALLS
#undef ISHMEMI_COLLECTIVE_FORMS
#undef ISHMEMI_COLLECTIVE_TYPED_CALLS
#undef ISHMEMI_CORE_CALLS
#undef ISHMEMI_KEEP_COLLECTIVE_LISTS
#undef ISHMEMI_REDUCE_ARITH_CALLS
#undef ISHMEMI_REDUCE_BITWISE_CALLS
#undef ISHMEMI_REDUCE_CALL
#undef ISHMEMI_REDUCE_MINMAX_CALLS
#undef ISHMEMI_DEVICE_CALLS
#undef ISHMEMI_DEVICE_STATE
#undef ISHMEMI_EXTENSIONS
#undef ISHMEMI_F
#undef ISHMEMI_F0
#undef ISHMEMI_FN
#undef ISHMEMI_GPU
#undef ISHMEMI_GPU_AMD
#undef ISHMEMI_GPU_CLANG
#undef ISHMEMI_GPU_NVCC
#undef ISHMEMI_GROUP_CALLS
#undef ISHMEMI_H
#undef ISHMEMI_H_ONLY
#undef ISHMEMI_NOARG
#undef ISHMEMI_NOARG_API
#undef ISHMEMI_NOARG_ONLY
#undef ISHMEMI_P2P_F
#undef ISHMEMI_PROXY_IN_LIBRARY
#undef ISHMEMI_RMA_TYPED_F
#undef ISHMEMI_SIGNAL_TYPED_F
#include "ishmem/detail/deprecated_end.h"
