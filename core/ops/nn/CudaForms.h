#pragma once
// The CUDA forms of the nn family (ops/CudaLowering.h), a file per concept:
// registerCudaForms (Cuda.cpp) registers the matrix products and calls
// these for the rest.

namespace tcx {
class OpRegistry;
}

namespace tcx::nn {

void registerConvolutionCudaForms(OpRegistry& registry);   // Conv, ConvTranspose (CudaConvolution.cpp)
void registerPoolingCudaForms(OpRegistry& registry);       // the pools (CudaPooling.cpp)
void registerNormalizationCudaForms(OpRegistry& registry); // the normalizations (CudaNormalization.cpp)

} // namespace tcx::nn
