/* C++: the overloaded generic names of shmem.h on every type of their tables. */
#include "generic_types.h"

int main() {
  return run_generic_types("shmem_generic_types_cxx");
}
