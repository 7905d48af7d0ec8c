/* ishmem type tables: one list of the OpenSHMEM 1.5 types, expanded by X-macros into the
 * typed API declarations (ishmem.h), the host definitions (lib/api) and the device forms
 * (through the signature lists of ishmem/detail/signatures.h). The tables are public
 * (ISHMEMX_): code generic over the types, tests among it, expands them with its own X. */
#ifndef ISHMEM_TYPES_H
#define ISHMEM_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* Standard RMA types (OpenSHMEM 1.5, Table 5): X(C type, name used in the function).
 * ISHMEMX_RMA_DEVICE_TYPES are those with device forms: all but long double, which CUDA and
 * HIP compile as double in device code. */
#define ISHMEMX_RMA_DEVICE_TYPES(X) \
  X(float, float)                   \
  X(double, double)                 \
  ISHMEMX_INTEGER_TYPES(X)
#define ISHMEMX_RMA_TYPES(X) ISHMEMX_RMA_DEVICE_TYPES(X) X(long double, longdouble)

/* Sized RMA forms (ishmem_put8 ... ishmem_put128): X(bits, bytes). */
#define ISHMEMX_SIZED_RMA(X) \
  X(8, 1)                    \
  X(16, 2)                   \
  X(32, 4)                   \
  X(64, 8)                   \
  X(128, 16)

/* Bitwise AMO types (and, or, xor). */
#define ISHMEMX_AMO_BITWISE_TYPES(X) \
  X(unsigned int, uint)              \
  X(unsigned long, ulong)            \
  X(unsigned long long, ulonglong)   \
  X(int32_t, int32)                  \
  X(int64_t, int64)                  \
  X(uint32_t, uint32)                \
  X(uint64_t, uint64)

/* Standard AMO types (OpenSHMEM 1.5, Table 7): the bitwise ones with the signed int, long,
 * long long, size_t and ptrdiff_t. */
#define ISHMEMX_AMO_STANDARD_TYPES(X) \
  X(int, int)                         \
  X(long, long)                       \
  X(long long, longlong)              \
  ISHMEMX_AMO_BITWISE_TYPES(X)        \
  X(size_t, size)                     \
  X(ptrdiff_t, ptrdiff)

/* Point-to-point synchronization types (OpenSHMEM 1.5, Table 9: wait_until and test): the
 * standard AMO types with short and unsigned short. */
#define ISHMEMX_P2P_TYPES(X)    \
  ISHMEMX_AMO_STANDARD_TYPES(X) \
  X(short, short)               \
  X(unsigned short, ushort)

/* Extended AMO types: the standard ones plus these (fetch, set and swap only). */
#define ISHMEMX_AMO_EXTENDED_ONLY_TYPES(X) \
  X(float, float)                          \
  X(double, double)

/* Reduction types (OpenSHMEM 1.5, Table 10), by the operations they take. Bitwise: and, or,
 * xor (also a part of the RMA types above). */
#define ISHMEMX_REDUCE_BITWISE_TYPES(X) \
  X(unsigned char, uchar)               \
  X(unsigned short, ushort)             \
  X(unsigned int, uint)                 \
  X(unsigned long, ulong)               \
  X(unsigned long long, ulonglong)      \
  X(int8_t, int8)                       \
  X(int16_t, int16)                     \
  X(int32_t, int32)                     \
  X(int64_t, int64)                     \
  X(uint8_t, uint8)                     \
  X(uint16_t, uint16)                   \
  X(uint32_t, uint32)                   \
  X(uint64_t, uint64)                   \
  X(size_t, size)

/* Every integer type of the RMA table: the bitwise reduction types with the signed ones. */
#define ISHMEMX_INTEGER_TYPES(X)  \
  X(char, char)                   \
  X(signed char, schar)           \
  X(short, short)                 \
  X(int, int)                     \
  X(long, long)                   \
  X(long long, longlong)          \
  ISHMEMX_REDUCE_BITWISE_TYPES(X) \
  X(ptrdiff_t, ptrdiff)

/* max, min: the integer types and the real floating types. The _DEVICE tables hold the types
 * of the device and stream-ordered forms on GPU heaps: no long double, no complex. */
#define ISHMEMX_REDUCE_MINMAX_DEVICE_TYPES(X) \
  ISHMEMX_INTEGER_TYPES(X)                    \
  X(float, float)                             \
  X(double, double)
#define ISHMEMX_REDUCE_MINMAX_TYPES(X) \
  ISHMEMX_REDUCE_MINMAX_DEVICE_TYPES(X) X(long double, longdouble)

/* sum, prod: the max/min types and the complex ones. */
#define ISHMEMX_REDUCE_ARITH_DEVICE_TYPES(X) ISHMEMX_REDUCE_MINMAX_DEVICE_TYPES(X)
#define ISHMEMX_REDUCE_ARITH_TYPES(X) \
  ISHMEMX_REDUCE_MINMAX_TYPES(X)      \
  X(double _Complex, complexd)        \
  X(float _Complex, complexf)

#endif /* ISHMEM_TYPES_H */
