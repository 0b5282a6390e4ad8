// Scaled dot-product attention as exports write it, which the fusion pass
// makes one attention kernel: on the fp32 kernel (attention_f32.cuh) with K
// stored transposed and with K's head dim contiguous, K and V copied by 16
// and by 4 bytes, masks (Swin's through reshapes too), PyTorch's safe softmax
// and grouped KV heads; on the
// 16-bit split-K kernel with the same masks; and on the library GEMMs where
// neither kernel takes the head dim.

#include "CaseSupport.h"

#include "passes/GraphPasses.h"

#include <limits>

namespace tcx::test {

namespace {

// Q K^T, an additive mask, softmax, PyTorch's safe softmax (Where(IsNaN(P),
// 0, P)), P V; the scale on K^T, which stores K transposed (as ViT's export
// scales K^T before the product, which the 16-bit kernel does not take), or
// on the scores. 70 query rows and 45 or 48 keys leave the kernel's row tile
// and its key tile ragged; stored transposed, K's rows of 45 positions take
// 4-byte copies and those of 48 16-byte ones. The mask lets row i see keys
// 0 .. i / 2 + 5, so the later rows reach the second key tile and the early
// ones find it empty; row 9 sees only keys from 32 on (its first tile all
// -inf), and row 7 none at all, which safe softmax makes a row of zeros.
OpCase maskedAttentionCase(DType dtype, int64_t headDim, int64_t keys, bool scaleKt) {
  const std::string scaled = scaleKt ? "K^T scaled" : "scores scaled";
  return {caseName("attention masked, safe softmax, " + scaled + ", d" + std::to_string(headDim) + ", " +
                       std::to_string(keys) + " keys",
                   dtype),
          [=] {
            GraphBuilder b("masked_attention");
            const int64_t rows = 70;
            const double inf = std::numeric_limits<double>::infinity();
            std::vector<double> mask;
            for (int64_t i = 0; i < rows; ++i)
              for (int64_t j = 0; j < keys; ++j) {
                const bool visible = i == 9 ? j >= 32 : i != 7 && j <= i / 2 + 5;
                mask.push_back(visible ? 0.0 : -inf);
              }
            Value* q = b.input("q", dtype, {2, 3, rows, headDim});
            Value* kt = b.op("Transpose", {b.input("k", dtype, {2, 3, keys, headDim})}, attrs({{"perm", Ints{0, 1, 3, 2}}}));
            Value* scale = typedConstant(b, "scale", dtype, {}, {0.35});
            Value* product = scaleKt ? b.op("MatMul", {q, b.op("Mul", {kt, scale})})
                                     : b.op("Mul", {b.op("MatMul", {q, kt}), scale});
            Value* scores = b.op("Add", {product, typedConstant(b, "mask", dtype, {rows, keys}, mask)});
            Value* probs = b.op("Softmax", {scores}, attrs({{"axis", int64_t{-1}}}));
            Value* safe = b.op("Where", {b.op("IsNaN", {probs}), typedConstant(b, "zero", dtype, {}, {0.0}), probs});
            b.output(b.op("MatMul", {safe, b.input("v", dtype, {2, 3, keys, headDim})}));
            return b.finish();
          }};
}

// Grouped KV heads as Llama's export repeats them (Unsqueeze, Expand,
// Reshape): 4 query heads over 2 KV heads, K's head dim contiguous, the
// scale on the scores; 130 query rows (three row tiles, the last ragged)
// and 100 keys.
OpCase groupedAttentionCase(DType dtype, int64_t headDim) {
  return {caseName("attention grouped heads, d" + std::to_string(headDim), dtype), [=] {
            GraphBuilder b("grouped_attention");
            const int64_t keys = 100;
            auto repeat = [&](const std::string& name) {
              Value* kv = b.input(name, dtype, {1, 2, keys, headDim});
              Value* wide = b.op("Unsqueeze", {kv, b.ints(name + "_axes", {2})});
              Value* expanded = b.op("Expand", {wide, b.ints(name + "_shape", {1, 2, 2, keys, headDim})});
              return b.op("Reshape", {expanded, b.ints(name + "_heads", {1, 4, keys, headDim})});
            };
            Value* kt = b.op("Transpose", {repeat("k")}, attrs({{"perm", Ints{0, 1, 3, 2}}}));
            Value* scores = b.op("MatMul", {b.input("q", dtype, {1, 4, 130, headDim}), kt});
            Value* scaled = b.op("Mul", {scores, typedConstant(b, "scale", dtype, {}, {0.088})});
            Value* probs = b.op("Softmax", {scaled}, attrs({{"axis", int64_t{-1}}}));
            b.output(b.op("MatMul", {probs, repeat("v")}));
            return b.finish();
          }};
}

// K and V sliced out of rows of d + 3 from the third element on (as a fused
// q/k/v projection's output is read): their rows are neither 16-byte aligned
// nor a multiple of 16 bytes apart, so the fp32 kernel copies them by 4 bytes.
OpCase slicedAttentionCase(DType dtype) {
  return {caseName("attention over sliced K and V, d32", dtype), [=] {
            GraphBuilder b("sliced_attention");
            const Shape shape{2, 2, 40, 32};
            Value* kt = b.op("Transpose", {feed(b, "k", dtype, shape, Feed::Sliced)}, attrs({{"perm", Ints{0, 1, 3, 2}}}));
            Value* scores = b.op("Mul", {b.op("MatMul", {b.input("q", dtype, shape), kt}),
                                         typedConstant(b, "scale", dtype, {}, {0.18})});
            Value* probs = b.op("Softmax", {scores}, attrs({{"axis", int64_t{-1}}}));
            b.output(b.op("MatMul", {probs, feed(b, "v", dtype, shape, Feed::Sliced)}));
            return b.finish();
          }};
}

// Swin's shifted-window attention as its export writes it, imported: the
// scores of 2 images x 4 windows are viewed per image to add the windows'
// mask and viewed back for the softmax. Import's cleanup moves the mask's
// Add out of the reshapes (passes/ElementwiseOutOfReshapes.h), so that the
// fp32 kernel's score op reads the mask at window bi % 4 through the
// Expand's mapping function. The mask is an input, so that the Expand stays
// a view rather than folding into a constant.
OpCase shiftedWindowAttentionCase() {
  return {caseName("attention over shifted windows", DType::F32), [] {
            GraphBuilder b("shifted_window_attention");
            const DType f32 = DType::F32;
            Value* q = b.input("q", f32, {8, 3, 49, 32});
            Value* kt = b.op("Transpose", {b.input("k", f32, {8, 3, 49, 32})}, attrs({{"perm", Ints{0, 1, 3, 2}}}));
            Value* scores = b.op("Add", {b.op("MatMul", {q, kt}), b.input("bias", f32, {3, 49, 49})});
            Value* perImage = b.op("Reshape", {scores, b.ints("per_image", {2, 4, 3, 49, 49})});
            Value* masked = b.op("Add", {perImage, b.input("mask", f32, {1, 4, 1, 49, 49})});
            Value* perWindow = b.op("Reshape", {masked, b.ints("per_window", {8, 3, 49, 49})});
            Value* probs = b.op("Softmax", {perWindow}, attrs({{"axis", int64_t{-1}}}));
            b.output(b.op("MatMul", {probs, b.input("v", f32, {8, 3, 49, 32})}));
            Graph g = b.finish();
            graphCleanupPipeline().run(g);
            return g;
          }};
}

// ViT-B/16's attention as its export writes it, imported: Q and K^T each
// scaled by a one-element input (the export's weights and scale are graph
// inputs) before the product. Import's cleanup moves both scales to the
// scores (passes/ScalesOutOfMatMuls.h), so the fp32 kernel reads Q and K as
// they are and multiplies the scores twice.
OpCase scaledOperandsAttentionCase() {
  return {caseName("attention over scaled Q and K^T", DType::F32), [] {
            GraphBuilder b("scaled_operands_attention");
            const DType f32 = DType::F32;
            Value* s = b.input("s", f32, {1});
            Value* q = b.op("Mul", {b.input("q", f32, {2, 3, 40, 64}), s});
            Value* k = b.op("Transpose", {b.input("k", f32, {2, 3, 40, 64})}, attrs({{"perm", Ints{0, 1, 3, 2}}}));
            Value* probs = b.op("Softmax", {b.op("MatMul", {q, b.op("Mul", {k, s})})}, attrs({{"axis", int64_t{-1}}}));
            b.output(b.op("MatMul", {probs, b.input("v", f32, {2, 3, 40, 64})}));
            Graph g = b.finish();
            graphCleanupPipeline().run(g);
            return g;
          }};
}

// A head dim of 20 neither kernel takes: both MatMuls stage on the library
// GEMMs, the scores and probabilities in scratch.
OpCase stagedAttentionCase(DType dtype) {
  return {caseName("attention staged on GEMMs", dtype), [=] {
            GraphBuilder b("staged_attention");
            Value* q = b.input("q", dtype, {2, 3, 20, 20});
            Value* kt = b.op("Transpose", {b.input("k", dtype, {2, 3, 24, 20})}, attrs({{"perm", Ints{0, 1, 3, 2}}}));
            Value* scores = b.op("Mul", {b.op("MatMul", {q, kt}), b.input("scale", dtype, {})});
            Value* probs = b.op("Softmax", {scores}, attrs({{"axis", int64_t{-1}}}));
            b.output(b.op("MatMul", {probs, b.input("v", dtype, {2, 3, 24, 20})}));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> attentionCases() {
  return {maskedAttentionCase(DType::F32, 32, 45, true),   maskedAttentionCase(DType::F32, 32, 48, true),
          maskedAttentionCase(DType::BF16, 64, 45, false), groupedAttentionCase(DType::F32, 128),
          groupedAttentionCase(DType::F32, 64),            slicedAttentionCase(DType::F32),
          stagedAttentionCase(DType::F32),                 stagedAttentionCase(DType::BF16),
          shiftedWindowAttentionCase(),                    scaledOperandsAttentionCase()};
}

} // namespace tcx::test
