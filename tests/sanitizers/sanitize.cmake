# -DISHMEM_SANITIZE=address,undefined (or thread, or any list -fsanitize takes) builds the
# library, tests, benchmarks and examples with those sanitizers. A UBSan finding aborts
# (-fno-sanitize-recover), so it fails its test. ISHMEM_SANITIZER_ENV holds the run-time
# options every test gets through ctest: the suppression files beside this one (MPI's own
# leaks and races, never ishmem's) and exit on the first report.
set(ISHMEM_SANITIZE "" CACHE STRING
    "Sanitizers to build with, as -fsanitize takes them (address,undefined or thread); empty: none")
set(ISHMEM_SANITIZER_ENV "")
if(ISHMEM_SANITIZE)
  set(ishmemi_san_flags -fsanitize=${ISHMEM_SANITIZE} -fno-sanitize-recover=all
                        -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${ishmemi_san_flags}>")
  add_link_options(-fsanitize=${ISHMEM_SANITIZE})
  set(supp ${CMAKE_CURRENT_LIST_DIR})
  # halt_on_error and a non-zero exit code make any report fail the test; MPI ranks run under
  # mpiexec, which passes the environment on to them. fast_unwind_on_malloc=0 follows
  # allocation stacks through MPI's libraries (built without frame pointers), and Open MPI
  # keeps its plugins loaded, so that the suppressions can name where a leak comes from.
  # history_size=7 keeps the older access of a race restorable, so that tsan.supp can name
  # MPI's side of a hand-off between threads (tests/mpi/threads_test.cpp). HWLOC_COMPONENTS=-pci
  # spares MPI_Init the PCI scan: libpciaccess grows its name table by small reallocs, which
  # ASan copies every time, and at 3 or 4 PEs on 2 cores that took 12 s of each test.
  set(ISHMEM_SANITIZER_ENV
      "ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:fast_unwind_on_malloc=0:detect_stack_use_after_return=1"
      "LSAN_OPTIONS=suppressions=${supp}/lsan.supp:print_suppressions=0"
      "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=${supp}/ubsan.supp"
      "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:history_size=7:suppressions=${supp}/tsan.supp"
      OMPI_MCA_mca_base_component_disable_dlclose=1 HWLOC_COMPONENTS=-pci)
  message(STATUS "Sanitizers: ${ISHMEM_SANITIZE} (run-time options: ISHMEM_SANITIZER_ENV)")
endif()
