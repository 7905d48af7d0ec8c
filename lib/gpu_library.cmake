# The GPU parts of the library, included by lib/CMakeLists.txt after the ishmem target exists:
# the stream and device-handle entry points and placement (every build; they act on the host
# backend too), the backend of ISHMEM_GPU_BACKEND, and the device library ishmem::device.
target_sources(ishmem PRIVATE
  api/device.cpp
  api/stream.cpp
  runtime/gpu_runtime.cpp
  runtime/placement.cpp)

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

if(ISHMEM_GPU_BACKEND STREQUAL "cuda")
  target_sources(ishmem PRIVATE backend/cuda/cuda_backend.cpp)
  # The runtime only: the driver is reached at run time, never linked.
  target_link_libraries(ishmem PUBLIC CUDA::cudart)
  target_compile_definitions(ishmem PUBLIC ISHMEM_GPU_CUDA=1)

  # The device library: the state behind the no-argument device calls. Relocatable device
  # code, so a program that calls them sets CUDA_SEPARABLE_COMPILATION and links this.
  add_library(ishmem_device STATIC device/device_state.cu)
  set_target_properties(ishmem_device PROPERTIES CUDA_SEPARABLE_COMPILATION ON
                                                 POSITION_INDEPENDENT_CODE ON
                                                 EXPORT_NAME device)
elseif(ISHMEM_GPU_BACKEND STREQUAL "hip")
  target_sources(ishmem PRIVATE backend/hip/hip_backend.cpp)
  target_link_libraries(ishmem PUBLIC hip::host)
  target_compile_definitions(ishmem PUBLIC ISHMEM_GPU_HIP=1)

  add_library(ishmem_device STATIC)
  ishmem_gpu_sources(ishmem_device device/device_state.cu)
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
