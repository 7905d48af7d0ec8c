// Defines the host calls of a signature list (ishmem/detail/signatures.h): the entry
// F(RETURN, STEM, (PARAMETERS), (ARGUMENTS), OP, TARG) becomes
//   RETURN ishmem_STEM(PARAMETERS) { return host::OP<TARG>("ishmem_STEM", ARGUMENTS...); }
// where host::OP, in the family's source file, does the work (the name is for its messages).
// Use inside extern "C". ISHMEMI_DEFINE_CTX_CALL defines the ishmem_ctx_STEM twin.
#pragma once

#include "ishmem.h"  // first: its end undefines the signature lists, defined again below
#include "api/ctx.h"
#include "ishmem/detail/signatures.h"

#define ISHMEMI_DEFINE_CALL(RET, STEM, PARAMS, ARGS, OP, TARG)                      \
  RET ishmem_##STEM PARAMS {                                                        \
    return ::ishmem::detail::host::OP<TARG>("ishmem_" #STEM, ISHMEMI_UNPAREN ARGS); \
  }

// The context form of the same entry: RETURN ishmem_ctx_STEM(ishmem_ctx_t ctx, PARAMETERS),
// the call of ISHMEMI_DEFINE_CALL through api/ctx.h's ctx_call.
#define ISHMEMI_DEFINE_CTX_CALL(RET, STEM, PARAMS, ARGS, OP, TARG)                             \
  RET ishmem_ctx_##STEM(ishmem_ctx_t ctx, ISHMEMI_UNPAREN PARAMS) {                            \
    return ::ishmem::detail::ctx_call<RET>(                                                    \
        ctx, "ishmem_ctx_" #STEM, ::ishmem::detail::returns_status(#OP),                       \
        [](auto... a) { return ::ishmem::detail::host::OP<TARG>("ishmem_ctx_" #STEM, a...); }, \
        ISHMEMI_UNPAREN ARGS);                                                                 \
  }
// Both forms of an entry: the lists of RMA, AMO and put-with-signal calls have context twins.
#define ISHMEMI_DEFINE_CALLS(...)  \
  ISHMEMI_DEFINE_CALL(__VA_ARGS__) \
  ISHMEMI_DEFINE_CTX_CALL(__VA_ARGS__)
