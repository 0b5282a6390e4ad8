# cmake -DDOC=docs/architecture.md -DDECLARED=build/layers.txt -P CheckLayerGraph.cmake
# Fails unless the ```layers block of DOC lists exactly the lines of DECLARED,
# the layer graph that tcx_layer() calls declared ("name: dependencies").
file(READ ${DOC} doc)
string(REGEX MATCH "```layers\n([^`]*)```" block "${doc}")
if(NOT block)
  message(FATAL_ERROR "${DOC} has no ```layers block")
endif()
set(documented "${CMAKE_MATCH_1}")
file(READ ${DECLARED} declared)
string(REGEX REPLACE " +\n" "\n" documented "${documented}")
string(REGEX REPLACE " +\n" "\n" declared "${declared}")
if(NOT documented STREQUAL declared)
  message(FATAL_ERROR "The layer graph in ${DOC} differs from the one the build declares (${DECLARED}).\n"
                      "Documented:\n${documented}\nDeclared:\n${declared}")
endif()
message(STATUS "layer graph: docs and build agree")
