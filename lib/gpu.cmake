# Resolves ISHMEM_GPU (auto, cuda, hip, none) into ISHMEM_GPU_BACKEND (cuda, hip or none) and
# enables the language and packages that backend needs. Included at the top level, before
# any target. lib/gpu_library.cmake then adds the backend to the library.
#   cuda: nvcc (CMAKE_CUDA_COMPILER, else nvcc on PATH or in /usr/local/cuda/bin), device code
#         for ISHMEM_CUDA_ARCHITECTURES (default 90, i.e. sm_90).
#   hip:  the C++ compiler must be hipcc or clang++ (CXX=hipcc); find_package(hip) and
#         hip::device, device code for ISHMEM_HIP_ARCH (default gfx90a).
#   auto: cuda if nvcc is found, else hip if the C++ compiler is hipcc/clang++ and the hip
#         package is found, else none.
if(NOT ISHMEM_GPU MATCHES "^(auto|cuda|hip|none)$")
  message(FATAL_ERROR "ISHMEM_GPU=${ISHMEM_GPU}: must be auto, cuda, hip or none")
endif()
set(ISHMEM_CUDA_ARCHITECTURES "90" CACHE STRING
    "CUDA architectures of the device code (CMAKE_CUDA_ARCHITECTURES syntax; 90 = sm_90)")
set(ISHMEM_HIP_ARCH "gfx90a" CACHE STRING "AMD GPU targets of the device code (;-separated)")

set(ISHMEM_GPU_BACKEND none)

function(ishmemi_find_nvcc out)
  if(CMAKE_CUDA_COMPILER)
    set(${out} "${CMAKE_CUDA_COMPILER}" PARENT_SCOPE)
    return()
  endif()
  if(DEFINED ENV{CUDACXX})
    set(${out} "$ENV{CUDACXX}" PARENT_SCOPE)
    return()
  endif()
  find_program(ISHMEM_NVCC nvcc PATHS /usr/local/cuda/bin ENV CUDA_PATH PATH_SUFFIXES bin)
  set(${out} "${ISHMEM_NVCC}" PARENT_SCOPE)
endfunction()

set(ishmemi_cxx_is_clang FALSE)
if(CMAKE_CXX_COMPILER MATCHES "hipcc" OR CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(ishmemi_cxx_is_clang TRUE)
endif()

if(ISHMEM_GPU STREQUAL "cuda" OR ISHMEM_GPU STREQUAL "auto")
  ishmemi_find_nvcc(ishmemi_nvcc)
  if(ishmemi_nvcc)
    set(ISHMEM_GPU_BACKEND cuda)
  elseif(ISHMEM_GPU STREQUAL "cuda")
    message(FATAL_ERROR "ISHMEM_GPU=cuda: nvcc not found (set CMAKE_CUDA_COMPILER)")
  endif()
endif()
if(ISHMEM_GPU STREQUAL "hip" OR (ISHMEM_GPU STREQUAL "auto" AND ISHMEM_GPU_BACKEND STREQUAL "none"))
  if(ishmemi_cxx_is_clang)
    find_package(hip CONFIG QUIET)
  endif()
  if(hip_FOUND)
    set(ISHMEM_GPU_BACKEND hip)
  elseif(ISHMEM_GPU STREQUAL "hip")
    message(FATAL_ERROR "ISHMEM_GPU=hip needs the hip CMake package and hipcc as the C++ "
                        "compiler (CXX=hipcc cmake ...); compiler: ${CMAKE_CXX_COMPILER}")
  endif()
endif()

if(ISHMEM_GPU_BACKEND STREQUAL "cuda")
  set(CMAKE_CUDA_COMPILER "${ishmemi_nvcc}")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${ISHMEM_CUDA_ARCHITECTURES})
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  # One CUDA runtime in each process: the library links the shared one, so do our programs.
  if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
  endif()
elseif(ISHMEM_GPU_BACKEND STREQUAL "hip")
  set(AMDGPU_TARGETS "${ISHMEM_HIP_ARCH}" CACHE STRING "AMD GPU targets" FORCE)
  set(GPU_TARGETS "${ISHMEM_HIP_ARCH}" CACHE STRING "AMD GPU targets" FORCE)
  find_package(hip CONFIG REQUIRED)
  # hipcc compiles every C++ file as HIP and asks the machine for its GPU: plain C++ files are
  # compiled as C++ (device sources get -x hip from hip::device, later on the line), and the
  # target is named so that no GPU query runs.
  # Debian's hipcc compiles with clang-N but its relocatable-device-code link finds the
  # default lld, which may be older than N: point it at lld-N where that exists.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} --version OUTPUT_VARIABLE ishmemi_cxx_version
                  ERROR_QUIET)
  if(ishmemi_cxx_version MATCHES "clang version ([0-9]+)")
    set(ishmemi_lld_dir "/usr/lib/llvm-${CMAKE_MATCH_1}/bin")
    if(EXISTS "${ishmemi_lld_dir}/ld.lld")
      set(ISHMEM_HIP_LLD_DIR "${ishmemi_lld_dir}")
    endif()
  endif()
  list(JOIN ISHMEM_HIP_ARCH "," ishmemi_arch_list)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-xc++>"
                      "$<$<COMPILE_LANGUAGE:CXX>:--offload-arch=${ishmemi_arch_list}>"
                      "$<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-command-line-argument>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:--offload-arch=${ishmemi_arch_list}>"
                   "$<$<LINK_LANGUAGE:CXX>:-Wno-unused-command-line-argument>")
endif()

# hwloc places each PE's CPUs next to its GPU (GPU backends only). Kept as paths, not a
# target, so that the installed package needs nothing to find it again.
set(ISHMEM_HWLOC_FOUND FALSE)
if(NOT ISHMEM_GPU_BACKEND STREQUAL "none")
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(ISHMEM_PC_HWLOC QUIET hwloc)
  endif()
  find_path(ISHMEM_HWLOC_INCLUDE hwloc.h HINTS ${ISHMEM_PC_HWLOC_INCLUDE_DIRS})
  find_library(ISHMEM_HWLOC_LIBRARY hwloc HINTS ${ISHMEM_PC_HWLOC_LIBRARY_DIRS})
  if(ISHMEM_HWLOC_INCLUDE AND ISHMEM_HWLOC_LIBRARY)
    set(ISHMEM_HWLOC_FOUND TRUE)
  else()
    message(WARNING "ishmem: hwloc not found; PEs will not be bound next to their GPU")
  endif()
endif()

message(STATUS "ishmem: GPU backend: ${ISHMEM_GPU_BACKEND}")
