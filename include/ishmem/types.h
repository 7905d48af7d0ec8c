/* ishmem type tables: one list of the OpenSHMEM 1.5 types, expanded by X-macros into the
 * typed API declarations (ishmem.h), the host definitions (lib/api) and the device forms
 * (through the signature lists of ishmem/detail/signatures.h). The tables stay defined in
 * users' code (tests generate one case per type from them); the generators do not. */
#ifndef ISHMEM_TYPES_H
#define ISHMEM_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* Standard RMA types (OpenSHMEM 1.5, Table 5): X(C type, name used in the function). */
#define ISHMEMI_RMA_TYPES(X)       \
  X(float, float)                  \
  X(double, double)                \
  X(long double, longdouble)       \
  X(char, char)                    \
  X(signed char, schar)            \
  X(short, short)                  \
  X(int, int)                      \
  X(long, long)                    \
  X(long long, longlong)           \
  X(unsigned char, uchar)          \
  X(unsigned short, ushort)        \
  X(unsigned int, uint)            \
  X(unsigned long, ulong)          \
  X(unsigned long long, ulonglong) \
  X(int8_t, int8)                  \
  X(int16_t, int16)                \
  X(int32_t, int32)                \
  X(int64_t, int64)                \
  X(uint8_t, uint8)                \
  X(uint16_t, uint16)              \
  X(uint32_t, uint32)              \
  X(uint64_t, uint64)              \
  X(size_t, size)                  \
  X(ptrdiff_t, ptrdiff)

/* Sized RMA forms (ishmem_put8 ... ishmem_put128): X(bits, bytes). */
#define ISHMEMI_SIZED_RMA(X) \
  X(8, 1)                    \
  X(16, 2)                   \
  X(32, 4)                   \
  X(64, 8)                   \
  X(128, 16)

/* Standard AMO types (OpenSHMEM 1.5, Table 7), also the point-to-point sync types. */
#define ISHMEMI_AMO_STANDARD_TYPES(X) \
  X(int, int)                         \
  X(long, long)                       \
  X(long long, longlong)              \
  X(unsigned int, uint)               \
  X(unsigned long, ulong)             \
  X(unsigned long long, ulonglong)    \
  X(int32_t, int32)                   \
  X(int64_t, int64)                   \
  X(uint32_t, uint32)                 \
  X(uint64_t, uint64)                 \
  X(size_t, size)                     \
  X(ptrdiff_t, ptrdiff)

/* Extended AMO types: the standard ones plus these (fetch, set and swap only). */
#define ISHMEMI_AMO_EXTENDED_ONLY_TYPES(X) \
  X(float, float)                          \
  X(double, double)

/* Bitwise AMO types (and, or, xor). */
#define ISHMEMI_AMO_BITWISE_TYPES(X) \
  X(unsigned int, uint)              \
  X(unsigned long, ulong)            \
  X(unsigned long long, ulonglong)   \
  X(int32_t, int32)                  \
  X(int64_t, int64)                  \
  X(uint32_t, uint32)                \
  X(uint64_t, uint64)

/* The device filter of the table: DEVICE_TYPE(GEN, T, N) is GEN(T, N) for a type with device
 * forms, and nothing for long double (CUDA and HIP compile it as double in device code). */
#define ISHMEMI_PP_SECOND(a, b, ...) b
#define ISHMEMI_PP_PROBE(...) ISHMEMI_PP_SECOND(__VA_ARGS__, 0, ~)
#define ISHMEMI_PP_CAT(a, b) ISHMEMI_PP_CAT_(a, b)
#define ISHMEMI_PP_CAT_(a, b) a##b
#define ISHMEMI_HOST_ONLY_TYPE_longdouble ~, 1
#define ISHMEMI_PP_IF_0(yes, no) no
#define ISHMEMI_PP_IF_1(yes, no) yes
#define ISHMEMI_PP_IGNORE(T, N)
#define ISHMEMI_DEVICE_TYPE(GEN, T, N)                                         \
  ISHMEMI_PP_CAT(ISHMEMI_PP_IF_, ISHMEMI_PP_PROBE(ISHMEMI_HOST_ONLY_TYPE_##N)) \
  (ISHMEMI_PP_IGNORE, GEN)(T, N)

#endif /* ISHMEM_TYPES_H */
