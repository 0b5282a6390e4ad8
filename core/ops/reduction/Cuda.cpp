// The CUDA form of this family's ops: one output element per thread, a loop
// over the folded axes. Library kernels (kernels/include/tcx) take over the
// patterns that matter for speed; this form is what every plan can fall
// back on, so it favours being obviously right.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/reduction/Common.h"
#include "ops/reduction/ReducePlan.h"
#include "ops/reduction/ReductionOps.h"

#include <fmt/format.h>

namespace tcx::reduction {

namespace {

// How a Reduce* op folds: each element is mapped, accumulated, and the
// accumulator finished (`acc` and `count` in scope).
struct CudaReducer {
  const char* init;   // e.g. "T(0)"; T is the compute type
  const char* map;    // of `v`
  const char* fold;   // of `acc` and the mapped `m`
  const char* finish; // of `acc`
};

CudaElementFn reduceElement(CudaReducer r) {
  return [r](const CudaElementContext& ctx) {
    const Node& node = ctx.node;
    const Shape& in = node.input(0)->type().shape;
    const Tensor* axes = nullptr;
    if (node.numInputs() > 1 && node.input(1)) {
      TCX_CHECK(node.input(1)->isConstant(), ErrorKind::Unsupported, "axes computed at run time");
      axes = &node.input(1)->constant();
    }
    AxisMask mask = reduceAxesMask(axes, node.attrs(), static_cast<int64_t>(in.size()));
    bool keepdims = node.attrs().getInt("keepdims", 1) != 0;
    std::string loops, close;
    std::vector<std::string> index;
    int64_t count = 1;
    size_t out = 0;
    for (size_t d = 0; d < in.size(); ++d) {
      if (mask[d]) {
        std::string var = fmt::format("_r{}", d);
        loops += fmt::format("for (Index {0} = 0; {0} < {1}; ++{0}) ", var, in[d]);
        index.push_back(var);
        count *= in[d];
        if (keepdims) ++out;
      } else {
        index.push_back(ctx.outIndex[out++]);
      }
    }
    auto fmtReducer = [&](const char* pattern) {
      return fmt::format(fmt::runtime(pattern), fmt::arg("T", ctx.resultType));
    };
    return fmt::format("{T} acc = {init};\nconst Index count = {count};\n{loops}{{\n  {T} v = {value};\n  {T} m = "
                       "{map};\n  acc = {fold};\n}}\nout = {finish};\n(void)count;\n",
                       fmt::arg("T", ctx.resultType), fmt::arg("init", fmtReducer(r.init)), fmt::arg("count", count),
                       fmt::arg("loops", loops), fmt::arg("value", ctx.operandAt(0, index)),
                       fmt::arg("map", r.map), fmt::arg("fold", r.fold), fmt::arg("finish", fmtReducer(r.finish)));
  };
}

// Softmax and LogSoftmax along one axis: the maximum, the sum of exp(x - max),
// then this element.
CudaElementFn softmaxElement(bool logForm) {
  return [logForm](const CudaElementContext& ctx) {
    const Node& node = ctx.node;
    const Shape& in = node.input(0)->type().shape;
    int64_t axis = checkedAxis(node.attrs().getInt("axis", -1), static_cast<int64_t>(in.size()));
    std::vector<std::string> at = ctx.outIndex;
    at[axis] = "_j";
    std::string x = ctx.operandAt(0, at), self = ctx.operandAt(0, ctx.outIndex);
    std::string finish = logForm ? fmt::format("out = ({} - _max) - tcx::op::Log(_sum);", self)
                                 : fmt::format("out = tcx::op::Exp({} - _max) / _sum;", self);
    return fmt::format("{T} _max = tcx::op::Limits<{T}>::lowest();\n"
                       "for (Index _j = 0; _j < {n}; ++_j) _max = tcx::op::Max(_max, {T}({x}));\n"
                       "{T} _sum = 0;\n"
                       "for (Index _j = 0; _j < {n}; ++_j) _sum += tcx::op::Exp({T}({x}) - _max);\n{finish}\n",
                       fmt::arg("T", ctx.resultType), fmt::arg("n", in[axis]), fmt::arg("x", x),
                       fmt::arg("finish", finish));
  };
}

} // namespace

void registerCudaForms(OpRegistry& registry) {
  registry.edit("ReduceSum").cudaElement = reduceElement({"{T}(0)", "v", "acc + m", "acc"});
  registry.edit("ReduceMean").cudaElement = reduceElement({"{T}(0)", "v", "acc + m", "acc / {T}(count)"});
  registry.edit("ReduceMax").cudaElement =
      reduceElement({"tcx::op::Limits<{T}>::lowest()", "v", "tcx::op::Max(acc, m)", "acc"});
  registry.edit("ReduceMin").cudaElement =
      reduceElement({"tcx::op::Limits<{T}>::highest()", "v", "tcx::op::Min(acc, m)", "acc"});
  registry.edit("ReduceProd").cudaElement = reduceElement({"{T}(1)", "v", "acc * m", "acc"});
  registry.edit("ReduceL1").cudaElement = reduceElement({"{T}(0)", "tcx::op::Abs(v)", "acc + m", "acc"});
  registry.edit("ReduceL2").cudaElement = reduceElement({"{T}(0)", "v * v", "acc + m", "tcx::op::Sqrt(acc)"});
  registry.edit("ReduceSumSquare").cudaElement = reduceElement({"{T}(0)", "v * v", "acc + m", "acc"});
  registry.edit("ReduceLogSum").cudaElement = reduceElement({"{T}(0)", "v", "acc + m", "tcx::op::Log(acc)"});
  registry.edit("Softmax").cudaElement = softmaxElement(false);
  registry.edit("LogSoftmax").cudaElement = softmaxElement(true);
}

} // namespace tcx::reduction
