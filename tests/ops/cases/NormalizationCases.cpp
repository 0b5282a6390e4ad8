// The normalizations: LayerNormalization over one or several trailing
// dimensions (rows short and long) with broadcast Scale and B and its
// statistics outputs,
// InstanceNormalization over 1-D and 2-D planes, LpNormalization of both
// orders along each kind of axis, BatchNormalization (computed in its
// consumer's loop) over images, rows and a concatenation.

#include "CaseSupport.h"

namespace tcx::test {

namespace {

const Shape kRagged{3, 7, 13};

OpCase layerNormCase(DType dtype) {
  return {caseName("LayerNormalization", dtype), [=] {
            GraphBuilder b("layer_norm");
            Value* x = b.input("x", dtype, kRagged);
            Value* bias = b.input("bias", dtype, {13});
            b.output(b.op("LayerNormalization", {x, b.input("scale", dtype, {13}), bias}));
            for (Value* out :
                 b.ops("LayerNormalization", {x, b.input("plane_scale", dtype, {7, 13})}, attrs({{"axis", 1}}), 3))
              b.output(out);
            b.output(b.op("LayerNormalization", {x, b.input("one_scale", dtype, {1}), nullptr},
                          attrs({{"epsilon", 1e-3f}})));
            for (Value* out : b.ops("LayerNormalization", {x, b.input("column_scale", dtype, {7, 1}), bias},
                                    attrs({{"axis", 0}}), 3))
              b.output(out);
            b.output(b.op("LayerNormalization",
                          {feed(b, "v", dtype, kRagged, Feed::Sliced), b.input("v_scale", dtype, {13}), bias}));
            // Rows side by side in memory (ConvNeXt's across an NCHW activation's
            // channels): 32 rows a block on the GPU, the last block part empty.
            b.output(b.op("LayerNormalization", {feed(b, "wide", dtype, {4200, 20}, Feed::Transposed),
                                                 b.input("w_scale", dtype, {20}), b.input("w_bias", dtype, {20})}));
            // Rows of BERT's hidden size: five rows, too few to keep the GPU busy a warp each, so a block per row.
            b.output(b.op("LayerNormalization", {b.input("hidden", dtype, {5, 768}), b.input("h_scale", dtype, {768}),
                                                 b.input("h_bias", dtype, {768})}));
            return b.finish();
          }};
}

OpCase instanceNormCase(DType dtype) {
  return {
      caseName("InstanceNormalization", dtype), [=] {
        GraphBuilder b("instance_norm");
        Value* scale = b.input("scale", dtype, {3});
        Value* bias = b.input("bias", dtype, {3});
        b.output(b.op("InstanceNormalization", {b.input("x", dtype, {2, 3, 7, 13}), scale, bias}));
        b.output(b.op("InstanceNormalization", {b.input("line", dtype, {2, 3, 11}), scale, bias},
                      attrs({{"epsilon", 1e-2f}})));
        b.output(b.op("InstanceNormalization", {feed(b, "v", dtype, {2, 3, 7, 13}, Feed::Transposed), scale, bias}));
        return b.finish();
      }};
}

OpCase lpNormCase(DType dtype) {
  return {caseName("LpNormalization", dtype), [=] {
            GraphBuilder b("lp_norm");
            Value* x = b.input("x", dtype, kRagged);
            b.output(b.op("LpNormalization", {x}));
            b.output(b.op("LpNormalization", {x}, attrs({{"p", 1}})));
            b.output(b.op("LpNormalization", {x}, attrs({{"p", 2}, {"axis", 1}})));
            b.output(b.op("LpNormalization", {x}, attrs({{"p", 1}, {"axis", 0}})));
            b.output(b.op("LpNormalization", {feed(b, "v", dtype, kRagged, Feed::Concatenated)}, attrs({{"p", 1}})));
            return b.finish();
          }};
}

// Inference-mode BatchNormalization followed by a Relu, as DenseNet applies
// it to a concatenation: its element form is pointwise, so code generation
// computes it in the Relu's loop.
OpCase batchNormCase(DType dtype) {
  return {caseName("BatchNormalization", dtype), [=] {
            GraphBuilder b("batch_norm");
            auto bn = [&](Value* x, int64_t c) {
              std::vector<Value*> in{x};
              for (const char* p : {"scale", "bias", "mean", "var"})
                in.push_back(b.input(b.graph().uniqueValueName(p), dtype, {c}));
              b.output(b.op("Relu", {b.op("BatchNormalization", in, attrs({{"epsilon", 1e-3f}}))}));
            };
            bn(b.input("x", dtype, {2, 5, 3, 7}), 5);
            bn(b.input("rows", dtype, {4, 6}), 6);
            bn(feed(b, "v", dtype, kRagged, Feed::Concatenated), 7);
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> normalizationCases() {
  std::vector<OpCase> cases;
  for (DType dtype : {DType::F32, DType::F16}) {
    cases.push_back(layerNormCase(dtype));
    cases.push_back(instanceNormCase(dtype));
    cases.push_back(lpNormCase(dtype));
    cases.push_back(batchNormCase(dtype));
  }
  return cases;
}

} // namespace tcx::test
