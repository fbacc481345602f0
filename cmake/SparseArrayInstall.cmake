# `cmake --install build --prefix P` (issue 19): headers, libraries, the
# runtime, sa-opt/sa-run and a CMake package so that another project does
#   find_package(SparseArray CONFIG)   # SparseArray_DIR=P/lib/cmake/SparseArray
#   target_link_libraries(tool PRIVATE SparseArray::Registration)
# (examples/consumer is such a project; scripts/test.sh builds it against an
# installed prefix.)

set(SPARSE_ARRAY_EXPORTED_LIBS
  Algebra Dialect Analysis Transforms Conversion Import Registration Jit
  MLIRCAPI)
foreach(lib ${SPARSE_ARRAY_EXPORTED_LIBS})
  set_target_properties(SparseArray${lib} PROPERTIES EXPORT_NAME ${lib})
endforeach()
set_target_properties(sparse_array_runtime PROPERTIES EXPORT_NAME Runtime)
set_target_properties(SparseArrayRuntimeStatic PROPERTIES
  EXPORT_NAME RuntimeStatic)
set_target_properties(SparseArrayCAPI PROPERTIES EXPORT_NAME CAPI)
# It finds LLVM's and MLIR's shared libraries where Debian installs them,
# built and installed alike (no RPATH rewrite on install).
foreach(target SparseArrayCAPI sa-opt sa-run)
  set_target_properties(${target} PROPERTIES
    BUILD_WITH_INSTALL_RPATH ON INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
endforeach()

# add_mlir_library installs each library (lib/) in the MLIRTargets export
# set; the runtime, the C API and the tools are installed here.
install(TARGETS sparse_array_runtime SparseArrayRuntimeStatic SparseArrayCAPI
  EXPORT MLIRTargets
  LIBRARY DESTINATION lib
  ARCHIVE DESTINATION lib)
install(TARGETS sa-opt sa-run RUNTIME DESTINATION bin)
install(EXPORT MLIRTargets
  NAMESPACE SparseArray::
  FILE SparseArrayTargets.cmake
  DESTINATION lib/cmake/SparseArray)

install(DIRECTORY include/SparseArray include/SparseArray-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/SparseArray DESTINATION include
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY runtime/include/ DESTINATION include
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY stdlib DESTINATION share/sparse_array)

configure_file(cmake/SparseArrayConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/SparseArrayConfig.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/SparseArrayConfig.cmake
  DESTINATION lib/cmake/SparseArray)
