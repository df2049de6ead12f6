# The dependencies of the WebAssembly build (emcmake cmake; web/CMakeLists.txt), in place of
# the native find_package calls: Boost (Multiprecision's cpp_bin_float and cpp_rational), Eigen
# and CLI11 are header-only, and are put on the include path by their own folders alone (not
# /usr/include, whose glibc headers would shadow emscripten's libc). MPFR, GMP and MPI have no
# WebAssembly build: ADLANG_NO_MPFR (semantics/scalar.hpp) and ADLANG_NO_MPI
# (driver/run_command.cpp, checker/check_ranks.cpp) leave them out.
set(ADLANG_HOST_INCLUDE /usr/include CACHE PATH "Where Debian's Boost, Eigen and CLI11 headers are")
set(_adlang_wasm_include ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${_adlang_wasm_include})
foreach(dir boost CLI)
  if(NOT EXISTS ${ADLANG_HOST_INCLUDE}/${dir})
    message(FATAL_ERROR "${ADLANG_HOST_INCLUDE}/${dir} is missing (scripts/install-deps.sh)")
  endif()
  file(CREATE_LINK ${ADLANG_HOST_INCLUDE}/${dir} ${_adlang_wasm_include}/${dir} SYMBOLIC)
endforeach()
if(NOT EXISTS ${ADLANG_HOST_INCLUDE}/eigen3/Eigen)
  message(FATAL_ERROR "${ADLANG_HOST_INCLUDE}/eigen3 is missing (libeigen3-dev)")
endif()

add_library(Boost::boost INTERFACE IMPORTED)
target_include_directories(Boost::boost SYSTEM INTERFACE ${_adlang_wasm_include})
add_library(Eigen3::Eigen INTERFACE IMPORTED)
target_include_directories(Eigen3::Eigen SYSTEM INTERFACE ${ADLANG_HOST_INCLUDE}/eigen3)
add_library(CLI11::CLI11 INTERFACE IMPORTED)
target_include_directories(CLI11::CLI11 SYSTEM INTERFACE ${_adlang_wasm_include})
# No threads in the page: run_on_large_stack (support/stack.hpp) runs its body in place.
add_library(Threads::Threads INTERFACE IMPORTED)
set(MPFR_INCLUDE_DIR ${_adlang_wasm_include})
set(MPFR_LIBRARY "")
set(GMP_LIBRARY "")
add_compile_definitions(ADLANG_NO_MPFR ADLANG_NO_MPI)
# The commands report errors by exceptions (emscripten turns catching off by default).
add_compile_options(-fexceptions)
