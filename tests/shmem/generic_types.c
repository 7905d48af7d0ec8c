/* C11: the _Generic names of shmem.h on every type of their tables. */
#include "generic_types.h"

int main(void) {
  return run_generic_types("shmem_generic_types");
}
