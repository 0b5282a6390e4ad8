#include "ops/movement/PiecewiseSemantics.h"

#include <numeric>

namespace tcx {

namespace {

IndexExpr x(size_t d) { return IndexExpr::var(static_cast<int>(d)); }

// The identity index with `delta` added along `axis`.
std::vector<IndexExpr> shifted(size_t rank, size_t axis, int64_t delta) {
  std::vector<IndexExpr> index;
  for (size_t d = 0; d < rank; ++d) index.push_back(d == axis ? x(d) + delta : x(d));
  return index;
}

MappingPiece piece(int source, std::vector<IndexExpr> index, std::vector<IndexConstraint> where = {}) {
  MappingPiece p;
  p.source = source;
  p.index = std::move(index);
  p.where = std::move(where);
  return p;
}

// The pieces of `region`'s complement in a box index space: for each axis
// k, indices inside the region on axes before k and outside it on axis k
// (below, then above). Together with the region they tile the space.
std::vector<std::vector<IndexConstraint>> complementOfBox(const Shape& shape, const std::vector<int64_t>& lo,
                                                          const std::vector<int64_t>& hi) {
  std::vector<std::vector<IndexConstraint>> out;
  for (size_t k = 0; k < shape.size(); ++k) {
    std::vector<IndexConstraint> inside;
    for (size_t j = 0; j < k; ++j) inside.push_back({x(j), lo[j], hi[j]});
    auto below = inside, above = inside;
    below.push_back({x(k), 0, lo[k]});
    above.push_back({x(k), hi[k], shape[k]});
    out.push_back(below);
    out.push_back(above);
  }
  return out;
}

} // namespace

MovementSemantics concatSemantics(const std::vector<Shape>& inputs, const Shape& output, int64_t axis) {
  MovementSemantics s;
  const size_t a = static_cast<size_t>(axis);
  MappingFunction out(output, inputs);
  int64_t offset = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    s.dataInputs.push_back(i);
    int64_t n = inputs[i][a];
    out.addPiece(piece(static_cast<int>(i), shifted(output.size(), a, -offset), {{x(a), offset, offset + n}}));
    MappingFunction in(inputs[i], {output});
    in.addPiece(piece(0, shifted(output.size(), a, offset)));
    s.inputMaps.push_back(std::move(in));
    offset += n;
  }
  s.outputMaps.push_back(std::move(out));
  return s;
}

MovementSemantics splitSemantics(const Shape& input, const std::vector<Shape>& outputs, int64_t axis) {
  MovementSemantics s;
  s.dataInputs = {0};
  const size_t a = static_cast<size_t>(axis);
  MappingFunction in(input, outputs);
  int64_t offset = 0;
  for (size_t o = 0; o < outputs.size(); ++o) {
    int64_t n = outputs[o][a];
    MappingFunction out(outputs[o], {input});
    out.addPiece(piece(0, shifted(input.size(), a, offset)));
    s.outputMaps.push_back(std::move(out));
    in.addPiece(piece(static_cast<int>(o), shifted(input.size(), a, -offset), {{x(a), offset, offset + n}}));
    offset += n;
  }
  s.inputMaps.push_back(std::move(in));
  return s;
}

MovementSemantics padSemantics(const Shape& input, const Shape& output, const std::vector<int64_t>& begins, double fill) {
  MovementSemantics s;
  s.dataInputs = {0};
  const size_t rank = input.size();
  // Output index o reads input o - begin on the interior [begin, begin + n)
  // clipped to the output.
  std::vector<int64_t> lo(rank), hi(rank);
  std::vector<IndexExpr> index;
  bool crops = false;
  for (size_t d = 0; d < rank; ++d) {
    lo[d] = std::max<int64_t>(begins[d], 0);
    hi[d] = std::min<int64_t>(begins[d] + input[d], output[d]);
    index.push_back(x(d) - begins[d]);
    crops |= begins[d] < 0 || begins[d] + input[d] > output[d];
  }
  MappingFunction out(output, {input});
  std::vector<IndexConstraint> interior;
  for (size_t d = 0; d < rank; ++d) interior.push_back({x(d), lo[d], hi[d]});
  out.addPiece(piece(0, index, interior));
  for (auto& border : complementOfBox(output, lo, hi)) {
    MappingPiece p = piece(MappingPiece::kFill, {}, border);
    p.fillValue = fill;
    out.addPiece(std::move(p));
  }
  s.outputMaps.push_back(std::move(out));
  if (crops) {
    s.inputMaps.push_back(std::nullopt);
  } else {
    MappingFunction in(input, {output});
    std::vector<IndexExpr> back;
    for (size_t d = 0; d < rank; ++d) back.push_back(x(d) + begins[d]);
    in.addPiece(piece(0, back));
    s.inputMaps.push_back(std::move(in));
  }
  return s;
}

