# CMake helpers that declare attnc's libraries. Every library is an MLIR
# library (add_mlir_library), exported as attnc::<component> from
# attncConfig.cmake (cmake/modules/attncConfig.cmake.in), and installed with
# its headers' include root.

include(GNUInstallDirs)

# Gives `name` the include roots of attnc's public headers (the source tree's
# include/ and the generated .inc files under the build tree's include/ while
# building; <prefix>/include once installed), exports it as
# attnc::<export_name> and installs it.
function(attnc_export_library name export_name)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${name} PUBLIC cxx_std_17)
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
  install(TARGETS ${name} EXPORT attncTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  add_library(attnc::${export_name} ALIAS ${name})
endfunction()

# add_attnc_library(<name> EXPORT_NAME <component> [DIALECT]
#                   [MLIR_LIBS <MLIR libraries>...] <add_mlir_library args>)
#
# An attnc library linked against the MLIR libraries it uses: MLIR_LIBS are
# linked with mlir_target_link_libraries, so MLIR_LINK_MLIR_DYLIB=ON links
# libMLIR.so instead of the static archives. LINK_LIBS (attnc libraries) and
# LINK_COMPONENTS (LLVM components, libLLVM.so under LLVM_LINK_LLVM_DYLIB) are
# passed on. DIALECT declares it with add_mlir_dialect_library.
function(add_attnc_library name)
  cmake_parse_arguments(ARG "DIALECT" "EXPORT_NAME" "MLIR_LIBS" ${ARGN})
  if(ARG_DIALECT)
    add_mlir_dialect_library(${name} ${ARG_UNPARSED_ARGUMENTS} DISABLE_INSTALL)
  else()
    add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS} DISABLE_INSTALL)
  endif()
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  attnc_export_library(${name} ${ARG_EXPORT_NAME})
endfunction()
