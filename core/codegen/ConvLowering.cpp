#include "codegen/ConvLowering.h"

#include "codegen/CudaCodegen.h"
#include "codegen/CudaTypes.h"
#include "codegen/EpilogueCode.h"
#include "codegen/KernelText.h"
#include "codegen/VendorLowering.h"
#include "plan/StridedView.h"

#include "ops/OpDef.h"
#include "ops/nn/Window.h"
#include "tcx/launch.h"

#include <cctype>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>

namespace tcx {

namespace {

// Whether `view`'s offsets over `shape` (without its leading dimension when
// `perImage`) fit an int, as the convolution kernel computes them.
bool offsetsFitInt(const StridedView& view, const Shape& shape, bool perImage) {
  int64_t span = 0;
  for (size_t d = perImage ? 1 : 0; d < shape.size(); ++d) span += (shape[d] - 1) * std::abs(view.strides[d]);
  return span < std::numeric_limits<int>::max();
}

// The implicit GEMM's tiles are 64 output channels wide, so a depthwise
// convolution (one channel a group) would use 1/64 of each MMA: it takes
// conv_depthwise, and so does a grouped convolution whose outputs each fold
// at most this many input elements (its group's channels times the taps).
// On an H100 at 32 images, ResNeXt-50's 3x3s of 4 channels a group (36)
// took 149 us direct against 302 us on the implicit GEMM; RegNetY's of 8 (72)
// 59.6 against 31.5 us at 28 x 28, 162 against 131 us at 112 x 112.
// Other groups need this many output channels for the implicit GEMM, and
// stay on the element form with fewer.
constexpr int64_t kMaxDirectGroupTaps = 36;
constexpr int64_t kMinGroupOutputChannels = 4;

// A convolution as conv_implicit_gemm sees it: 2-D, x and w strided views;
// a grouped one as that many convolutions of cin / group channels into
// cout / group, one per blockIdx.z.
struct ConvMatch {
  ConvParams params = {};
  StridedView x, w;
  std::string outIndex;
  std::string acc;
};

std::optional<ConvMatch> matchConv(ValueCode& values) {
  const Node* anchor = convolutionAnchor(values);
  if (!anchor) return std::nullopt;
  const Node& conv = *anchor;
  const Value *x = conv.input(0), *w = conv.input(1), *y = conv.output(0);
  const Shape &xs = x->type().shape, &ws = w->type().shape, &ys = y->type().shape;
  const int64_t groups = conv.attrs().getInt("group", 1);
  if (xs.size() != 4 || ws.size() != 4 || ys.size() != 4 || groups < 1 || xs[1] % groups || ys[1] % groups)
    return std::nullopt;
  const nn::WindowAttrs window = nn::readWindowAttrs(conv.attrs(), 2, {ws[2], ws[3]});
  const nn::WindowPlacement placement = nn::placeWindow(window, {xs[2], xs[3]});
  const TensorAccess *xAccess = values.inputAccess(x), *wAccess = values.inputAccess(w);
  if (!wAccess) return std::nullopt;
  std::optional<StridedView> xv = xAccess ? stridedView(*xAccess) : values.stagedView(x), wv = stridedView(*wAccess);
  if (!xv || !wv || !offsetsFitInt(*xv, xs, true) || !offsetsFitInt(*wv, ws, false)) return std::nullopt;
  // x computed in the kernel (a prologue of fusion rule 4) is staged for the convolution to read.
  ConvMatch match{.x = *xv, .w = *wv, .outIndex = convOutIndex(ys), .acc = convAcc(values, conv)};
  ConvParams& p = match.params;
  for (int d = 0; d < 4; ++d) {
    p.xStride[d] = xv->strides[d];
    p.wStride[d] = wv->strides[d];
  }
  auto narrow = [](int64_t v) { return static_cast<int>(v); };
  p.batch = narrow(xs[0]), p.cin = narrow(xs[1] / groups), p.h = narrow(xs[2]), p.width = narrow(xs[3]);
  p.groups = narrow(groups);
  p.cout = narrow(ys[1] / groups), p.oh = narrow(ys[2]), p.ow = narrow(ys[3]), p.kh = narrow(ws[2]), p.kw = narrow(ws[3]);
  p.strideH = narrow(window.strides[0]), p.strideW = narrow(window.strides[1]);
  p.padH = narrow(placement.padsBegin[0]), p.padW = narrow(placement.padsBegin[1]);
  p.dilationH = narrow(window.dilations[0]), p.dilationW = narrow(window.dilations[1]);
  // A pointwise convolution over a dense image is the same convolution over a 1 x (h * w) image,
  // whose output rows the kernel tiles without ragged edges and copies as long contiguous runs.
  const bool pointwise = p.kh == 1 && p.kw == 1 && p.strideH == 1 && p.strideW == 1 && p.padH == 0 && p.padW == 0 &&
                         p.oh == p.h && p.ow == p.width;
  if (pointwise && p.xStride[2] == p.width * p.xStride[3]) {
    p.width = p.ow = p.h * p.width;
    p.h = p.oh = 1;
    p.xStride[2] = 0;
  }
  return match;
}

// Statements that fill `tcx::ConvParams p` for the convolution `match` as
// planned (`p`), its workspace the buffer `workspace` (or none if negative).
std::string convParamsCode(const ConvMatch& match, const ConvParams& p, ElemType type, int workspace) {
  return fmt::format(
      "  tcx::ConvParams p;\n"
      "  p.x = {x};\n"
      "  p.xStride[0] = {x0};\n  p.xStride[1] = {x1};\n  p.xStride[2] = {x2};\n  p.xStride[3] = {x3};\n"
      "  p.w = {w};\n"
      "  p.wStride[0] = {w0};\n  p.wStride[1] = {w1};\n  p.wStride[2] = {w2};\n  p.wStride[3] = {w3};\n"
      "  p.batch = {batch};\n  p.cin = {cin};\n  p.h = {h};\n  p.width = {width};\n"
      "  p.cout = {cout};\n  p.oh = {oh};\n  p.ow = {ow};\n  p.kh = {kh};\n  p.kw = {kw};\n"
      "  p.strideH = {sh};\n  p.strideW = {sw};\n  p.padH = {ph};\n  p.padW = {pw};\n"
      "  p.dilationH = {dh};\n  p.dilationW = {dw};\n  p.vectorX = {vx};\n  p.vectorW = {vw};\n"
      "  p.splitK = {splitK};\n  p.stepsPerSplit = {steps};\n  p.workspace = {ws};\n  p.groups = {groups};\n"
      "  p.tileRows = {tileRows};\n  p.tileChannels = {tileChannels};\n",
      fmt::arg("x", ModuleBuilder::elementPointer(match.x.buffer, match.x.offset, cudaTypeName(type), elemBytes(type))),
      fmt::arg("x0", p.xStride[0]), fmt::arg("x1", p.xStride[1]), fmt::arg("x2", p.xStride[2]),
      fmt::arg("x3", p.xStride[3]), fmt::arg("w", ModuleBuilder::elementPointer(match.w.buffer, match.w.offset, cudaTypeName(type), elemBytes(type))),
      fmt::arg("w0", p.wStride[0]), fmt::arg("w1", p.wStride[1]), fmt::arg("w2", p.wStride[2]),
      fmt::arg("w3", p.wStride[3]), fmt::arg("batch", p.batch), fmt::arg("cin", p.cin), fmt::arg("h", p.h),
      fmt::arg("width", p.width), fmt::arg("cout", p.cout), fmt::arg("oh", p.oh), fmt::arg("ow", p.ow),
      fmt::arg("kh", p.kh), fmt::arg("kw", p.kw), fmt::arg("sh", p.strideH), fmt::arg("sw", p.strideW),
      fmt::arg("ph", p.padH), fmt::arg("pw", p.padW), fmt::arg("dh", p.dilationH), fmt::arg("dw", p.dilationW),
      fmt::arg("vx", p.vectorX), fmt::arg("vw", p.vectorW), fmt::arg("splitK", p.splitK),
      fmt::arg("steps", p.stepsPerSplit), fmt::arg("groups", p.groups), fmt::arg("tileRows", p.tileRows),
      fmt::arg("tileChannels", p.tileChannels),
      fmt::arg("ws", workspace >= 0 ? ModuleBuilder::bufferRef(workspace) : "nullptr"));
}

// How a launch's description names the path: "window" for tcx::ConvPath::Window.
std::string pathWord(ConvPath path) {
  const std::string_view code = convPathCode(path);
  std::string word(code.substr(code.rfind(':') + 1));
  word[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(word[0])));
  return word;
}

bool emitConv(ValueCode& values, const ConvMatch& match, ElemType type, const CodegenTarget& target) {
  std::optional<std::string> epilogue = epilogueFunctor(values, match.outIndex, match.acc);
  if (!epilogue) return false;
  ModuleBuilder& module = values.module();
  const std::string prefix = values.prefix();
  module.append(*epilogue);
  const int elem = elemBytes(type);
  const ConvPlan plan =
      planConv(match.params, type, match.x.offset * elem % 16 == 0, match.w.offset * elem % 16 == 0, target.smCount);
  const ConvParams& p = plan.params;
  const int workspace = plan.workspaceBytes ? module.sharedWorkspace(static_cast<int64_t>(plan.workspaceBytes)) : -1;
  module.append(fmt::format(
      "{open}{params}  tcx::conv_implicit_gemm_body<{t}, {path}>(p, {p}Epilogue{{b}});\n}}\n\n",
      fmt::arg("open", kernelOpening(fmt::format("tcx::kConvThreads, {}", plan.minBlocks), prefix + "conv")),
      fmt::arg("p", prefix), fmt::arg("params", convParamsCode(match, p, type, workspace)),
      fmt::arg("t", cudaTypeName(type)), fmt::arg("path", convPathCode(plan.path))));
  module.addLibraryLaunch(values.planKernelIndex(), prefix + "conv", plan.launch.grid, plan.launch.block,
                   plan.launch.sharedBytes,
                   fmt::format("conv {}x{} {}->{}{} on {}x{}x{} (implicit GEMM, {}{})", p.kh, p.kw, p.cin, p.cout,
                               p.groups > 1 ? fmt::format(" x{} groups", p.groups) : "", p.batch, p.h, p.width,
                               pathWord(plan.path),
                               p.splitK > 1 ? fmt::format(", split {}", p.splitK) : ""));
  return true;
}

bool emitDirectConv(ValueCode& values, const ConvMatch& match, ElemType type, const CodegenTarget& target) {
  // A row of an image too wide for a multiprocessor's shared memory, with its taps' rows.
  constexpr unsigned kMaxSharedBytes = 200 * 1024;
  const DepthwisePlan plan = planDepthwise(match.params, target.smCount);
  if (plan.launch.sharedBytes > kMaxSharedBytes) return false;
  std::optional<std::string> epilogue = epilogueFunctor(values, match.outIndex, match.acc);
  if (!epilogue) return false;
  ModuleBuilder& module = values.module();
  const std::string prefix = values.prefix();
  module.append(*epilogue);
  const ConvParams& p = plan.params;
  module.append(fmt::format(
      "{open}{params}  tcx::conv_depthwise_{body}<{t}>(p, {p}Epilogue{{b}});\n}}\n\n",
      fmt::arg("open", kernelOpening("tcx::kDepthwiseThreads", prefix + "conv")),
      fmt::arg("p", prefix), fmt::arg("params", convParamsCode(match, p, type, -1)), fmt::arg("t", cudaTypeName(type)),
      fmt::arg("body", plan.tiled ? "tiled_body" : "body")));
  module.addLibraryLaunch(values.planKernelIndex(), prefix + "conv", plan.launch.grid, plan.launch.block,
                   plan.launch.sharedBytes,
                   p.cin == 1 && p.cout == 1
                       ? fmt::format("conv {}x{} depthwise x{} on {}x{}x{} (stride {}{})", p.kh, p.kw, p.groups,
                                     p.batch, p.h, p.width, p.strideH, plan.tiled ? ", channels-last" : "")
                       : fmt::format("conv {}x{} {}->{} x{} groups on {}x{}x{} (stride {}, direct)", p.kh, p.kw, p.cin,
                                     p.cout, p.groups, p.batch, p.h, p.width, p.strideH));
  return true;
}

} // namespace

