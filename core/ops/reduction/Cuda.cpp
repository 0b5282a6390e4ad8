// The CUDA form of this family's ops: one output element per thread, a loop
// over the folded axes. Library kernels (kernels/include/tcx) take over the
// patterns that matter for speed; this form is what every plan can fall
// back on, so it favours being obviously right. Each op folds in the order
// and in the types its CPU kernel does (Reducers.h, ArgMax.cpp, CumSum.cpp),
// so that results agree up to the summation order of the CPU's lanes.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/reduction/Common.h"
#include "ops/reduction/ReducePlan.h"
#include "ops/reduction/ReductionOps.h"

#include <fmt/format.h>

namespace tcx::reduction {

namespace {

// The loops that visit every input element folded into one output element.
struct FoldedLoops {
  std::vector<std::pair<std::string, int64_t>> folded; // loop variable and extent per folded axis, outermost first
  std::vector<std::string> index; // the input index: loop variables on folded axes, the output's elsewhere

  // for-headers over the folded axes, to put before one statement.
  std::string loops() const {
    std::string headers;
    for (const auto& [var, extent] : folded) headers += fmt::format("for (Index {0} = 0; {0} < {1}; ++{0}) ", var, extent);
    return headers;
  }
};

FoldedLoops foldedLoops(const CudaElementContext& ctx, const Shape& in, const AxisMask& mask, bool keepdims) {
  FoldedLoops f;
  size_t out = 0;
  for (size_t d = 0; d < in.size(); ++d) {
    if (mask[d]) {
      std::string var = fmt::format("_r{}", d);
      f.folded.emplace_back(var, in[d]);
      f.index.push_back(var);
      if (keepdims) ++out;
    } else {
      f.index.push_back(ctx.outIndex[out++]);
    }
  }
  return f;
}

// The axes a Reduce* node folds: its axes operand must be known, as shapes
// are when code is generated.
AxisMask reduceMask(const Node& node) {
  const Tensor* axes = nullptr;
  if (node.numInputs() > 1 && node.input(1)) {
    TCX_CHECK(node.input(1)->isConstant(), ErrorKind::Unsupported, "axes computed at run time");
    axes = &node.input(1)->constant();
  }
  return reduceAxesMask(axes, node.attrs(), static_cast<int64_t>(node.input(0)->type().shape.size()));
}

// The output's index with `var` along `axis` instead: the elements of the
// output's own line along an axis it keeps.
std::vector<std::string> alongAxis(std::vector<std::string> index, int64_t axis, const std::string& var) {
  index[axis] = var;
  return index;
}

bool integerResult(const Node& node) { return !isFloatingPoint(node.output(0)->type().dtype); }

// Sums accumulate as the CPU's SumType: integers in 64 unsigned bits, which
// wrap alike and keep the full sum a mean divides; floats in the compute type.
std::string sumType(const CudaElementContext& ctx) {
  return integerResult(ctx.node) ? "unsigned long long" : ctx.resultType;
}

// How a Reduce* op folds: each element `_v` (of the compute type `_T`) is
// mapped to `_m` (of the accumulator type `_A`), folded into `_acc`, and the
// accumulator of `_count` elements finished. The statements declare both
// types as typedefs, so that casts to them read `_A(x)` whatever the type
// ("unsigned long long(x)" does not parse).
struct CudaReducer {
  bool sums;                           // accumulates in sumType, else in the compute type
  const char* init;                    // of type _A
  const char* map;                     // of `_v`
  const char* fold;                    // of `_acc` and `_m`
  const char* finish;                  // of `_acc` and `_count`, to _T
  const char* integerFinish = nullptr; // for integer results, where it differs
};

// A Reduce* op's fold, for both CUDA forms.
CudaBlockFold reduceFold(const CudaReducer& r, const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const Shape& in = node.input(0)->type().shape;
  const AxisMask mask = reduceMask(node);
  FoldedLoops f = foldedLoops(ctx, in, mask, node.attrs().getInt("keepdims", 1) != 0);
  CudaBlockFold fold;
  fold.types = fmt::format("typedef {} _T;\ntypedef {} _A;\n", ctx.resultType, r.sums ? sumType(ctx) : ctx.resultType);
  fold.init = r.init;
  fold.map = r.map;
  fold.fold = r.fold;
  fold.finish = integerResult(node) && r.integerFinish ? r.integerFinish : r.finish;
  fold.value = ctx.operandAt(0, f.index);
  for (const auto& [var, extent] : f.folded) fold.count *= extent;
  fold.innermostFolded = !in.empty() && mask.back();
  fold.folded = std::move(f.folded);
  return fold;
}

CudaElementFn reduceElement(CudaReducer r) {
  return [r](const CudaElementContext& ctx) {
    const CudaBlockFold fold = reduceFold(r, ctx);
    const FoldedLoops loops{fold.folded, {}};
    return fmt::format("{types}_A _acc = {init};\nconst long long _count = {count};\n"
                       "{loops}{{\n  const _T _v = {value};\n  const _A _m = {map};\n  _acc = {fold};\n}}\n"
                       "out = {finish};\n",
                       fmt::arg("types", fold.types), fmt::arg("init", fold.init), fmt::arg("count", fold.count),
                       fmt::arg("loops", loops.loops()), fmt::arg("value", fold.value), fmt::arg("map", fold.map),
                       fmt::arg("fold", fold.fold), fmt::arg("finish", fold.finish));
  };
}

CudaBlockFoldFn reduceBlockFold(CudaReducer r) {
  return [r](const CudaElementContext& ctx) { return reduceFold(r, ctx); };
}

// log(sum(exp(x))) in two passes: the maximum first, so that exp cannot
// overflow. An infinite maximum is the result itself, as on the CPU (where
// -inf - -inf would otherwise make a NaN).
std::string logSumExpElement(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const FoldedLoops f =
      foldedLoops(ctx, node.input(0)->type().shape, reduceMask(node), node.attrs().getInt("keepdims", 1) != 0);
  return fmt::format(
      "typedef {T} _T;\n_T _max = tcx::op::Limits<_T>::lowest();\n{loops}_max = tcx::op::Max(_max, _T({x}));\n"
      "_T _sum = 0;\n{loops}_sum += tcx::op::Exp(_T({x}) - _max);\n"
      "out = _max == tcx::op::Limits<_T>::lowest() || _max == tcx::op::Limits<_T>::highest() ? _max "
      ": _max + tcx::op::Log(_sum);\n",
      fmt::arg("T", ctx.resultType), fmt::arg("loops", f.loops()), fmt::arg("x", ctx.operandAt(0, f.index)));
}

// `_at`: the position along `axis` of the element that `better` (a
// comparison of `_v` with `_best`) ranks first: the first such element, or
// the last on ties with selectLast. `lineAt(var)` is the input index of the
// line's element `var`.
template <typename LineAt> std::string argExtremeCode(const CudaElementContext& ctx, int64_t n, const char* better,
                                                      bool selectLast, LineAt lineAt) {
  return fmt::format(
      "auto _best = {first};\nlong long _at = 0;\n"
      "for (Index _k = 1; _k < {n}; ++_k) {{\n  const auto _v = {x};\n"
      "  if (_v {better} _best || ({last} && _v == _best)) {{\n    _best = _v;\n    _at = _k;\n  }}\n}}\n",
      fmt::arg("first", ctx.operandAt(0, lineAt("0"))), fmt::arg("n", n), fmt::arg("x", ctx.operandAt(0, lineAt("_k"))),
      fmt::arg("better", better), fmt::arg("last", selectLast));
}

// ArgMax and ArgMin: the position as an int64, the axis kept as 1 or dropped.
CudaElementFn argElement(const char* better) {
  return [better](const CudaElementContext& ctx) {
    const AttrMap& attrs = ctx.node.attrs();
    const Shape& in = ctx.node.input(0)->type().shape;
    const int64_t axis = checkedAxis(attrs.getInt("axis", 0), static_cast<int64_t>(in.size()));
    const bool keepdims = attrs.getInt("keepdims", 1) != 0;
    auto lineAt = [&](const std::string& var) {
      std::vector<std::string> index = ctx.outIndex;
      if (keepdims)
        index[axis] = var;
      else
        index.insert(index.begin() + axis, var);
      return index;
    };
    return argExtremeCode(ctx, in[axis], better, attrs.getInt("select_last_index", 0) != 0, lineAt) + "out = _at;\n";
  };
}

// Hardmax: 1 where ArgMax along the axis (first on ties) is, 0 elsewhere.
std::string hardmaxElement(const CudaElementContext& ctx) {
  const Shape& in = ctx.node.input(0)->type().shape;
  const int64_t axis = checkedAxis(ctx.node.attrs().getInt("axis", -1), static_cast<int64_t>(in.size()));
  auto lineAt = [&](const std::string& var) { return alongAxis(ctx.outIndex, axis, var); };
  return argExtremeCode(ctx, in[axis], ">", false, lineAt) +
         fmt::format("out = {} == _at ? 1 : 0;\n", ctx.outIndex[axis]);
}

// CumSum: the running sum up to this element, summed in the CPU's order
// (from the end with reverse) and type; exclusive leaves the element out.
// The axis is an operand: a constant in exported models, which the
// statements spell as a literal for NVRTC to fold, but a run-time value is
// allowed (ONNX's own tests pass it as an input), each dimension then
// choosing at run time whether it is the one summed along.
std::string cumSumElement(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const Shape& in = node.input(0)->type().shape;
  const int64_t rank = static_cast<int64_t>(in.size());
  const std::string axis =
      node.input(1)->isConstant()
          ? fmt::format("{}", cumSumAxis(node.input(1)->constant(), rank))
          : fmt::format("Index(tcx::floormod(static_cast<long long>({}), {}))",
                        ctx.operandAt(1, std::vector<std::string>(node.input(1)->type().shape.size(), "0")), rank);
  std::vector<std::string> at;
  std::string self = "0", extent = "0";
  for (int64_t d = rank; d-- > 0;) {
    at.insert(at.begin(), fmt::format("(_axis == {} ? _k : {})", d, ctx.outIndex[d]));
    self = fmt::format("(_axis == {} ? {} : {})", d, ctx.outIndex[d], self);
    extent = fmt::format("(_axis == {} ? Index({}) : {})", d, in[d], extent);
  }
  const bool exclusive = node.attrs().getInt("exclusive", 0) != 0;
  const bool reverse = node.attrs().getInt("reverse", 0) != 0;
  const std::string range = reverse ? fmt::format("Index _k = _n - 1; _k {} _self; --_k", exclusive ? ">" : ">=")
                                    : fmt::format("Index _k = 0; _k {} _self; ++_k", exclusive ? "<" : "<=");
  return fmt::format("typedef {T} _T;\ntypedef {A} _A;\nconst Index _axis = {axis};\nconst Index _self = {self};\n"
                     "const Index _n = {n};\n(void)_n;\n_A _acc = 0;\nfor ({range}) _acc += _A({x});\nout = _T(_acc);\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("A", sumType(ctx)), fmt::arg("axis", axis),
                     fmt::arg("self", self), fmt::arg("n", extent), fmt::arg("range", range),
                     fmt::arg("x", ctx.operandAt(0, at)));
}

// Softmax and LogSoftmax along one axis: the maximum, the sum of exp(x - max),
// then this element.
CudaRowFormFn softmaxRow(bool logForm) {
  return [logForm](const CudaElementContext& ctx) {
    const Node& node = ctx.node;
    CudaRowForm form;
    form.types = fmt::format("typedef {} _T;\n", ctx.resultType);
    form.shape = node.input(0)->type().shape;
    form.rowDims = {static_cast<size_t>(
        checkedAxis(node.attrs().getInt("axis", -1), static_cast<int64_t>(form.shape.size())))};
    form.valueAt = [at = ctx.operandAt](const std::vector<std::string>& index) { return at(0, index); };
    form.statistics = {{"_T", "_max", "tcx::op::Limits<_T>::lowest()", "_v", "tcx::op::Max(_acc, _m)", "_acc"},
                       {"_T", "_sum", "_T(0)", "tcx::op::Exp(_v - _max)", "_acc + _m", "_acc"}};
    const std::string self = fmt::format("_T({})", ctx.operandAt(0, ctx.outIndex));
    form.element = logForm ? fmt::format("out = ({} - _max) - tcx::op::Log(_sum);\n", self)
                           : fmt::format("out = tcx::op::Exp({} - _max) / _sum;\n", self);
    return form;
  };
}

} // namespace

void registerCudaForms(OpRegistry& registry) {
  auto reduce = [&](const char* op, CudaReducer r) {
    OpDef& def = registry.edit(op);
    def.cudaElement = reduceElement(r);
    def.cudaBlockFold = reduceBlockFold(r);
  };
  reduce("ReduceSum", {true, "_A(0)", "_A(_v)", "_acc + _m", "_T(_acc)"});
  reduce("ReduceMean", {true, "_A(0)", "_A(_v)", "_acc + _m", "_acc / _T(_count)",
                        "_count == 0 ? _T(0) : _T(static_cast<long long>(_acc) / _count)"});
  reduce("ReduceMax", {false, "tcx::op::Limits<_A>::lowest()", "_v", "tcx::op::Max(_acc, _m)", "_acc"});
  reduce("ReduceMin", {false, "tcx::op::Limits<_A>::highest()", "_v", "tcx::op::Min(_acc, _m)", "_acc"});
  reduce("ReduceProd", {true, "_A(1)", "_A(_v)", "_acc * _m", "_T(_acc)"});
  reduce("ReduceL1", {true, "_A(0)", "_v < _T(0) ? _A(0) - _A(_v) : _A(_v)", "_acc + _m", "_T(_acc)"});
  reduce("ReduceL2", {true, "_A(0)", "_v * _v", "_acc + _m", "tcx::op::Sqrt(_acc)"});
  reduce("ReduceSumSquare", {true, "_A(0)", "_A(_v) * _A(_v)", "_acc + _m", "_T(_acc)"});
  reduce("ReduceLogSum", {true, "_A(0)", "_v", "_acc + _m", "tcx::op::Log(_acc)"});
  registry.edit("ReduceLogSumExp").cudaElement = logSumExpElement;
  registry.edit("ArgMax").cudaElement = argElement(">");
  registry.edit("ArgMin").cudaElement = argElement("<");
  registry.edit("Hardmax").cudaElement = hardmaxElement;
  registry.edit("CumSum").cudaElement = cumSumElement;
  setCudaRowForm(registry.edit("Softmax"), softmaxRow(false));
  setCudaRowForm(registry.edit("LogSoftmax"), softmaxRow(true));
}

} // namespace tcx::reduction
