#pragma once
// Building blocks shared by the sample builders, written the way PyTorch's
// ONNX exporter spells them (SiLU as x * Sigmoid(x), RMSNorm as
// Pow/ReduceMean/Add/Sqrt/Div/Mul), with /module/scoped node names like a
// real export, so the explorer can group them.

#include "ops/GraphBuilder.h"

#include <string>
#include <vector>

namespace tcx::samples {

// A scalar constant of `dtype`.
Value* scalar(GraphBuilder& b, const std::string& name, DType dtype, double value);
Value* reshape(GraphBuilder& b, const std::string& scope, Value* x, std::vector<int64_t> shape);
Value* transpose(GraphBuilder& b, const std::string& scope, Value* x, std::vector<int64_t> perm);
Value* silu(GraphBuilder& b, const std::string& scope, Value* x);
// Conv2d without bias, square kernel, stride 1, "same" padding.
Value* conv2d(GraphBuilder& b, const std::string& scope, Value* x, Value* w, int64_t kernel, int64_t groups = 1);
// RMSNorm over the last axis, scaled by `gamma`.
Value* rmsNorm(GraphBuilder& b, const std::string& scope, Value* x, Value* gamma, double epsilon);
// x.float() -> softmax(-1) -> back to x's dtype, as LLM exports do it.
Value* softmaxInFloat(GraphBuilder& b, const std::string& scope, Value* x);
// Replicates KV heads for grouped-query attention: [B,S,KV,D] ->
// Unsqueeze -> Expand [B,S,KV,rep,D] -> Reshape [B,S,KV*rep,D].
Value* repeatKv(GraphBuilder& b, const std::string& scope, Value* kv, int64_t rep);

} // namespace tcx::samples