std::optional<MovementSemantics> scatterNDSemantics(const Shape& data, const Tensor& indices, const Shape& updates) {
  // indices is U + [q]; updates is U + data[q:]. Component c of the tuple
  // at u must be u_j + b_c for one batch dimension j (each used once) or a
  // constant b_c: then the updated region is a box of data.
  const Shape& is = indices.shape();
  if (is.empty()) return std::nullopt;
  const size_t q = static_cast<size_t>(is.back()), batchRank = is.size() - 1;
  if (q > data.size()) return std::nullopt;
  std::vector<int64_t> idx = indices.toInt64Vector();
  const int64_t tuples = numElements(Shape(is.begin(), is.end() - 1));
  if (tuples == 0) return std::nullopt;
  std::vector<int64_t> uStrides = contiguousStrides(Shape(is.begin(), is.end() - 1));
  std::vector<int> batchOf(q, -1); // the batch dim that moves component c
  std::vector<int64_t> base(q);
  std::vector<bool> used(batchRank, false);
  for (size_t c = 0; c < q; ++c) {
    base[c] = idx[c];
    if (base[c] < 0) base[c] += data[c];
    for (size_t j = 0; j < batchRank; ++j) {
      if (is[j] < 2 || used[j]) continue;
      int64_t step = idx[static_cast<size_t>(uStrides[j]) * q + c] - idx[c];
      if (step == 1) {
        batchOf[c] = static_cast<int>(j);
        used[j] = true;
        break;
      }
    }
  }
  // Check every tuple against the pattern (and that it stays in range).
  for (int64_t t = 0; t < tuples; ++t)
    for (size_t c = 0; c < q; ++c) {
      int64_t expected = base[c] + (batchOf[c] >= 0 ? (t / uStrides[batchOf[c]]) % is[batchOf[c]] : 0);
      int64_t v = idx[static_cast<size_t>(t) * q + c];
      if (v < 0) v += data[c];
      if (v != expected || expected < 0 || expected >= data[c]) return std::nullopt;
    }
  for (size_t j = 0; j < batchRank; ++j)
    if (is[j] > 1 && !used[j]) return std::nullopt; // a batch dimension that repeats a tuple

  MovementSemantics s;
  s.dataInputs = {0, 2};
  std::vector<int64_t> lo(data.size()), hi(data.size());
  std::vector<IndexExpr> toUpdates(updates.size(), IndexExpr(0)), toOutput(data.size(), IndexExpr(0));
  for (size_t c = 0; c < q; ++c) {
    int64_t extent = batchOf[c] >= 0 ? is[batchOf[c]] : 1;
    lo[c] = base[c];
    hi[c] = base[c] + extent;
    if (batchOf[c] >= 0) toUpdates[batchOf[c]] = x(c) - base[c];
    toOutput[c] = batchOf[c] >= 0 ? x(batchOf[c]) + base[c] : IndexExpr(base[c]);
  }
  for (size_t d = q; d < data.size(); ++d) {
    lo[d] = 0;
    hi[d] = data[d];
    toUpdates[batchRank + (d - q)] = x(d);
    toOutput[d] = x(batchRank + (d - q));
  }
  MappingFunction out(data, {data, updates});
  std::vector<IndexConstraint> box;
  for (size_t d = 0; d < data.size(); ++d) box.push_back({x(d), lo[d], hi[d]});
  out.addPiece(piece(1, toUpdates, box));
  std::vector<IndexExpr> same;
  for (size_t d = 0; d < data.size(); ++d) same.push_back(x(d));
  for (auto& rest : complementOfBox(data, lo, hi)) out.addPiece(piece(0, same, rest));
  s.outputMaps.push_back(std::move(out));
  s.inputMaps.push_back(std::nullopt); // overwritten data elements are dropped
  MappingFunction in(updates, {data});
  in.addPiece(piece(0, toOutput));
  s.inputMaps.push_back(std::move(in));
  return s;
}

std::optional<MovementSemantics> gatherSemantics(const Shape& data, const Tensor& indices, int64_t axis, const Shape& output) {
  std::vector<int64_t> idx = indices.toInt64Vector();
  if (idx.empty() || indices.rank() > 1) return std::nullopt;
  const size_t a = static_cast<size_t>(axis);
  for (int64_t& i : idx)
    if (i < 0) i += data[a];
  int64_t step = idx.size() > 1 ? idx[1] - idx[0] : 0;
  for (size_t i = 0; i < idx.size(); ++i)
    if (idx[i] != idx[0] + step * static_cast<int64_t>(i) || idx[i] < 0 || idx[i] >= data[a]) return std::nullopt;
  // A scalar index removes the axis; a 1-D one keeps it with idx.size() entries.
  std::vector<IndexExpr> index;
  size_t o = 0;
  for (size_t d = 0; d < data.size(); ++d) {
    if (d != a) {
      index.push_back(x(o++));
    } else if (indices.rank() == 0) {
      index.push_back(IndexExpr(idx[0]));
    } else {
      index.push_back(x(o++) * step + idx[0]);
    }
  }
  MovementSemantics s;
  s.dataInputs = {0};
  MappingFunction out(output, {data});
  out.addPiece(piece(0, index));
  s.outputMaps.push_back(std::move(out));
  s.inputMaps.push_back(std::nullopt);
  return s;
}

} // namespace tcx
