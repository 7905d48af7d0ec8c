/* Symmetric static data through shmem.h (built when ishmem has it): global and static
 * variables as RMA, atomic and wait targets, as OpenSHMEM programs use them. */
#include "shmem_test.h"

long counter;
static long ring[4];
static int flag;

int main(void) {
  int me, n, right, left;
  long src[4];
  shmem_init();
  shmem_test_ring(&me, &n, &right, &left);
  CHECK(shmem_addr_accessible(&counter, right) == 1 && shmem_addr_accessible(ring, 0) == 1);
  src[0] = me;
  src[1] = me + 1;
  shmem_long_put(ring, src, 2, right);
  shmem_long_atomic_inc(&counter, 0);
  shmem_quiet();
  shmem_int_p(&flag, 1, right);
  shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
  CHECK(ring[0] == left && ring[1] == left + 1);
  shmem_barrier_all();
  if (me == 0) CHECK(counter == n);
  CHECK(shmem_long_g(&ring[1], right) == me + 1);
  CHECK(shmem_long_atomic_fetch(&counter, 0) == n);
  shmem_barrier_all();
  return shmem_test_finish("shmem_static");
}
