// Defines the host calls of a signature list (ishmem/detail/signatures.h): the entry
// F(RETURN, STEM, (PARAMETERS), (ARGUMENTS), OP, TARG) becomes
//   RETURN ishmem_STEM(PARAMETERS) { return host::OP<TARG>("ishmem_STEM", ARGUMENTS...); }
// where host::OP, in the family's source file, does the work (the name is for its messages).
// Use inside extern "C".
#pragma once

#include "ishmem.h"  // first: its end undefines the signature lists, defined again below
#include "ishmem/detail/signatures.h"

#define ISHMEMI_DEFINE_CALL(RET, STEM, PARAMS, ARGS, OP, TARG)                      \
  RET ishmem_##STEM PARAMS {                                                        \
    return ::ishmem::detail::host::OP<TARG>("ishmem_" #STEM, ISHMEMI_UNPAREN ARGS); \
  }
