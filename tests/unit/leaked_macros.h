// The internal macros of ishmem's headers, old and new (generators, compile-mode flags, vendor
// helpers): after #include <ishmem/device.h> none may be defined in users' code. Only the type
// tables of ishmem/types.h stay (tests generate one case per type from them). Include after
// the header under test; returns the names still defined.
#pragma once

#include <string>
#include <vector>

inline std::vector<std::string> leaked_ishmem_macros() {
  std::vector<std::string> found;
#ifdef ISHMEMI_AMO_BITWISE_CALLS
  found.push_back("ISHMEMI_AMO_BITWISE_CALLS");
#endif
#ifdef ISHMEMI_AMO_BITWISE_F
  found.push_back("ISHMEMI_AMO_BITWISE_F");
#endif
#ifdef ISHMEMI_AMO_BITWISE_OP_CALLS
  found.push_back("ISHMEMI_AMO_BITWISE_OP_CALLS");
#endif
#ifdef ISHMEMI_AMO_EXTENDED_CALLS
  found.push_back("ISHMEMI_AMO_EXTENDED_CALLS");
#endif
#ifdef ISHMEMI_AMO_EXTENDED_F
  found.push_back("ISHMEMI_AMO_EXTENDED_F");
#endif
#ifdef ISHMEMI_AMO_STANDARD_CALLS
  found.push_back("ISHMEMI_AMO_STANDARD_CALLS");
#endif
#ifdef ISHMEMI_AMO_STANDARD_F
  found.push_back("ISHMEMI_AMO_STANDARD_F");
#endif
#ifdef ISHMEMI_COPY_LOAD
  found.push_back("ISHMEMI_COPY_LOAD");
#endif
#ifdef ISHMEMI_COPY_STORE
  found.push_back("ISHMEMI_COPY_STORE");
#endif
#ifdef ISHMEMI_CORE_CALLS
  found.push_back("ISHMEMI_CORE_CALLS");
#endif
#ifdef ISHMEMI_DECLARE
  found.push_back("ISHMEMI_DECLARE");
#endif
#ifdef ISHMEMI_DECLARE_AMO_BITWISE
  found.push_back("ISHMEMI_DECLARE_AMO_BITWISE");
#endif
#ifdef ISHMEMI_DECLARE_AMO_EXTENDED
  found.push_back("ISHMEMI_DECLARE_AMO_EXTENDED");
#endif
#ifdef ISHMEMI_DECLARE_AMO_STANDARD
  found.push_back("ISHMEMI_DECLARE_AMO_STANDARD");
#endif
#ifdef ISHMEMI_DECLARE_P2P
  found.push_back("ISHMEMI_DECLARE_P2P");
#endif
#ifdef ISHMEMI_DECLARE_PUT_SIGNAL
  found.push_back("ISHMEMI_DECLARE_PUT_SIGNAL");
#endif
#ifdef ISHMEMI_DECLARE_SIZED_RMA
  found.push_back("ISHMEMI_DECLARE_SIZED_RMA");
#endif
#ifdef ISHMEMI_DECLARE_TYPED_RMA
  found.push_back("ISHMEMI_DECLARE_TYPED_RMA");
#endif
#ifdef ISHMEMI_DEVICE_CALLS
  found.push_back("ISHMEMI_DEVICE_CALLS");
#endif
#ifdef ISHMEMI_DEVICE_STATE
  found.push_back("ISHMEMI_DEVICE_STATE");
#endif
#ifdef ISHMEMI_EXTENSIONS
  found.push_back("ISHMEMI_EXTENSIONS");
#endif
#ifdef ISHMEMI_F
  found.push_back("ISHMEMI_F");
#endif
#ifdef ISHMEMI_F0
  found.push_back("ISHMEMI_F0");
#endif
#ifdef ISHMEMI_FN
  found.push_back("ISHMEMI_FN");
#endif
#ifdef ISHMEMI_GEN_CORE
  found.push_back("ISHMEMI_GEN_CORE");
#endif
#ifdef ISHMEMI_GEN_GROUP
  found.push_back("ISHMEMI_GEN_GROUP");
#endif
#ifdef ISHMEMI_GEN_GROUPS
  found.push_back("ISHMEMI_GEN_GROUPS");
#endif
#ifdef ISHMEMI_GEN_TYPED
  found.push_back("ISHMEMI_GEN_TYPED");
#endif
#ifdef ISHMEMI_GEN_TYPED_H
  found.push_back("ISHMEMI_GEN_TYPED_H");
#endif
#ifdef ISHMEMI_GEN_TYPED_H_DEV
  found.push_back("ISHMEMI_GEN_TYPED_H_DEV");
#endif
#ifdef ISHMEMI_GEN_TYPED_NOARG
  found.push_back("ISHMEMI_GEN_TYPED_NOARG");
#endif
#ifdef ISHMEMI_GEN_TYPED_NOARG_DEV
  found.push_back("ISHMEMI_GEN_TYPED_NOARG_DEV");
#endif
#ifdef ISHMEMI_GPU
  found.push_back("ISHMEMI_GPU");
#endif
#ifdef ISHMEMI_GPU_AMD
  found.push_back("ISHMEMI_GPU_AMD");
#endif
#ifdef ISHMEMI_GPU_CLANG
  found.push_back("ISHMEMI_GPU_CLANG");
#endif
#ifdef ISHMEMI_GPU_NVCC
  found.push_back("ISHMEMI_GPU_NVCC");
#endif
#ifdef ISHMEMI_GROUP_CALLS
  found.push_back("ISHMEMI_GROUP_CALLS");
#endif
#ifdef ISHMEMI_H
  found.push_back("ISHMEMI_H");
#endif
#ifdef ISHMEMI_H_ONLY
  found.push_back("ISHMEMI_H_ONLY");
#endif
#ifdef ISHMEMI_LD
  found.push_back("ISHMEMI_LD");
#endif
#ifdef ISHMEMI_NOARG
  found.push_back("ISHMEMI_NOARG");
#endif
#ifdef ISHMEMI_NOARG_API
  found.push_back("ISHMEMI_NOARG_API");
#endif
#ifdef ISHMEMI_NOARG_ONLY
  found.push_back("ISHMEMI_NOARG_ONLY");
#endif
#ifdef ISHMEMI_P2P_CALLS
  found.push_back("ISHMEMI_P2P_CALLS");
#endif
#ifdef ISHMEMI_P2P_F
  found.push_back("ISHMEMI_P2P_F");
#endif
#ifdef ISHMEMI_P2P_FORM_CALLS
  found.push_back("ISHMEMI_P2P_FORM_CALLS");
#endif
#ifdef ISHMEMI_PTX_SCOPED
  found.push_back("ISHMEMI_PTX_SCOPED");
#endif
#ifdef ISHMEMI_RMA_BYTES_CALLS
  found.push_back("ISHMEMI_RMA_BYTES_CALLS");
#endif
#ifdef ISHMEMI_RMA_SIZED_CALLS
  found.push_back("ISHMEMI_RMA_SIZED_CALLS");
#endif
#ifdef ISHMEMI_RMA_STRIDED_CALLS
  found.push_back("ISHMEMI_RMA_STRIDED_CALLS");
#endif
#ifdef ISHMEMI_RMA_TYPED_CALLS
  found.push_back("ISHMEMI_RMA_TYPED_CALLS");
#endif
#ifdef ISHMEMI_RMA_TYPED_F
  found.push_back("ISHMEMI_RMA_TYPED_F");
#endif
#ifdef ISHMEMI_RMA_TYPED_F_DEV
  found.push_back("ISHMEMI_RMA_TYPED_F_DEV");
#endif
#ifdef ISHMEMI_SIGNAL_ARGS
  found.push_back("ISHMEMI_SIGNAL_ARGS");
#endif
#ifdef ISHMEMI_SIGNAL_PARAMS
  found.push_back("ISHMEMI_SIGNAL_PARAMS");
#endif
#ifdef ISHMEMI_SIGNAL_PUT_CALLS
  found.push_back("ISHMEMI_SIGNAL_PUT_CALLS");
#endif
#ifdef ISHMEMI_SIGNAL_READ_CALLS
  found.push_back("ISHMEMI_SIGNAL_READ_CALLS");
#endif
#ifdef ISHMEMI_SIGNAL_TYPED_CALLS
  found.push_back("ISHMEMI_SIGNAL_TYPED_CALLS");
#endif
#ifdef ISHMEMI_SIGNAL_TYPED_F
  found.push_back("ISHMEMI_SIGNAL_TYPED_F");
#endif
#ifdef ISHMEMI_SIGNAL_TYPED_F_DEV
  found.push_back("ISHMEMI_SIGNAL_TYPED_F_DEV");
#endif
#ifdef ISHMEMI_ST
  found.push_back("ISHMEMI_ST");
#endif
#ifdef ISHMEMI_STR
  found.push_back("ISHMEMI_STR");
#endif
#ifdef ISHMEMI_STR_
  found.push_back("ISHMEMI_STR_");
#endif
#ifdef ISHMEMI_SYNC_ALL_STANDARD_NAMES
  found.push_back("ISHMEMI_SYNC_ALL_STANDARD_NAMES");
#endif
#ifdef ISHMEMI_SYNC_AMO_BITWISE
  found.push_back("ISHMEMI_SYNC_AMO_BITWISE");
#endif
#ifdef ISHMEMI_SYNC_AMO_BITWISE_OP
  found.push_back("ISHMEMI_SYNC_AMO_BITWISE_OP");
#endif
#ifdef ISHMEMI_SYNC_AMO_EXTENDED
  found.push_back("ISHMEMI_SYNC_AMO_EXTENDED");
#endif
#ifdef ISHMEMI_SYNC_AMO_STANDARD
  found.push_back("ISHMEMI_SYNC_AMO_STANDARD");
#endif
#ifdef ISHMEMI_SYNC_BARRIERS
  found.push_back("ISHMEMI_SYNC_BARRIERS");
#endif
#ifdef ISHMEMI_SYNC_BIT_F
  found.push_back("ISHMEMI_SYNC_BIT_F");
#endif
#ifdef ISHMEMI_SYNC_EXTENSIONS
  found.push_back("ISHMEMI_SYNC_EXTENSIONS");
#endif
#ifdef ISHMEMI_SYNC_EXT_F
  found.push_back("ISHMEMI_SYNC_EXT_F");
#endif
#ifdef ISHMEMI_SYNC_F
  found.push_back("ISHMEMI_SYNC_F");
#endif
#ifdef ISHMEMI_SYNC_GROUP
  found.push_back("ISHMEMI_SYNC_GROUP");
#endif
#ifdef ISHMEMI_SYNC_HOST_GROUP
  found.push_back("ISHMEMI_SYNC_HOST_GROUP");
#endif
#ifdef ISHMEMI_SYNC_P2P
  found.push_back("ISHMEMI_SYNC_P2P");
#endif
#ifdef ISHMEMI_SYNC_P2P_F
  found.push_back("ISHMEMI_SYNC_P2P_F");
#endif
#ifdef ISHMEMI_SYNC_PUT_SIGNAL_TYPED
  found.push_back("ISHMEMI_SYNC_PUT_SIGNAL_TYPED");
#endif
#ifdef ISHMEMI_SYNC_SIGNAL
  found.push_back("ISHMEMI_SYNC_SIGNAL");
#endif
#ifdef ISHMEMI_SYNC_SIG_F
  found.push_back("ISHMEMI_SYNC_SIG_F");
#endif
#ifdef ISHMEMI_SYNC_SIG_F_DEV
  found.push_back("ISHMEMI_SYNC_SIG_F_DEV");
#endif
#ifdef ISHMEMI_SYNC_STD_F
  found.push_back("ISHMEMI_SYNC_STD_F");
#endif
#ifdef ISHMEMI_SYS
  found.push_back("ISHMEMI_SYS");
#endif
#ifdef ISHMEMI_UNPAREN
  found.push_back("ISHMEMI_UNPAREN");
#endif
#ifdef ISHMEMI_WAIT_OPS
  found.push_back("ISHMEMI_WAIT_OPS");
#endif
  return found;
}
