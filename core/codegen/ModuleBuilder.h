#pragma once
// The module being generated: its code in definition order, the scratch
// buffers its kernels asked for, and the launches. Kernel emitters append
// to it; CudaCodegen wraps it with the includes and the Buffers struct.
//
// Emitters name module buffers through bufferRef and prefix every name a
// plan kernel defines with kernelPrefix(k). When a plan kernel's code is
// complete, the builder binds each buffer and offset it names to a slot
// (numbered in the order the code first names them; the kernel's launches
// record what each slot holds); a kernel whose bound code is an earlier
// kernel's, but for the prefix, keeps no code of its own and launches the
// earlier kernel's entries (GeneratedPlan::codeKernel).

#include "codegen/GeneratedPlan.h"
#include "ir/Shape.h"
#include "ops/CudaLowering.h"
#include "plan/Layout.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace tcx {

class ModuleBuilder {
public:
  explicit ModuleBuilder(size_t numPlanBuffers) { plan_.numPlanBuffers = numPlanBuffers; }

  // "k<planKernel>_": what every name plan kernel `planKernel` defines
  // begins with.
  static std::string kernelPrefix(int planKernel);
  // How kernel code names module buffer `buffer` with `byteOffset` (>= 0)
  // added to its address: a void* the launch binds (GeneratedLaunch::buffers),
  // spelled b.p[buffer] or b.p[buffer+byteOffset] until the kernel is done.
  static std::string bufferRef(int buffer, int64_t byteOffset = 0);
  // How kernel code reads `value` (>= 0) as a launch value: a number bound
  // to a slot as buffers are (BufferBinding::kValue), where a literal would
  // make the code of kernels that differ only in it differ.
  static std::string launchValue(int64_t value);
  // A `const type*` to element `elementOffset` of `buffer`, whose elements
  // take `elementBytes`; a positive offset goes into the binding.
  static std::string elementPointer(int buffer, int64_t elementOffset, std::string_view type, int elementBytes);

  // Device code (functions, constants, kernels) appended in definition order.
  void append(const std::string& code) { code_ += code; }
  // Code appended from now until the next beginKernel (or finish) belongs
  // to plan kernel `planKernel` (GeneratedPlan::kernelSpans). It is guarded
  // so that a compile of part of the module (GeneratedPlan.h) leaves it out.
  void beginKernel(int planKernel);
  // A new scratch buffer holding `name`; returns its buffer index.
  int addScratch(int64_t bytes, std::string name, bool zeroed = false);
  // The workspace of the library kernels, grown to `bytes` if smaller;
  // returns its buffer index. It begins with the split-K arrival counters
  // (abi.h), zeroed once, then the GEMMs' partial tiles or the attention's
  // partials. One buffer serves them all: the plan's launches run one after
  // another on one stream, each GEMM leaves the counters at zero for the
  // next, and the attention keeps out of them.
  int sharedWorkspace(int64_t bytes);
  // The scratch buffer vendor library calls stage their results in, grown
  // to `bytes` if smaller; returns its buffer index. One serves every
  // alternative, as their kernels run one after another.
  int vendorStaging(int64_t bytes);
  // The same for the inputs alternatives' preludes compute (VendorAlternative::prelude).
  int vendorInput(int64_t bytes);
  // Records `call` as plan kernel `planKernel`'s alternative (VendorCall.h):
  // it stages its (batch, m, n) result of `elements` in buffer `staging`,
  // then the kernel `entry`, whose code the caller appended, runs the plan
  // kernel's epilogue over them, `perThread` a thread (elementsPerThread);
  // `prelude`, if any, computes the call's input first, into vendorInput().
  void addVendorAlternative(int planKernel, VendorCall call, int staging, const std::string& entry, int64_t elements,
                            unsigned perThread, std::string what, std::optional<GeneratedLaunch> prelude = {});
  // A launch of `blocks` (clamped to [1, kMaxBlocks]; the kernels loop over
  // the rest) blocks of `threads` threads, returned, not recorded.
  static GeneratedLaunch launch1d(int planKernel, const std::string& entry, int64_t blocks, unsigned threads,
                                  std::string what);
  // Records a launch the caller built (valueKernel's).
  void recordLaunch(GeneratedLaunch launch) { plan_.launches.push_back(std::move(launch)); }
  // Records the launch of a library kernel with the configuration its
  // planner (kernels/include/tcx/launch.h) gave. Its code instantiates a
  // library template, which weighs on the compile (GeneratedPlan::compileCost).
  void addLibraryLaunch(int planKernel, std::string entry, const unsigned (&grid)[3], const unsigned (&block)[3],
                        unsigned sharedBytes, std::string what);

