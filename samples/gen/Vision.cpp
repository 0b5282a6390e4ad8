// The CNN and vision-transformer samples: YOLOv11 C3K2, ShuffleNet v2 unit,
// EfficientViT attention.
#include "Layers.h"
#include "Samples.h"

namespace tcx::samples {

Graph buildYolov11C3k2(const C3k2Config& c) {
  GraphBuilder b("yolov11_c3k2");
  const std::string m = "/model.2";
  const int64_t ch = c.channels;
  Value* x = b.input("x", DType::F32, {c.batch, ch, c.size, c.size});
  Value* w1 = b.input("cv1.weight", DType::F32, {2 * ch, ch, 1, 1});
  Value* w2 = b.input("m.0.cv.weight", DType::F32, {ch, ch, 3, 3});
  Value* w3 = b.input("cv2.weight", DType::F32, {ch, 3 * ch, 1, 1});

  Value* y = silu(b, m + "/cv1/act", conv2d(b, m + "/cv1", x, w1, 1));
  std::vector<Value*> halves = b.ops("Split", {y, b.ints(m + "/Split_sizes", {ch, ch})}, attrs({{"axis", 1}}), 2, m + "/Split");
  Value* bottleneck = silu(b, m + "/m.0/act", conv2d(b, m + "/m.0", halves[1], w2, 3));
  Value* residual = b.op("Add", {bottleneck, halves[1]}, {}, m + "/m.0/Add");
  Value* cat = b.op("Concat", {halves[0], halves[1], residual}, attrs({{"axis", 1}}), m + "/Concat");
  b.output(silu(b, m + "/cv2/act", conv2d(b, m + "/cv2", cat, w3, 1)));
  return b.finish();
}

Graph buildShufflenetV2Unit(const ShuffleUnitConfig& c) {
  GraphBuilder b("shufflenet_v2_unit");
  const std::string m = "/stage2/stage2.1";
  const int64_t h = c.channels / 2;
  Value* x = b.input("x", DType::F32, {c.batch, c.channels, c.size, c.size});
  Value* w1 = b.input("branch2.0.weight", DType::F32, {h, h, 1, 1});
  Value* wd = b.input("branch2.3.weight", DType::F32, {h, 1, 3, 3});
  Value* w2 = b.input("branch2.5.weight", DType::F32, {h, h, 1, 1});

  std::vector<Value*> halves = b.ops("Split", {x, b.ints(m + "/Split_sizes", {h, h})}, attrs({{"axis", 1}}), 2, m + "/Split");
  Value* y = b.op("Relu", {conv2d(b, m + "/branch2.0", halves[1], w1, 1)}, {}, m + "/branch2.2/Relu");
  y = conv2d(b, m + "/branch2.3", y, wd, 3, h);
  y = b.op("Relu", {conv2d(b, m + "/branch2.5", y, w2, 1)}, {}, m + "/branch2.7/Relu");
  Value* cat = b.op("Concat", {halves[0], y}, attrs({{"axis", 1}}), m + "/Concat");
  // channel_shuffle(groups=2): view, transpose, flatten back.
  Value* s = reshape(b, m + "/shuffle", cat, {c.batch, 2, h, c.size, c.size});
  s = transpose(b, m + "/shuffle", s, {0, 2, 1, 3, 4});
  b.output(reshape(b, m + "/shuffle_1", s, {c.batch, c.channels, c.size, c.size}));
  return b.finish();
}

Graph buildEfficientVitAttention(const EfficientVitConfig& c) {
  GraphBuilder b("efficientvit_attention");
  const std::string m = "/backbone/stages.3/op_list.1/context_module/main";
  const int64_t ch = c.channels, heads = c.channels / c.headDim, d = c.headDim, n = c.size * c.size;
  Value* x = b.input("x", DType::F32, {c.batch, ch, c.size, c.size});
  Value* wqkv = b.input("qkv.conv.weight", DType::F32, {3 * ch, ch, 1, 1});
  Value* wdw = b.input("aggreg.0.0.weight", DType::F32, {3 * ch, 1, c.scaleKernel, c.scaleKernel});
  Value* wpw = b.input("aggreg.0.1.weight", DType::F32, {3 * ch, d, 1, 1});
  Value* wproj = b.input("proj.conv.weight", DType::F32, {ch, 2 * ch, 1, 1});

  // Multi-scale tokens: qkv and its depthwise + grouped pointwise aggregate.
  Value* qkv = conv2d(b, m + "/qkv", x, wqkv, 1);
  Value* agg = conv2d(b, m + "/aggreg.0.0", qkv, wdw, c.scaleKernel, 3 * ch);
  agg = conv2d(b, m + "/aggreg.0.1", agg, wpw, 1, 3 * heads);
  Value* multi = b.op("Concat", {qkv, agg}, attrs({{"axis", 1}}), m + "/Concat");
  // [B, 2*heads, 3*d, N] -> [B, 2*heads, N, 3*d] -> q, k, v
  Value* t = reshape(b, m + "/heads", multi, {c.batch, 2 * heads, 3 * d, n});
  t = transpose(b, m + "/heads", t, {0, 1, 3, 2});
  std::vector<Value*> qkvParts = b.ops("Split", {t, b.ints(m + "/Split_sizes", {d, d, d})}, attrs({{"axis", -1}}), 3, m + "/Split");
  Value* q = b.op("Relu", {qkvParts[0]}, {}, m + "/kernel_func/Relu");
  Value* k = b.op("Relu", {qkvParts[1]}, {}, m + "/kernel_func_1/Relu");
  // ReLU linear attention: v padded with a column of ones yields the
  // normaliser in the same products.
  Value* v = b.op("Pad", {qkvParts[2], b.ints(m + "/Pad_pads", {0, 0, 0, 0, 0, 0, 0, 1}), scalar(b, m + "/Pad_value", DType::F32, 1.0)},
                  attrs({{"mode", "constant"}}), m + "/Pad");
  Value* kT = transpose(b, m + "/k", k, {0, 1, 3, 2});
  Value* vk = b.op("MatMul", {kT, v}, {}, m + "/MatMul");  // [B, 2h, d, d+1]
  Value* out = b.op("MatMul", {q, vk}, {}, m + "/MatMul_1"); // [B, 2h, N, d+1]
  Value* num = b.op("Slice", {out, b.ints(m + "/num_starts", {0}), b.ints(m + "/num_ends", {d}), b.ints(m + "/num_axes", {-1})}, {},
                    m + "/Slice");
  Value* den = b.op("Slice", {out, b.ints(m + "/den_starts", {d}), b.ints(m + "/den_ends", {d + 1}), b.ints(m + "/den_axes", {-1})}, {},
                    m + "/Slice_1");
  den = b.op("Add", {den, scalar(b, m + "/eps", DType::F32, 1e-15)}, {}, m + "/Add");
  out = b.op("Div", {num, den}, {}, m + "/Div");
  out = transpose(b, m + "/o", out, {0, 1, 3, 2});
  out = reshape(b, m + "/o", out, {c.batch, 2 * ch, c.size, c.size});
  b.output(conv2d(b, m + "/proj", out, wproj, 1));
  return b.finish();
}

} // namespace tcx::samples
