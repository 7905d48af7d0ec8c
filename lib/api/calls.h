// Defines the host calls of a signature list (ishmem/detail/signatures.h): the entry
// F(RETURN, NAME, (PARAMETERS), (ARGUMENTS), OP, TARG) becomes
//   RETURN NAME(PARAMETERS) { return host::OP<TARG>("NAME", ARGUMENTS...); }
// where host::OP, in the family's source file, does the work (the name is for its messages).
// Use inside extern "C".
#pragma once

#include "ishmem.h"  // first: its end undefines the signature lists, defined again below
#include "ishmem/detail/signatures.h"

#define ISHMEMI_DEFINE_CALL(RET, NAME, PARAMS, ARGS, OP, TARG)                        \
  RET NAME PARAMS {                                                                   \
    return ::ishmem::detail::host::OP<TARG>(ISHMEMI_STR(NAME), ISHMEMI_UNPAREN ARGS); \
  }
