#ifndef TCX_GRID_DEPENDENCY_CUH
#define TCX_GRID_DEPENDENCY_CUH
// Programmatic dependent launch (Hopper, sm_90): the profiler launches every plan kernel after the
// first with cudaLaunchAttributeProgrammaticStreamSerialization, so the runtime launches it as soon
// as every block of the kernel before it has exited, without waiting for that kernel to complete
// and flush its writes: the launch and the blocks' start overlap the previous kernel's end. Every
// generated kernel therefore opens with (codegen's kernelOpening)
//
//   tcx::awaitPredecessors();  // nothing below runs before the previous kernel has completed
//
// in every thread, so no kernel completes before the one before it, and the wait is transitive:
// whatever any earlier kernel wrote is complete and visible after it, as in plain stream order.
//
// No kernel lets its dependents in earlier (griddepcontrol.launch_dependents, at its start or after
// its wait): measured on an H200 (docs/benchmarks.md, "Kernels launched as the one before them
// ends"), that made the transformers faster and the CNNs slower, ConvNeXt-T by 14 % (after the wait)
// and 27 % (at the start): with the next kernel's blocks let in while they ran, its tiled GEMMs,
// convolutions and LayerNorms took 10 to 100 % longer. No rule by grid size or kernel kind separated
// the two.
//
// Without the attribute (older GPUs, KernelBench) the wait returns at once.

#include "tcx/types.cuh"

namespace tcx {

// Called by every thread: returns once the previous kernel on the stream has completed and its
// writes are visible.
__device__ __forceinline__ void awaitPredecessors() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

} // namespace tcx

#endif // TCX_GRID_DEPENDENCY_CUH
