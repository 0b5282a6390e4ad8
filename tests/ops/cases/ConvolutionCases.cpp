// ConvTranspose over 1-D, 2-D and 3-D inputs with strides, dilations, pads,
// output_padding, output_shape, both SAME auto_pads, groups with several
// filters each and depthwise; grouped and depthwise Conv; deep convolutions with few output
// tiles, which split K; depthwise and pointwise convolutions; stems over three channels.

#include "CaseSupport.h"

namespace tcx::test {

namespace {

// ConvTranspose of `x` with a [C, filters, kernel...] weight and a bias.
void convTranspose(GraphBuilder& b, Value* x, Shape weight, AttrMap a) {
  const DType dtype = x->type().dtype;
  const std::string name = b.graph().uniqueValueName("w");
  const int64_t group = a.getInt("group", 1);
  Value* bias = b.input(name + "_bias", dtype, {weight[1] * group});
  b.output(b.op("ConvTranspose", {x, b.input(name, dtype, std::move(weight)), bias}, std::move(a)));
}

OpCase convTransposePlanarCase(DType dtype) {
  return {caseName("ConvTranspose 2-D", dtype), [=] {
            GraphBuilder b("conv_transpose");
            Value* x = b.input("x", dtype, {2, 4, 5, 7});
            convTranspose(b, x, {4, 3, 3, 3}, {});
            convTranspose(b, x, {4, 3, 3, 2},
                          attrs({{"strides", Ints{2, 2}},
                                 {"pads", Ints{1, 0, 1, 1}},
                                 {"output_padding", Ints{1, 0}},
                                 {"dilations", Ints{1, 2}}}));
            convTranspose(b, x, {4, 3, 3, 3}, attrs({{"group", 2}, {"strides", Ints{2, 1}}}));
            convTranspose(b, x, {4, 1, 3, 3}, attrs({{"group", 4}, {"pads", Ints{1, 1, 1, 1}}}));
            convTranspose(b, x, {4, 2, 2, 3}, attrs({{"group", 4}, {"strides", Ints{2, 3}}}));
            convTranspose(b, x, {4, 2, 3, 3}, attrs({{"strides", Ints{2, 2}}, {"output_shape", Ints{12, 16}}}));
            convTranspose(b, x, {4, 2, 3, 3}, attrs({{"strides", Ints{2, 2}}, {"auto_pad", "SAME_UPPER"}}));
            convTranspose(b, x, {4, 2, 3, 3}, attrs({{"strides", Ints{2, 2}}, {"auto_pad", "SAME_LOWER"}}));
            convTranspose(b, feed(b, "v", dtype, {2, 4, 5, 7}, Feed::Sliced), {4, 3, 3, 3},
                          attrs({{"group", 2}, {"strides", Ints{2, 2}}}));
            return b.finish();
          }};
}

OpCase convTransposeOtherCase(DType dtype) {
  return {
      caseName("ConvTranspose 1-D 3-D", dtype), [=] {
        GraphBuilder b("conv_transpose");
        Value* line = b.input("line", dtype, {2, 4, 9});
        convTranspose(b, line, {4, 2, 3}, attrs({{"strides", Ints{3}}, {"output_padding", Ints{1}}}));
        convTranspose(b, line, {4, 1, 4}, attrs({{"group", 2}, {"dilations", Ints{2}}, {"pads", Ints{2, 1}}}));
        convTranspose(b, b.input("volume", dtype, {1, 2, 3, 4, 5}), {2, 2, 2, 2, 2},
                      attrs({{"strides", Ints{2, 1, 2}}}));
        convTranspose(b, feed(b, "v", dtype, {2, 4, 9}, Feed::Concatenated), {4, 2, 3}, attrs({{"strides", Ints{2}}}));
        return b.finish();
      }};
}

// Conv with groups of several input channels and several filters each, and
// depthwise (one channel per group) with one and with two filters per group; all of them
// conv_depthwise's direct form, a thread an output.
OpCase groupedConvCase(DType dtype) {
  return {caseName("Conv grouped depthwise", dtype), [=] {
            GraphBuilder b("grouped_conv");
            Value* x = b.input("x", dtype, {2, 6, 7, 9});
            auto conv = [&](Value* in, Shape weight, AttrMap a) {
              const std::string name = b.graph().uniqueValueName("w");
              Value* bias = b.input(name + "_bias", dtype, {weight[0]});
              b.output(b.op("Conv", {in, b.input(name, dtype, std::move(weight)), bias}, std::move(a)));
            };
            conv(x, {6, 3, 3, 3}, attrs({{"group", 2}, {"pads", Ints{1, 1, 1, 1}}}));
            conv(x, {12, 1, 3, 3}, attrs({{"group", 6}}));
            conv(x, {6, 1, 3, 3}, attrs({{"group", 6}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}));
            conv(feed(b, "v", dtype, {2, 6, 7, 9}, Feed::Padded), {6, 2, 3, 3}, attrs({{"group", 3}}));
            return b.finish();
          }};
}

// RegNet's grouped 3 x 3s, whose groups of 8 channels run on the implicit GEMM, one group per
// blockIdx.z: groups of 8 channels into 8 (strided, with a Relu epilogue), 8 into 8 over a padded
// view (the gathered path); and a 1 x 1 in 4 groups of 8 into 4, few enough input elements an
// output for conv_depthwise's direct form.
OpCase groupedImplicitGemmCase(DType dtype) {
  return {caseName("Conv grouped implicit GEMM", dtype), [=] {
            GraphBuilder b("grouped_implicit_gemm");
            Value* x = b.input("x", dtype, {2, 128, 14, 15});
            Value* w = b.input("w", dtype, {128, 8, 3, 3});
            b.output(b.op("Relu", {b.op("Conv", {x, w, b.input("w_bias", dtype, {128})},
                                        attrs({{"group", 16}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}))}));
            Value* v = feed(b, "v", dtype, {2, 32, 9, 11}, Feed::Padded);
            b.output(b.op("Conv", {v, b.input("wv", dtype, {32, 8, 3, 3})}, attrs({{"group", 4}, {"pads", Ints{1, 1, 1, 1}}})));
            b.output(b.op("Conv", {v, b.input("wp", dtype, {16, 8, 1, 1})}, attrs({{"group", 4}})));
            return b.finish();
          }};
}

// A 3 x 3 over a small deep image (ResNet's last stage, ragged in pixels and channels) with a Relu
// the combining block applies, and a squeeze-excitation's 1 x 1 over one pixel: few output tiles
// and a long K, so the convolution kernel splits K (launch.h's planConv).
OpCase deepConvCase(DType dtype) {
  return {caseName("Conv deep split K", dtype), [=] {
            GraphBuilder b("deep_conv");
            Value* x = b.input("x", dtype, {1, 256, 7, 9});
            Value* w = b.input("w", dtype, {70, 256, 3, 3});
            b.output(b.op("Relu", {b.op("Conv", {x, w}, attrs({{"pads", Ints{1, 1, 1, 1}}}))}));
            Value* pooled = b.input("pooled", dtype, {1, 1152, 1, 1});
            Value* fc = b.input("fc", dtype, {48, 1152, 1, 1});
            b.output(b.op("Conv", {pooled, fc, b.input("fc_bias", dtype, {48})}));
            return b.finish();
          }};
}

// Depthwise convolutions (conv_depthwise): ConvNeXt's 7 x 7 with a bias and a Relu epilogue, and
// over a channels-last input seen through a transpose (tiles of 8 channels, the last part empty),
// with a strided 3 x 3 over it too; EfficientNet's 5 x 5 at stride 2, a dilated 3 x 3 over a
// padded view.
OpCase depthwiseConvCase(DType dtype) {
  return {caseName("Conv depthwise", dtype), [=] {
            GraphBuilder b("depthwise_conv");
            Value* x = b.input("x", dtype, {2, 12, 9, 11});
            b.output(b.op("Relu", {b.op("Conv", {x, b.input("w7", dtype, {12, 1, 7, 7}), b.input("w7_bias", dtype, {12})},
                                        attrs({{"group", 12}, {"pads", Ints{3, 3, 3, 3}}}))}));
            b.output(b.op("Conv", {x, b.input("w5", dtype, {12, 1, 5, 5})},
                          attrs({{"group", 12}, {"strides", Ints{2, 2}}, {"pads", Ints{2, 2, 2, 2}}})));
            Value* nhwc = b.input("nhwc", dtype, {2, 6, 7, 40});
            Value* nchw = b.op("Transpose", {nhwc}, attrs({{"perm", Ints{0, 3, 1, 2}}}));
            b.output(b.op("Conv", {nchw, b.input("wl", dtype, {40, 1, 7, 7})}, attrs({{"group", 40}, {"pads", Ints{3, 3, 3, 3}}})));
            b.output(b.op("Conv", {nchw, b.input("wl3", dtype, {40, 1, 3, 3})},
                          attrs({{"group", 40}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}})));
            Value* v = feed(b, "v", dtype, {1, 8, 10, 7}, Feed::Padded);
            b.output(b.op("Conv", {v, b.input("w3", dtype, {8, 1, 3, 3})},
                          attrs({{"group", 8}, {"dilations", Ints{2, 2}}, {"pads", Ints{2, 1, 2, 1}}})));
            return b.finish();
          }};
}

// Stems over RGB images, the implicit GEMM's window path in float (fewer than 8 input channels),
// each with more tiles than an H100's or H200's block slots (the path's condition: 396 at three
// blocks a multiprocessor for one channel tile, 264 at two), so that blocks walk several:
// SqueezeNet's 7 x 7 stride 2 with a bias and a Relu (a ragged 131 x 131 output, 459 tiles); a
// 3 x 3 stride 2 into 70 channels (a second channel tile of 6, its second warp column idle);
// ConvNeXt's 4 x 4 stride-4 patches over a channels-last image seen through a Transpose (4-byte
// copies).
OpCase stemConvCase(DType dtype) {
  return {caseName("Conv stem", dtype), [=] {
            GraphBuilder b("stem_conv");
            Value* x = b.input("x", dtype, {3, 3, 262, 262});
            Value* stem = b.op("Conv", {x, b.input("w7", dtype, {20, 3, 7, 7}), b.input("w7_bias", dtype, {20})},
                               attrs({{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}}));
            b.output(b.op("Relu", {stem}));
            b.output(b.op("Conv", {x, b.input("w3", dtype, {70, 3, 3, 3})},
                          attrs({{"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}})));
            Value* nhwc = b.input("nhwc", dtype, {3, 520, 520, 3});
            Value* nchw = b.op("Transpose", {nhwc}, attrs({{"perm", Ints{0, 3, 1, 2}}}));
            b.output(b.op("Conv", {nchw, b.input("w4", dtype, {24, 3, 4, 4})}, attrs({{"strides", Ints{4, 4}}})));
            return b.finish();
          }};
}

// Pointwise convolutions as real models have them: 48 pixels with a bias and a Relu epilogue, over a
// concatenation (DenseNet's 1 x 1s), and over 25 pixels, rows that are not 16-byte multiples. The
// first and the last (136 channels: two tiles of 128, the second ragged; K 24, under one stage)
// take gemm_wgmma_f32 in tf32 on Hopper where their inputs are stored channels-last (GemmLowering's
// matchTf32PointwiseConv), so those inputs are computed (Abs), which a plan may store either way.
OpCase pointwiseConvCase(DType dtype) {
  return {caseName("Conv pointwise", dtype), [=] {
            GraphBuilder b("pointwise_conv");
            Value* x = b.op("Abs", {b.input("x", dtype, {2, 40, 6, 8})});
            b.output(b.op("Relu", {b.op("Conv", {x, b.input("w", dtype, {72, 40, 1, 1}), b.input("w_bias", dtype, {72})})}));
            Value* wide = b.op("Concat", {x, b.input("y", dtype, {2, 24, 6, 8})}, attrs({{"axis", int64_t{1}}}));
            b.output(b.op("Conv", {wide, b.input("wc", dtype, {20, 64, 1, 1})}));
            Value* odd = b.input("odd", dtype, {3, 36, 5, 5});
            b.output(b.op("Conv", {odd, b.input("wo", dtype, {24, 36, 1, 1})}));
            Value* many = b.op("Abs", {b.input("many", dtype, {2, 24, 8, 8})});
            b.output(b.op("Relu", {b.op("Conv", {many, b.input("wm", dtype, {136, 24, 1, 1}), b.input("wm_bias", dtype, {136})})}));
            return b.finish();
          }};
}

// DenseNet's layer: BN-ReLU over the concatenation of the features so far, then a pointwise
// convolution, which takes the BN-ReLU as its input's prologue (fusion rule 4), reading the
// concatenation VTC stored in place whole (one buffer, the parts' pieces at one offset; with n or,
// channels-last in compute_op_gpu_test, k contiguous). 72 filters take the
// tf32 GEMM with the prologue (K 40, N 48: ragged tiles); 20 filters stage the BN-ReLU for the
// implicit GEMM; constant statistics become a Mul and an Add (BatchNormToAffine) before the
// prologue.
OpCase pointwiseAfterNormCase() {
  return {caseName("Conv pointwise after BatchNormalization-Relu", DType::F32), [] {
            GraphBuilder b("pointwise_after_norm");
            const DType f32 = DType::F32;
            Value* x = b.input("x", f32, {2, 8, 6, 8});
            Value* y1 = b.op("Conv", {x, b.input("w1", f32, {16, 8, 1, 1})});
            Value* y2 = b.op("Relu", {b.op("Conv", {x, b.input("w2", f32, {24, 8, 3, 3})}, attrs({{"pads", Ints{1, 1, 1, 1}}}))});
            Value* features = b.op("Concat", {y1, y2}, attrs({{"axis", int64_t{1}}}));
            auto bnRelu = [&](Value* in, bool constant) {
              const int64_t c = in->type().shape[1];
              std::vector<Value*> operands{in};
              int i = 0;
              for (const char* name : {"scale", "bias", "mean", "var"}) {
                const std::string unique = b.graph().uniqueValueName(name);
                operands.push_back(constant ? b.constant(unique, Tensor::filled(f32, {c}, 0.25 + 0.5 * i++))
                                            : b.input(unique, f32, {c}));
              }
              return b.op("Relu", {b.op("BatchNormalization", operands)});
            };
            b.output(b.op("Conv", {bnRelu(features, false), b.input("wa", f32, {72, 40, 1, 1}), b.input("wa_bias", f32, {72})}));
            b.output(b.op("Conv", {bnRelu(features, false), b.input("wb", f32, {20, 40, 1, 1})}));
            Value* plain = b.input("plain", f32, {2, 24, 5, 7});
            b.output(b.op("Relu", {b.op("Conv", {bnRelu(plain, true), b.input("wc", f32, {96, 24, 1, 1})})}));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> convolutionCases() {
  std::vector<OpCase> cases;
  for (DType dtype : {DType::F32, DType::F16}) {
    cases.push_back(convTransposePlanarCase(dtype));
    cases.push_back(convTransposeOtherCase(dtype));
    cases.push_back(groupedConvCase(dtype));
    cases.push_back(groupedImplicitGemmCase(dtype));
    cases.push_back(deepConvCase(dtype));
    cases.push_back(pointwiseConvCase(dtype));
    cases.push_back(depthwiseConvCase(dtype));
    cases.push_back(stemConvCase(dtype));
  }
  cases.push_back(pointwiseAfterNormCase());
  return cases;
}

} // namespace tcx::test
