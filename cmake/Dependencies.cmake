# Every dependency comes from Debian packages (run.sh installs them); nothing
# is downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Catch2 REQUIRED)
# ONNX's exported targets link protobuf::libprotobuf: find protobuf first.
find_package(Protobuf REQUIRED)
find_package(ONNX REQUIRED)
find_package(SQLite3 REQUIRED)
pkg_check_modules(Z3 REQUIRED IMPORTED_TARGET z3)
pkg_check_modules(GVC REQUIRED IMPORTED_TARGET libgvc)

# CUDA is optional: the GPU backend is built when the toolkit is present, and
# no tcx binary links libcuda (the runtime loads the driver lazily).
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  message(STATUS "tcx: CUDA toolkit ${CUDAToolkit_VERSION} found; GPU backend enabled")
else()
  message(STATUS "tcx: no CUDA toolkit; GPU backend disabled (estimated mode only)")
endif()
