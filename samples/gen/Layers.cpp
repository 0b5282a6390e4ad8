#include "Layers.h"

#include <cmath>

namespace tcx::samples {

Value* scalar(GraphBuilder& b, const std::string& name, DType dtype, double value) {
  return b.constant(name, Tensor::filled(dtype, {}, value));
}

Value* reshape(GraphBuilder& b, const std::string& scope, Value* x, std::vector<int64_t> shape) {
  return b.op("Reshape", {x, b.ints(scope + "/Reshape_shape", std::move(shape))}, {}, scope + "/Reshape");
}

Value* transpose(GraphBuilder& b, const std::string& scope, Value* x, std::vector<int64_t> perm) {
  return b.op("Transpose", {x}, attrs({{"perm", std::move(perm)}}), scope + "/Transpose");
}

Value* silu(GraphBuilder& b, const std::string& scope, Value* x) {
  Value* s = b.op("Sigmoid", {x}, {}, scope + "/Sigmoid");
  return b.op("Mul", {x, s}, {}, scope + "/Mul");
}

Value* conv2d(GraphBuilder& b, const std::string& scope, Value* x, Value* w, int64_t kernel, int64_t groups) {
  int64_t pad = kernel / 2;
  return b.op("Conv", {x, w},
              attrs({{"kernel_shape", std::vector<int64_t>{kernel, kernel}},
                     {"pads", std::vector<int64_t>{pad, pad, pad, pad}},
                     {"strides", std::vector<int64_t>{1, 1}},
                     {"dilations", std::vector<int64_t>{1, 1}},
                     {"group", groups}}),
              scope + "/Conv");
}

Value* rmsNorm(GraphBuilder& b, const std::string& scope, Value* x, Value* gamma, double epsilon) {
  DType dtype = x->type().dtype;
  Value* sq = b.op("Pow", {x, scalar(b, scope + "/Pow_exponent", dtype, 2.0)}, {}, scope + "/Pow");
  Value* ms = b.op("ReduceMean", {sq, b.ints(scope + "/ReduceMean_axes", {-1})}, attrs({{"keepdims", 1}}), scope + "/ReduceMean");
  ms = b.op("Add", {ms, scalar(b, scope + "/eps", dtype, epsilon)}, {}, scope + "/Add");
  Value* rms = b.op("Sqrt", {ms}, {}, scope + "/Sqrt");
  Value* normed = b.op("Div", {x, rms}, {}, scope + "/Div");
  return b.op("Mul", {normed, gamma}, {}, scope + "/Mul");
}

Value* softmaxInFloat(GraphBuilder& b, const std::string& scope, Value* x) {
  DType dtype = x->type().dtype;
  if (dtype == DType::F32) return b.op("Softmax", {x}, attrs({{"axis", -1}}), scope + "/Softmax");
  Value* f = b.op("Cast", {x}, attrs({{"to", dtypeToOnnx(DType::F32)}}), scope + "/Cast");
  Value* p = b.op("Softmax", {f}, attrs({{"axis", -1}}), scope + "/Softmax");
  return b.op("Cast", {p}, attrs({{"to", dtypeToOnnx(dtype)}}), scope + "/Cast_1");
}

Value* repeatKv(GraphBuilder& b, const std::string& scope, Value* kv, int64_t rep) {
  const Shape& s = kv->type().shape; // [B, S, KV, D]
  Value* u = b.op("Unsqueeze", {kv, b.ints(scope + "/Unsqueeze_axes", {3})}, {}, scope + "/Unsqueeze");
  Value* e = b.op("Expand", {u, b.ints(scope + "/Expand_shape", {s[0], s[1], s[2], rep, s[3]})}, {}, scope + "/Expand");
  return reshape(b, scope, e, {s[0], s[1], s[2] * rep, s[3]});
}

} // namespace tcx::samples
