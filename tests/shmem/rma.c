/* RMA through shmem.h: the typed calls of every standard RMA type (put, get, p, g, iput,
 * iget, put_nbi, get_nbi), the sized and byte calls, each checked at the right-hand neighbour. */
#include <string.h>

#include "shmem_test.h"

#define NELEMS 8

/* For type T: every PE writes to its right-hand neighbour values made from its own number,
 * then reads them back from the left-hand neighbour's copy. */
#define TYPED_RMA(T, N)                                                                    \
  static void rma_##N(int me, int right, int left) {                                       \
    T *buf = (T *)shmem_calloc(4 * NELEMS, sizeof(T));                                     \
    T src[NELEMS], got[NELEMS];                                                            \
    int i;                                                                                 \
    for (i = 0; i < NELEMS; ++i) src[i] = (T)(me * 10 + i);                                \
    shmem_##N##_put(buf, src, NELEMS, right);                                              \
    shmem_##N##_p(&buf[NELEMS], (T)(me + 1), right);                                       \
    shmem_##N##_iput(&buf[2 * NELEMS], src, 2, 1, NELEMS / 2, right);                      \
    shmem_##N##_put_nbi(&buf[3 * NELEMS], src, NELEMS, right);                             \
    shmem_quiet();                                                                         \
    shmem_barrier_all();                                                                   \
    for (i = 0; i < NELEMS; ++i) CHECK(buf[i] == (T)(left * 10 + i));                      \
    CHECK(buf[NELEMS] == (T)(left + 1));                                                   \
    for (i = 0; i < NELEMS / 2; ++i) CHECK(buf[2 * NELEMS + 2 * i] == (T)(left * 10 + i)); \
    CHECK(buf[3 * NELEMS + NELEMS - 1] == (T)(left * 10 + NELEMS - 1));                    \
    shmem_##N##_get(got, buf, NELEMS, right);                                              \
    for (i = 0; i < NELEMS; ++i) CHECK(got[i] == (T)(me * 10 + i));                        \
    CHECK(shmem_##N##_g(&buf[NELEMS], right) == (T)(me + 1));                              \
    memset(got, 0, sizeof got);                                                            \
    shmem_##N##_iget(got, buf, 1, 2, NELEMS / 2, right);                                   \
    for (i = 0; i < NELEMS / 2; ++i) CHECK(got[i] == (T)(me * 10 + 2 * i));                \
    shmem_##N##_get_nbi(got, &buf[3 * NELEMS], NELEMS, right);                             \
    shmem_quiet();                                                                         \
    CHECK(got[2] == (T)(me * 10 + 2));                                                     \
    shmem_barrier_all();                                                                   \
    shmem_free(buf);                                                                       \
  }
TYPED_RMA(float, float)
TYPED_RMA(double, double)
TYPED_RMA(long double, longdouble)
TYPED_RMA(char, char)
TYPED_RMA(signed char, schar)
TYPED_RMA(short, short)
TYPED_RMA(int, int)
TYPED_RMA(long, long)
TYPED_RMA(long long, longlong)
TYPED_RMA(unsigned char, uchar)
TYPED_RMA(unsigned short, ushort)
TYPED_RMA(unsigned int, uint)
TYPED_RMA(unsigned long, ulong)
TYPED_RMA(unsigned long long, ulonglong)
TYPED_RMA(int8_t, int8)
TYPED_RMA(int16_t, int16)
TYPED_RMA(int32_t, int32)
TYPED_RMA(int64_t, int64)
TYPED_RMA(uint8_t, uint8)
TYPED_RMA(uint16_t, uint16)
TYPED_RMA(uint32_t, uint32)
TYPED_RMA(uint64_t, uint64)
TYPED_RMA(size_t, size)
TYPED_RMA(ptrdiff_t, ptrdiff)

/* Sized and byte calls on a 16-byte-element buffer. */
static void rma_sized(int me, int right, int left) {
  unsigned char *buf = (unsigned char *)shmem_calloc(8, 16);
  unsigned char src[64], got[64];
  int i;
  for (i = 0; i < 64; ++i) src[i] = (unsigned char)(me * 64 + i);
  shmem_put8(buf, src, 4, right);
  shmem_put16(buf + 4, src + 4, 2, right);
  shmem_put32(buf + 8, src + 8, 2, right);
  shmem_put64(buf + 16, src + 16, 2, right);
  shmem_put128(buf + 32, src + 32, 1, right);
  shmem_putmem_nbi(buf + 48, src + 48, 16, right);
  shmem_iput32(buf + 64, src, 2, 1, 4, right); /* every other 4-byte slot */
  shmem_barrier_all();
  for (i = 0; i < 64; ++i) CHECK(buf[i] == (unsigned char)(left * 64 + i));
  CHECK(buf[64 + 8] == (unsigned char)(left * 64 + 4)); /* element 1 of src at slot 2 */
  CHECK(buf[64 + 4] == 0);                              /* the stride's gap untouched */
  shmem_getmem(got, buf, 64, right);
  for (i = 0; i < 64; ++i) CHECK(got[i] == src[i]);
  shmem_get64_nbi(got, buf + 8, 1, right);
  shmem_quiet();
  CHECK(got[0] == src[8]);
  shmem_iget16(got, buf, 1, 2, 3, right);
  CHECK(got[2] == src[4] && got[3] == src[5] && got[4] == src[8]);
  shmem_barrier_all();
  shmem_free(buf);
}

int main(void) {
  int me, n, right, left;
  shmem_init();
  shmem_test_ring(&me, &n, &right, &left);
  rma_float(me, right, left);
  rma_double(me, right, left);
  rma_longdouble(me, right, left);
  rma_char(me, right, left);
  rma_schar(me, right, left);
  rma_short(me, right, left);
  rma_int(me, right, left);
  rma_long(me, right, left);
  rma_longlong(me, right, left);
  rma_uchar(me, right, left);
  rma_ushort(me, right, left);
  rma_uint(me, right, left);
  rma_ulong(me, right, left);
  rma_ulonglong(me, right, left);
  rma_int8(me, right, left);
  rma_int16(me, right, left);
  rma_int32(me, right, left);
  rma_int64(me, right, left);
  rma_uint8(me, right, left);
  rma_uint16(me, right, left);
  rma_uint32(me, right, left);
  rma_uint64(me, right, left);
  rma_size(me, right, left);
  rma_ptrdiff(me, right, left);
  rma_sized(me, right, left);
  return shmem_test_finish("shmem_rma");
}
