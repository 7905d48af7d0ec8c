# libishmem.so beside libishmem.a, from the same objects (compiled once): the static library's
# own objects and the GPU kernels' objects. Installed as libishmem.so.<major> ->
# libishmem.so.<version>; the version script exports only the public C API (docs/INSTALL.md
# says what that is and when the soname changes). The in-tree tests keep linking the static
# library, which they need for the internals that the shared one hides.
set(ishmemi_shared_objects $<TARGET_OBJECTS:ishmem>)
if(TARGET ishmem_kernels)
  list(APPEND ishmemi_shared_objects $<TARGET_OBJECTS:ishmem_kernels>)
endif()
add_library(ishmem_shared SHARED ${ishmemi_shared_objects})
add_dependencies(ishmem_shared ishmem)
set(ISHMEM_VERSION_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/ishmem.map)
set_target_properties(ishmem_shared PROPERTIES
  OUTPUT_NAME ishmem
  EXPORT_NAME shared
  LINKER_LANGUAGE CXX
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS ${ISHMEM_VERSION_SCRIPT}
  # The installed library finds what it links outside the system's directories (the CUDA
  # runtime under /usr/local/cuda) without LD_LIBRARY_PATH, as do programs linked to it.
  INSTALL_RPATH_USE_LINK_PATH ON)
target_link_options(ishmem_shared PRIVATE -Wl,--version-script=${ISHMEM_VERSION_SCRIPT}
                    -Wl,--no-undefined)
# What the objects need at link time is what the static library lists (MPI, threads, the GPU
# runtime, hwloc); a program that links the shared library needs only MPI's and the GPU
# backend's headers and definitions, and MPI's library for its own MPI calls.
get_target_property(ishmemi_static_links ishmem LINK_LIBRARIES)
target_link_libraries(ishmem_shared PRIVATE ${ishmemi_static_links} PUBLIC MPI::MPI_C)
foreach(prop INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS)
  get_target_property(value ishmem ${prop})
  if(value)
    set_property(TARGET ishmem_shared PROPERTY ${prop} "${value}")
  endif()
endforeach()
if(ISHMEM_GPU_BACKEND STREQUAL "cuda")
  target_link_libraries(ishmem_shared PUBLIC CUDA::cudart)
elseif(ISHMEM_GPU_BACKEND STREQUAL "hip")
  target_link_libraries(ishmem_shared PUBLIC hip::host)
endif()
add_library(ishmem::shared ALIAS ishmem_shared)
install(TARGETS ishmem_shared EXPORT ishmemTargets)
