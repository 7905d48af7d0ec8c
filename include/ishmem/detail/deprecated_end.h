/* Undefines the signature lists of ishmem/deprecated.h once their user is done with them.
 * Internal; no include guard. */
#undef ISHMEMI_ACTIVE_SET_BLOCKS_CALL
#undef ISHMEMI_ACTIVE_SET_SIZED_CALLS
#undef ISHMEMI_TO_ALL_CALL
#undef ISHMEMI_TO_ALL_ARITH_CALLS
#undef ISHMEMI_TO_ALL_REAL_CALLS
#undef ISHMEMI_TO_ALL_INTEGER_CALLS
#undef ISHMEMI_TO_ALL_CALLS
