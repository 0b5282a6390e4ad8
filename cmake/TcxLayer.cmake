# tcx_layer(NAME [DIR PARENT] [DEPENDS LAYER...] [SOURCES FILE...]): the folder
# PARENT/NAME (PARENT defaults to the calling folder) as one static library,
# tcx_NAME, that links only the layers it names. core/ is all such layers; so
# are profiler/ and backend/ above it.
#
# A library boundary alone does not stop a header-only include that reaches
# upward through a shared include root. So core/ is no include root: each
# layer exports a directory of its own, build/layers/NAME, holding one link,
# NAME -> core/NAME. A file sees "NAME/Header.h" only for its own layer and
# the layers below it; an include that runs upward (or across) fails to
# compile with "No such file or directory".
#
# Each call also records "NAME: DEPENDS" in the global property TCX_LAYERS,
# which the top-level CMakeLists.txt writes to build/layers.txt for the test that
# compares it with docs/architecture.md.
function(tcx_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 L "" "DIR" "DEPENDS;SOURCES")
  if(NOT L_DIR)
    set(L_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  add_library(tcx_${name} STATIC ${L_SOURCES})
  set(root ${CMAKE_BINARY_DIR}/layers/${name})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${L_DIR}/${name} ${root}/${name} SYMBOLIC)
  target_include_directories(tcx_${name} PUBLIC ${root})
  foreach(dep IN LISTS L_DEPENDS)
    target_link_libraries(tcx_${name} PUBLIC tcx_${dep})
  endforeach()
  target_link_libraries(tcx_${name} PRIVATE tcx_warnings)
  list(JOIN L_DEPENDS " " deps)
  set_property(GLOBAL APPEND PROPERTY TCX_LAYERS "${name}: ${deps}")
endfunction()
