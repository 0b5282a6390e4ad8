// Ops that permute dimensions: Transpose, and DepthToSpace/SpaceToDepth,
// which are transposes of the input with its channel or spatial dimensions
// split into blocks. Each is one strided view of its input.

#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Views.h"

#include <algorithm>
#include <numeric>

namespace tcx {

namespace {

// Transpose's perm, reversing the dimensions by default.
std::vector<int64_t> transposePerm(const AttrMap& attrs, int64_t rank) {
  std::vector<int64_t> identity(rank);
  std::iota(identity.begin(), identity.end(), 0);
  std::optional<std::vector<int64_t>> perm = attrs.findInts("perm");
  if (!perm) return {identity.rbegin(), identity.rend()};
  TCX_CHECK(std::is_permutation(perm->begin(), perm->end(), identity.begin(), identity.end()),
            ErrorKind::ShapeInference, "perm {} is not a permutation of the {} dimensions", shapeToString(*perm),
            rank);
  return *perm;
}

int64_t blockSize(const AttrMap& attrs) {
  int64_t b = attrs.getInt("blocksize");
  TCX_CHECK(b >= 1, ErrorKind::InvalidModel, "blocksize must be positive, got {}", b);
  return b;
}

void checkImageRank(const Shape& in) {
  TCX_CHECK(in.size() == 4, ErrorKind::ShapeInference, "the input must be of rank 4 (NCHW), got {}",
            shapeToString(in));
}

bool isCrdMode(const AttrMap& attrs) {
  std::string mode = attrs.getString("mode", "DCR");
  TCX_CHECK(mode == "DCR" || mode == "CRD", ErrorKind::InvalidModel, "mode must be DCR or CRD, got '{}'", mode);
  return mode == "CRD";
}

void inferTranspose(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  ctx.setOutputType(0, {data.dtype, transposeView(data.shape, ctx.attrs()).shape});
}

void runTranspose(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  copyView(transposeView(data.shape(), ctx.attrs()), data, ctx.output(0));
}

void inferDepthToSpace(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  Shape v = depthToSpaceView(data.shape, ctx.attrs()).shape;
  ctx.setOutputType(0, {data.dtype, {v[0], v[1], v[2] * v[3], v[4] * v[5]}});
}

void runDepthToSpace(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  copyView(depthToSpaceView(data.shape(), ctx.attrs()), data, ctx.output(0));
}

void inferSpaceToDepth(InferContext& ctx) {
  const TensorType& data = ctx.inputType(0);
  Shape v = spaceToDepthView(data.shape, ctx.attrs()).shape;
  ctx.setOutputType(0, {data.dtype, {v[0], v[1] * v[2] * v[3], v[4], v[5]}});
}

void runSpaceToDepth(KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  copyView(spaceToDepthView(data.shape(), ctx.attrs()), data, ctx.output(0));
}

} // namespace

// Output dimension d is input dimension perm[d].
StridedView transposeView(const Shape& in, const AttrMap& attrs) {
  std::vector<int64_t> inStrides = contiguousStrides(in);
  StridedView view;
  for (int64_t p : transposePerm(attrs, static_cast<int64_t>(in.size()))) {
    view.shape.push_back(in[p]);
    view.strides.push_back(inStrides[p]);
  }
  return view;
}

// The output [N, C/b^2, H*b, W*b] as [N, C', H, y, W, x], where output row
// h*b + y and column w*b + x read input channel (y*b + x)*C' + c' in DCR
// mode and c'*b^2 + y*b + x in CRD mode.
StridedView depthToSpaceView(const Shape& in, const AttrMap& attrs) {
  checkImageRank(in);
  const int64_t b = blockSize(attrs);
  TCX_CHECK(in[1] % (b * b) == 0, ErrorKind::ShapeInference, "channels of {} are not a multiple of blocksize^2 = {}",
            shapeToString(in), b * b);
  const int64_t c = in[1] / (b * b);
  std::vector<int64_t> s = contiguousStrides(in);
  Shape shape{in[0], c, in[2], b, in[3], b};
  if (isCrdMode(attrs)) return {shape, {s[0], b * b * s[1], s[2], b * s[1], s[3], s[1]}};
  return {shape, {s[0], s[1], s[2], b * c * s[1], s[3], c * s[1]}};
}

// The output [N, C*b^2, H/b, W/b] as [N, y, x, C, H', W']: output channel
// (y*b + x)*C + c reads input row h'*b + y and column w'*b + x.
StridedView spaceToDepthView(const Shape& in, const AttrMap& attrs) {
  checkImageRank(in);
  const int64_t b = blockSize(attrs);
  TCX_CHECK(in[2] % b == 0 && in[3] % b == 0, ErrorKind::ShapeInference,
            "height and width of {} are not multiples of blocksize {}", shapeToString(in), b);
  std::vector<int64_t> s = contiguousStrides(in);
  return {{in[0], b, b, in[1], in[2] / b, in[3] / b}, {s[0], s[2], s[3], s[1], b * s[2], b * s[3]}};
}

void registerTransposeOps(OpRegistry& registry) {
  registry.add({.name = "Transpose",
                .opClass = OpClass::DataMovement,
                .attributes = {{"perm", AttrKind::Ints}},
                .infer = inferTranspose,
                .kernel = runTranspose,
                .movement = transposeRule});
  registry.add({.name = "DepthToSpace",
                .opClass = OpClass::DataMovement,
                .attributes = {{"blocksize", AttrKind::Int, true}, {"mode", AttrKind::String}},
                .infer = inferDepthToSpace,
                .kernel = runDepthToSpace,
                .movement = depthToSpaceRule});
  registry.add({.name = "SpaceToDepth",
                .opClass = OpClass::DataMovement,
                .attributes = {{"blocksize", AttrKind::Int, true}},
                .infer = inferSpaceToDepth,
                .kernel = runSpaceToDepth,
                .movement = spaceToDepthRule});
}

} // namespace tcx
