# ishmemcc, ishmemc++ and ishmemrun: a build-tree copy under <build>/bin (used by the tests)
# pointing at the source and build trees, and an installed copy pointing at the install
# prefix. oshcc, oshc++ and oshrun are installed as links to them unless a program of that
# name already exists (Open MPI's OpenSHMEM on Debian has them in /usr/bin).
set(ishmemi_tool_libs "$<TARGET_FILE:ishmem>")
if(NOT BUILD_SHARED_LIBS)
  # A static libishmem brings its own dependencies: the C++ runtime, threads, the GPU ones.
  string(APPEND ishmemi_tool_libs " -lstdc++ -lpthread -lm")
  if(ISHMEM_HWLOC_LIBRARY)
    string(APPEND ishmemi_tool_libs " ${ISHMEM_HWLOC_LIBRARY}")
  endif()
endif()
# The GPU runtime, found again at run time where the program was linked.
foreach(runtime CUDA::cudart hip::amdhip64)
  if(TARGET ${runtime} AND NOT ISHMEM_GPU_BACKEND STREQUAL "none")
    string(APPEND ishmemi_tool_libs
           " $<TARGET_FILE:${runtime}> -Wl,-rpath,$<TARGET_FILE_DIR:${runtime}> -ldl -lrt")
  endif()
endforeach()
# The public compile definitions of a GPU build (ISHMEM_GPU_CUDA or _HIP).
set(ishmemi_tool_defs "")
if(ISHMEM_GPU_BACKEND STREQUAL "cuda")
  set(ishmemi_tool_defs " -DISHMEM_GPU_CUDA=1")
elseif(ISHMEM_GPU_BACKEND STREQUAL "hip")
  set(ishmemi_tool_defs " -DISHMEM_GPU_HIP=1")
endif()

# ishmemi_tool(<template> <name> <env> <wrapper> <dir> <where> <includes> <libs>)
function(ishmemi_tool template name env wrapper dir where includes libs)
  set(ISHMEM_TOOL_NAME ${name})
  set(ISHMEM_TOOL_ENV ${env})
  set(ISHMEM_TOOL_WRAPPER ${wrapper})
  set(ISHMEM_TOOL_WHERE ${where})
  set(ISHMEM_TOOL_INCLUDES ${includes})
  set(ISHMEM_TOOL_LIBS ${libs})
  set(ISHMEM_TOOL_MPIEXEC ${MPIEXEC_EXECUTABLE})
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/tools/${template}.in
                 ${CMAKE_CURRENT_BINARY_DIR}/tools/${dir}/${name}.in @ONLY)
  file(GENERATE OUTPUT ${dir}/${name} INPUT ${CMAKE_CURRENT_BINARY_DIR}/tools/${dir}/${name}.in
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                        WORLD_READ WORLD_EXECUTE)
endfunction()

find_program(ISHMEM_MPICC_WRAPPER NAMES mpicc REQUIRED)
find_program(ISHMEM_MPICXX_WRAPPER NAMES mpicxx mpic++ REQUIRED)
set(ishmemi_build_bin ${PROJECT_BINARY_DIR}/bin)
set(ishmemi_build_inc
    "-I${PROJECT_SOURCE_DIR}/include -I${ISHMEM_GENERATED_INCLUDE_DIR}${ishmemi_tool_defs}")
set(ishmemi_install_inc "-I\$prefix/${CMAKE_INSTALL_INCLUDEDIR}${ishmemi_tool_defs}")
set(ishmemi_build_libs "${ishmemi_tool_libs}")
if(ISHMEM_SANITIZE)  # the build tree's library carries the sanitizers' run-time calls
  string(APPEND ishmemi_build_libs " -fsanitize=${ISHMEM_SANITIZE}")
endif()
set(ishmemi_install_libs "${ishmemi_tool_libs}")
string(REPLACE "$<TARGET_FILE:ishmem>" "\$prefix/${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:ishmem>"
       ishmemi_install_libs "${ishmemi_install_libs}")
foreach(kind build install)
  if(kind STREQUAL "build")
    set(dir ${ishmemi_build_bin})
    set(where "in its build tree")
  else()
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/tools/install)
    set(where "installed beside it")
  endif()
  ishmemi_tool(ishmemcc ishmemcc ISHMEM_MPICC ${ISHMEM_MPICC_WRAPPER} ${dir} "${where}"
               "${ishmemi_${kind}_inc}" "${ishmemi_${kind}_libs}")
  ishmemi_tool(ishmemcc ishmemc++ ISHMEM_MPICXX ${ISHMEM_MPICXX_WRAPPER} ${dir} "${where}"
               "${ishmemi_${kind}_inc}" "${ishmemi_${kind}_libs}")
  ishmemi_tool(ishmemrun ishmemrun "" "" ${dir} "${where}" "" "")
endforeach()

set(ishmemi_install_tools ${CMAKE_CURRENT_BINARY_DIR}/tools/install)
install(PROGRAMS ${ishmemi_install_tools}/ishmemcc ${ishmemi_install_tools}/ishmemc++
                 ${ishmemi_install_tools}/ishmemrun DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(pair oshcc:ishmemcc oshc++:ishmemc++ oshrun:ishmemrun)
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 osh)
  list(GET pair 1 ours)
  find_program(ISHMEM_EXISTING_${osh} NAMES ${osh} NO_CACHE)
  if(ISHMEM_EXISTING_${osh})
    message(STATUS "ishmem: ${osh} exists (${ISHMEM_EXISTING_${osh}}); not installing ours")
  else()
    install(CODE "file(CREATE_LINK ${ours}
                  \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${osh} SYMBOLIC)")
  endif()
endforeach()
