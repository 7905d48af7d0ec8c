# The GPU parts of the library, included by lib/CMakeLists.txt after the ishmem target exists:
# the stream and device-handle entry points and placement (every build; they act on the host
# backend too), the backend of ISHMEM_GPU_BACKEND, and the device library ishmem::device.
target_sources(ishmem PRIVATE
  api/device.cpp
  api/stream.cpp
  runtime/gpu_runtime.cpp
  runtime/barrier_rows.cpp
  runtime/gpu_collectives.cpp
  runtime/device_proxy.cpp
  runtime/proxied_collectives.cpp
  backend/gpu/placement.cpp)

# One GPU backend source for both vendors: backend/gpu/vendor.h picks the vendor's names
# (from ISHMEM_GPU_HIP, defined below for HIP builds).
if(NOT ISHMEM_GPU_BACKEND STREQUAL "none")
  target_sources(ishmem PRIVATE backend/gpu/gpu_backend.cpp)
endif()

if(ISHMEM_HWLOC_FOUND)
  target_compile_definitions(ishmem PRIVATE ISHMEM_HAVE_HWLOC=1)
  target_include_directories(ishmem PRIVATE ${ISHMEM_HWLOC_INCLUDE})
  target_link_libraries(ishmem PRIVATE ${ISHMEM_HWLOC_LIBRARY})
endif()

# ishmem_gpu_sources(<target> <sources>...): adds kernel sources, written once in the common
# CUDA/HIP dialect as .cu files, compiled by nvcc or as HIP by hipcc.
function(ishmem_gpu_sources target)
  target_sources(${target} PRIVATE ${ARGN})
  if(ISHMEM_GPU_BACKEND STREQUAL "hip")
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CXX)
    target_link_libraries(${target} PRIVATE hip::device)
    # clang's offload objects carry no .note.GNU-stack; say the stack is not executable.
    target_link_options(${target} PRIVATE -Wl,-z,noexecstack)
  endif()
endfunction()

# The kernels of the stream-ordered calls and of the collectives on GPU heaps, compiled in the GPU dialect and linked into
# the library as objects (no relocatable device code): added below, per backend.
function(ishmemi_stream_kernels)
  target_include_directories(ishmem_kernels PRIVATE ${PROJECT_SOURCE_DIR}/include
                                                    ${ISHMEM_GENERATED_INCLUDE_DIR}
                                                    ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(ishmem_kernels PRIVATE MPI::MPI_C)  # mpi.h, through ishmem.h
  set_target_properties(ishmem_kernels PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_sources(ishmem PRIVATE $<TARGET_OBJECTS:ishmem_kernels>)
endfunction()

if(ISHMEM_GPU_BACKEND STREQUAL "cuda")
  add_library(ishmem_kernels OBJECT device/stream_kernels.cu device/collective_kernels.cu
                                    device/word_atomic.cu)
  ishmemi_stream_kernels()
  # The runtime only: the driver is reached at run time, never linked.
  target_link_libraries(ishmem PUBLIC CUDA::cudart)
  target_compile_definitions(ishmem PUBLIC ISHMEM_GPU_CUDA=1)

  # The device library: the state behind the no-argument device calls, and the request code
  # of device calls to off-node PEs. Relocatable device code, so a program that calls them
  # sets CUDA_SEPARABLE_COMPILATION and links this.
  add_library(ishmem_device STATIC device/device_state.cu device/proxy_requests.cu)
  # The request code's registers count against every kernel that calls it: within 32, a
  # kernel of two 1024-thread blocks per multiprocessor can (lib/device/proxy_requests.cu).
  set_source_files_properties(device/proxy_requests.cu PROPERTIES COMPILE_OPTIONS
                                                                  -maxrregcount=32)
  set_target_properties(ishmem_device PROPERTIES CUDA_SEPARABLE_COMPILATION ON
                                                 POSITION_INDEPENDENT_CODE ON
                                                 EXPORT_NAME device)
elseif(ISHMEM_GPU_BACKEND STREQUAL "hip")
  target_link_libraries(ishmem PUBLIC hip::host)
  target_compile_definitions(ishmem PUBLIC ISHMEM_GPU_HIP=1)
  add_library(ishmem_kernels OBJECT)
  ishmem_gpu_sources(ishmem_kernels device/stream_kernels.cu device/collective_kernels.cu
                     device/word_atomic.cu)
  ishmemi_stream_kernels()

  # The heap's coherence for system-scope atomics (docs/MEMORY_MODEL.md): uncached
  # (fine-grained) chunks where the HIP headers offer that allocation type to the
  # virtual-memory API (hipMemAllocationTypeUncached, newer than HIP 5.2), else the default
  # coarse-grained device memory.
  option(ISHMEM_HIP_UNCACHED_HEAP "HIP: allocate the heap uncached (fine-grained) where HIP can" ON)
  if(ISHMEM_HIP_UNCACHED_HEAP)
    include(CheckCXXSourceCompiles)
    get_target_property(ishmemi_hip_inc hip::host INTERFACE_INCLUDE_DIRECTORIES)
    set(CMAKE_REQUIRED_INCLUDES ${ishmemi_hip_inc})
    set(CMAKE_REQUIRED_DEFINITIONS -D__HIP_PLATFORM_AMD__=1)
    set(CMAKE_REQUIRED_FLAGS -xc++)
    check_cxx_source_compiles([=[
#include <hip/hip_runtime_api.h>
int main() {
  hipMemAllocationProp prop{};
  prop.type = hipMemAllocationTypeUncached;
  return prop.type == hipMemAllocationTypePinned;
}]=] ISHMEM_HIP_HAS_UNCACHED_ALLOCATION)
    unset(CMAKE_REQUIRED_INCLUDES)
    unset(CMAKE_REQUIRED_DEFINITIONS)
    unset(CMAKE_REQUIRED_FLAGS)
    if(ISHMEM_HIP_HAS_UNCACHED_ALLOCATION)
      target_compile_definitions(ishmem PRIVATE ISHMEMI_HIP_UNCACHED_HEAP=1)
      message(STATUS "ishmem: HIP heap: uncached (fine-grained) allocations")
    else()
      message(STATUS "ishmem: HIP heap: coarse-grained (these HIP headers have no "
                     "hipMemAllocationTypeUncached)")
    endif()
  endif()

  add_library(ishmem_device STATIC)
  ishmem_gpu_sources(ishmem_device device/device_state.cu device/proxy_requests.cu)
  set_target_properties(ishmem_device PROPERTIES EXPORT_NAME device)
  # Relocatable device code, compiled here and linked into every program that uses it.
  target_compile_options(ishmem_device PUBLIC -fgpu-rdc)
  target_link_options(ishmem_device INTERFACE -fgpu-rdc --hip-link)
  if(ISHMEM_HIP_LLD_DIR)
    target_link_options(ishmem_device INTERFACE -B${ISHMEM_HIP_LLD_DIR})
  endif()
  target_link_libraries(ishmem_device PUBLIC hip::device)
endif()

if(TARGET ishmem_device)
  target_link_libraries(ishmem_device PUBLIC ishmem)
  target_include_directories(ishmem_device PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  add_library(ishmem::device ALIAS ishmem_device)
  include(GNUInstallDirs)
  install(TARGETS ishmem_device EXPORT ishmemTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

# The installed package: find_package(ishmem) gives ishmem::ishmem and, with a GPU backend,
# ishmem::device, finding MPI and the GPU runtime again.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/ishmemConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ishmemConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ishmem)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ishmemConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ishmemConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/ishmemConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ishmem)