  // Appends a kernel that runs `body` once for every index of `shape`, with
  // the index in variables x0, x1, ... (one thread per element, grid-stride),
  // and records its launch.
  // With `walk`, consecutive threads take consecutive elements of a buffer
  // stored in that layout (the store coalesces), the variables still naming
  // the logical index.
  void addElementKernel(int planKernel, const std::string& entry, const Shape& shape, const std::string& body,
                        std::string what, const Layout& walk = {});
  // The same for an element that `compute` assigns to `out` (of type
  // `type`, declared by the kernel) and `store` stores: each thread takes
  // `perThread` elements (elementsPerThread) a block's width apart and
  // computes them all before it stores any, so that their loads are in
  // flight together (one element's store would otherwise order the next
  // one's loads behind it: tcx/epilogue.cuh says why).
  void addValueKernel(int planKernel, const std::string& entry, const Shape& shape, unsigned perThread,
                      const std::string& type, const std::string& compute, const std::string& store, std::string what,
                      const Layout& walk = {}) {
    recordLaunch(valueKernel(planKernel, entry, shape, perThread, type, compute, store, std::move(what), walk));
  }
  // The same kernel, its launch returned instead of recorded: a vendor
  // alternative's prelude (VendorAlternative::prelude) runs only with it.
  GeneratedLaunch valueKernel(int planKernel, const std::string& entry, const Shape& shape, unsigned perThread,
                              const std::string& type, const std::string& compute, const std::string& store,
                              std::string what, const Layout& walk = {});

  // Appends a kernel that computes every element of `shape` with one block
  // (ops/CudaLowering.h CudaBlockFold): the output index in x0, x1, ..., the
  // element in `out` (of type _T) for `store`, and records its launch.
  void addBlockFoldKernel(int planKernel, const std::string& entry, const Shape& shape, const CudaBlockFold& fold,
                          const std::string& store, std::string what);
  // The same with a warp per element: for folds of up to a few hundred elements.
  void addWarpFoldKernel(int planKernel, const std::string& entry, const Shape& shape, const CudaBlockFold& fold,
                         const std::string& store, std::string what);

  // Appends a kernel that computes a row form (ops/CudaLowering.h
  // CudaRowForm) with one block per row: the output index in x0, x1, ...,
  // the element in `out` (of outType) for `store`, and records its launch.
  void addRowKernel(int planKernel, const std::string& entry, const CudaRowForm& form, const std::string& outType,
                    const std::string& store, std::string what);
  // The same with a warp per row: for rows of up to a few hundred elements.
  void addWarpRowKernel(int planKernel, const std::string& entry, const CudaRowForm& form,
                        const std::string& outType, const std::string& store, std::string what);
  // The same with a block per 32 rows, for rows that lie side by side in
  // memory: the block loads its rows into a shared tile, a row a lane, with
  // `tile.load` (operand 0 at x0, x1, ...), and `form` reads operand 0 as
  // kRowTileValue. The tile takes rowTileBytes of dynamic shared memory.
  struct RowTile {
    std::string load;
    std::string type; // operand 0's compute type
    int elementBytes = 4;
  };
  static const char* const kRowTileValue;
  static int64_t rowTileBytes(int64_t rowCount, int elementBytes);
  void addInterleavedRowKernel(int planKernel, const std::string& entry, const CudaRowForm& form,
                               const RowTile& tile, const std::string& outType, const std::string& store,
                               std::string what);

  // `narrowIndex`: every element index and offset of the module fits an int.
  GeneratedPlan finish(const std::string& prelude, bool narrowIndex) &&;

private:
  // Binds the current kernel's buffers to slots and shares an earlier
  // kernel's code where it is the same.
  void endKernel();
  // The current kernel's launches and its vendor alternative's epilogue.
  std::vector<GeneratedLaunch*> currentLaunches();
  void addLaunch1d(int planKernel, const std::string& entry, int64_t blocks, unsigned threads, std::string what);
  void addLaunch(int planKernel, std::string entry, const unsigned (&grid)[3], const unsigned (&block)[3],
                 unsigned sharedBytes, std::string what);

  std::string code_;
  int currentKernel_ = -1;
  size_t kernelStart_ = 0; // offset in code_ where the current kernel's code began
  std::string guard_;      // the current kernel's opening #if
  size_t launchStart_ = 0; // the current kernel's first launch
  size_t alternativeStart_ = 0; // the current kernel's vendor alternative, if it has one
  std::vector<std::pair<size_t, size_t>> kernelRanges_; // code_ offsets per plan kernel
  std::vector<int> codeKernel_;                         // GeneratedPlan::codeKernel
  std::vector<int> libraryKernels_;                     // per plan kernel: library templates instantiated
  // Bound code with its prefix masked -> the plan kernel that has it.
  std::unordered_map<std::string, int> kernelByCode_;
  int sharedWorkspace_ = -1;
  int vendorStaging_ = -1;
  int vendorInput_ = -1;
  GeneratedPlan plan_;
};

// x0, x1, ... for a tensor of `rank` dimensions.
std::vector<std::string> indexNames(size_t rank);
// "Index x0, Index x1": the index parameters of a value function.
std::string indexParams(size_t rank);
// "x0, x1": a call's index arguments.
std::string joinIndex(const std::vector<std::string>& index);

} // namespace tcx