const Node* convolutionAnchor(const ValueCode& values) {
  const FusedKernel& fused = *values.kernel().fused;
  const bool conv = fused.kind == KernelKind::Conv && fused.anchor->op().fusionRole == FusionRole::Convolution;
  return conv ? fused.anchor : nullptr;
}

// Written with % and /: spelling the last index p - p / size * size (which lets a dense store's
// offset fold back to n) made ResNet-18's residual 3x3s at one image 0.4-1.0 us slower each on an
// H200 (3 us over the model), though their code was smaller.
std::string convOutIndex(const Shape& ys) {
  std::string code = "    const Index x0 = batch, x1 = m;\n    Index p = n;\n";
  for (size_t d = ys.size() - 1; d >= 2; --d) {
    code += fmt::format("    const Index x{} = p % {};\n", d, ys[d]);
    if (d > 2) code += fmt::format("    p /= {};\n", ys[d]);
  }
  return code;
}

std::string convAcc(ValueCode& values, const Node& conv) {
  if (conv.numInputs() > 2 && conv.input(2)) return "acc + " + values.call(conv.input(2), {"x1"});
  return "acc";
}

bool emitLibraryConv(ValueCode& values, ElemType type, const CodegenTarget& target) {
  std::optional<ConvMatch> conv = matchConv(values);
  if (!conv) return false;
  const ConvParams& p = conv->params;
  const bool depthwise = p.cin == 1 && p.cout == 1;
  const bool direct = p.groups > 1 && (depthwise || int64_t{p.cin} * p.kh * p.kw <= kMaxDirectGroupTaps);
  if (!direct && p.groups > 1 && p.cout < kMinGroupOutputChannels) return false;
  if (!(direct ? emitDirectConv(values, *conv, type, target) : emitConv(values, *conv, type, target))) return false;
  offerVendorConv(values, *convolutionAnchor(values), conv->x, conv->w, type);
  return true;
}

} // namespace tcx
