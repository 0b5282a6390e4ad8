# Warnings are on for all of tcx's own targets and kept clean.
add_library(tcx_warnings INTERFACE)
target_compile_options(tcx_warnings INTERFACE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
option(TCX_WERROR "Treat warnings as errors" OFF)
if(TCX_WERROR)
  target_compile_options(tcx_warnings INTERFACE -Werror)
endif()
