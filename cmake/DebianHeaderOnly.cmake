# Debian's header-only nlohmann_json and Catch2 v2, for native builds and under emcmake.
#
# Under emcmake, Emscripten.cmake restricts find_package to the emscripten sysroot, so the
# packages are looked up with NO_CMAKE_FIND_ROOT_PATH. Their imported targets then carry
# -I/usr/include, which would pull glibc headers into em++ ("bits/libc-header-start.h not
# found"), so under EMSCRIPTEN their include dirs are replaced by a shim directory that holds
# only symlinks to the two header trees (TOOLCHAIN.md §A, pitfall P2).

function(rulestack_shim_dir out_var)
  set(shim "${CMAKE_BINARY_DIR}/_sysinc_shim")
  file(MAKE_DIRECTORY "${shim}")
  foreach(sub IN LISTS ARGN)
    if(NOT EXISTS "${shim}/${sub}")
      file(CREATE_LINK "/usr/include/${sub}" "${shim}/${sub}" SYMBOLIC)
    endif()
  endforeach()
  set(${out_var} "${shim}" PARENT_SCOPE)
endfunction()

find_package(nlohmann_json 3.11 CONFIG REQUIRED NO_CMAKE_FIND_ROOT_PATH)
if(BUILD_TESTING)
  find_package(Catch2 2.13 CONFIG REQUIRED NO_CMAKE_FIND_ROOT_PATH)
  list(APPEND CMAKE_MODULE_PATH "${Catch2_DIR}")  # for include(Catch)
endif()

if(EMSCRIPTEN)
  rulestack_shim_dir(_rulestack_shim nlohmann catch2)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_rulestack_shim}")
  if(TARGET Catch2::Catch2)
    set_target_properties(Catch2::Catch2 PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${_rulestack_shim}")
  endif()
endif()
