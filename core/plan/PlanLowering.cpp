#include "plan/PlanLowering.h"

#include "ops/OpDef.h"
#include "plan/BufferPlanner.h"
#include "plan/LayoutChoice.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace tcx {

namespace {

bool isIdentityPiece(const MappingPiece& p, const Shape& virtualShape, const Shape& sourceShape) {
  if (virtualShape != sourceShape || p.source == MappingPiece::kFill) return false;
  for (size_t d = 0; d < p.index.size(); ++d)
    if (!(p.index[d] == IndexExpr::var(static_cast<int>(d)))) return false;
  return true;
}

class Lowering {
public:
  Lowering(const KernelGraph& kg, const PointsToGraph& ptg, const PlanOptions& options)
      : kg_(kg), ptg_(ptg), vtog_(ptg.vtog()), options_(options), layouts_(kg, ptg, options.layouts) {
    plan_.kernelGraph = &kg;
  }

  ExecPlan run() {
    for (const FusedKernel& k : kg_.kernels()) findInPlaceUpdates(k);
    for (const FusedKernel& k : kg_.kernels()) lower(k);
    for (const Value* out : kg_.graph().outputs())
      if (!out->isConstant()) bufferFor(out);
    plan_.tensorBuffers = bufferOf_;
    planBuffers(plan_);
    return std::move(plan_);
  }

  // Only `k`'s plan kernel (if any is left) and none of the buffer plan: all
  // that estimating k's latency needs.
  std::vector<PlanKernel> runOne(const FusedKernel& k) {
    findInPlaceUpdates(k);
    // With layouts chosen, a tensor shared in place keeps its stated layout
    // (layoutOf), as in the whole plan: the sharing of every tensor the
    // lowering asks about is found as it asks (findInPlaceUpdatesAround), not
    // by scanning every kernel at each of the greedy's lowerings.
    if (layouts_.channelsLast()) {
      scanned_.insert(&k);
      inPlaceOnDemand_ = true;
    }
    lower(k);
    return std::move(plan_.kernels);
  }

private:
  // An output that may share the storage of one of its op's inputs: it
  // equals that input except where the op writes (ScatterND, ScatterElements:
  // seen in the op's mapping function when VTC has one, else the op's
  // inPlaceOperand, as for run-time indices).
  void findInPlaceUpdates(const FusedKernel& k) {
    if (!k.isDataMovement()) return;
    const Node& node = *k.anchor;
    const MovementSemantics* sem = vtog_.semanticsOf(k.anchor);
    if (!sem) {
      if (node.op().inPlaceOperand) shareIfEligible(node.output(0), node.input(*node.op().inPlaceOperand));
      return;
    }
    for (size_t o = 0; o < node.numOutputs(); ++o) {
      const Value* out = node.output(o);
      for (const MappingPiece& p : sem->outputMaps[o].pieces()) {
        if (p.source == MappingPiece::kFill) continue;
        const Value* in = node.input(sem->dataInputs[p.source]);
        if (!isIdentityPiece(p, out->type().shape, in->type().shape) || sem->outputMaps[o].pieces().size() < 2) continue;
        shareIfEligible(out, in);
      }
    }
  }

  // The in-place sharing that can involve `tensor`: its producer's kernel may
  // share it with one of its inputs, a consumer's kernel one of its outputs
  // with it. No other kernel's sharing can, so this answers for `tensor` as
  // a scan of every kernel would.
  void findInPlaceUpdatesAround(const Value* tensor) {
    auto scan = [&](const Node* node) {
      const FusedKernel* k = node ? kg_.findKernelOf(node) : nullptr;
      if (k && scanned_.insert(k).second) findInPlaceUpdates(*k);
    };
    scan(tensor->producer());
    for (const Use& use : tensor->uses()) scan(use.user);
  }

  // `out` shares `in`'s storage when both are physical, `in` is read by
  // nothing else and is no graph output, and it is not a graph input unless
  // the caller donates inputs.
  void shareIfEligible(const Value* out, const Value* in) {
    bool eligible = !ptg_.isVirtual(out) && !ptg_.isVirtual(in) && in->uses().size() == 1 && !in->isGraphOutput() &&
                    !in->isConstant() && (!in->isGraphInput() || options_.donateInputs) && !inPlace_.count(out);
    if (eligible) inPlace_[out] = in;
  }

  void lower(const FusedKernel& k) {
    const MovementSemantics* sem = k.isDataMovement() ? vtog_.semanticsOf(k.anchor) : nullptr;
    if (sem)
      lowerDataMovement(k, *sem);
    else
      lowerCompute(k);
  }

  int bufferFor(const Value* tensor) {
    if (auto known = bufferOf_.find(tensor); known != bufferOf_.end()) return known->second;
    if (inPlaceOnDemand_) findInPlaceUpdatesAround(tensor);
    if (auto it = inPlace_.find(tensor); it != inPlace_.end()) {
      int b = bufferFor(it->second);
      if (tensor->isGraphOutput()) plan_.buffers[b].name += " (in place: " + tensor->name() + ")";
      bufferOf_[tensor] = b;
      return b;
    }
    PlanBuffer b;
    b.id = static_cast<int>(plan_.buffers.size());
    b.name = tensor->name();
    b.tensor = tensor;
    b.dtype = tensor->type().dtype;
    b.bytes = static_cast<int64_t>(tensor->type().byteSize());
    b.layout = layoutOf(tensor);
    b.kind = tensor->isGraphInput()    ? PlanBuffer::Kind::Input
             : tensor->isGraphOutput() ? PlanBuffer::Kind::Output
             : tensor->isConstant()    ? PlanBuffer::Kind::Constant
                                       : PlanBuffer::Kind::Intermediate;
    plan_.buffers.push_back(b);
    bufferOf_[tensor] = b.id;
    return b.id;
  }

  // The layout `tensor` is stored in. A tensor that shares storage in place
  // with another keeps the stated one: the two must agree element for element.
  Layout layoutOf(const Value* tensor) {
    if (!layouts_.channelsLast()) return {};
    if (inPlaceOnDemand_) findInPlaceUpdatesAround(tensor);
    if (inPlace_.count(tensor)) return {};
    for (const auto& [out, in] : inPlace_)
      if (in == tensor) return {};
    return layouts_.of(tensor);
  }

  // A resolution's mapping (sources: the physical tensors listed) with each
  // tensor's layout composed in, so that it indexes the buffers as stored:
  // source j becomes the stored tensor j.
  MappingFunction asStored(const MappingFunction& mapping, const std::vector<const Value*>& physical) {
    if (std::ranges::all_of(physical, [&](const Value* p) { return layoutOf(p).isIdentity(); })) return mapping;
    std::vector<MappingFunction> stored;
    for (const Value* p : physical) stored.push_back(storageMapping(p->type().shape, layoutOf(p)));
    return mergeAligned(mapping.composeSources(stored));
  }

  // The same mapping, with pieces that read one source at one offset merged (remapSources onto
  // the same sources).
  static MappingFunction mergeAligned(const MappingFunction& mapping) {
    std::vector<int> same(mapping.sourceShapes().size());
    std::iota(same.begin(), same.end(), 0);
    return mapping.remapSources(same, mapping.sourceShapes());
  }

  TensorAccess accessOf(const Value* v) {
    const PointsToGraph::Resolution& r = ptg_.resolve(v);
    TensorAccess a;
    a.value = v;
    a.mapping = asStored(r.mapping, r.physical);
    for (const Value* p : r.physical) a.buffers.push_back(bufferFor(p));
    return a;
  }

  void lowerCompute(const FusedKernel& k) {
    PlanKernel pk;
    pk.id = static_cast<int>(plan_.kernels.size());
    pk.name = k.name;
    pk.kind = PlanKernel::Kind::RunNodes;
    pk.fused = &k;
    for (const Value* v : k.inputs) pk.inputs.push_back(accessOf(v));
    for (const Value* v : k.outputs) pk.outputs.push_back(accessOf(v));
    plan_.kernels.push_back(std::move(pk));
  }

  // Whether `edgeOwner` has a chosen edge of `op` in `direction` (to `target`
  // if given).
  bool chose(const Value* edgeOwner, const Node* op, EdgeDirection direction, const Value* target) const {
    for (int e : ptg_.edgesOf(edgeOwner)) {
      const VtogEdge& edge = vtog_.edge(e);
      if (edge.op == op && edge.direction == direction && (!target || edge.to == target)) return true;
    }
    return false;
  }

  void lowerDataMovement(const FusedKernel& k, const MovementSemantics& sem) {
    const Node& node = *k.anchor;
    PlanKernel pk;
    pk.id = static_cast<int>(plan_.kernels.size());
    pk.name = k.name;
    pk.kind = PlanKernel::Kind::CopyRegions;
    pk.fused = &k;
    for (size_t o = 0; o < node.numOutputs(); ++o) {
      const Value* out = node.output(o);
      if (out->uses().empty() && !out->isGraphOutput()) continue;
      const MappingFunction& map = sem.outputMaps[o];
      MappingFunction todo(map.virtualShape(), map.sourceShapes());
      for (const MappingPiece& p : map.pieces()) {
        if (p.source == MappingPiece::kFill) {
          // A fill region belongs to the edge that makes the output virtual.
          if (chose(out, &node, EdgeDirection::OutputOverInput, nullptr)) continue;
        } else {
          const Value* in = node.input(sem.dataInputs[p.source]);
          // Where the output is virtual over this input, nothing is stored.
          if (chose(out, &node, EdgeDirection::OutputOverInput, in)) continue;
          // Already written into this output by the input's producer.
          if (chose(in, &node, EdgeDirection::InputOverOutput, out)) continue;
          // Already there: the output shares the input's storage.
          auto ip = inPlace_.find(out);
          if (ip != inPlace_.end() && ip->second == in && isIdentityPiece(p, out->type().shape, in->type().shape)) continue;
        }
        todo.addPiece(p);
      }
      if (todo.pieces().empty()) continue;
      // Resolve each data input to buffers.
      TensorAccess from;
      from.value = out;
      from.mapping = todo;
      std::vector<MappingFunction> inputs;
      std::vector<const Value*> physical;
      for (size_t s = 0; s < sem.dataInputs.size(); ++s) {
        const PointsToGraph::Resolution& r = ptg_.resolve(node.input(sem.dataInputs[s]));
        inputs.push_back(asStored(r.mapping, r.physical));
        physical.insert(physical.end(), r.physical.begin(), r.physical.end());
      }
      // The sources are now the buffers as stored, one per physical tensor listed.
      from.mapping = mergeAligned(from.mapping.composeSources(inputs));
      for (const Value* p : physical) from.buffers.push_back(bufferFor(p));
      pk.outputs.push_back(accessOf(out));
      pk.copyFrom.push_back(std::move(from));
    }
    if (pk.outputs.empty()) {
      plan_.eliminated.push_back(&node);
      return;
    }
    plan_.kernels.push_back(std::move(pk));
  }

  const KernelGraph& kg_;
  const PointsToGraph& ptg_;
  const Vtog& vtog_;
  PlanOptions options_;
  ExecPlan plan_;
  std::unordered_map<const Value*, int> bufferOf_;
  std::unordered_map<const Value*, const Value*> inPlace_; // output -> input whose storage it shares
  // runOne with layouts chosen: in-place sharing is found tensor by tensor,
  // from the kernels scanned so far.
  bool inPlaceOnDemand_ = false;
  std::unordered_set<const FusedKernel*> scanned_;
  LayoutChoice layouts_;                                    // before in-place sharing
};

} // namespace

ExecPlan lowerToPlan(const KernelGraph& kernels, const PointsToGraph& strategy, const PlanOptions& options) {
  return Lowering(kernels, strategy, options).run();
}

std::vector<PlanKernel> lowerKernel(const KernelGraph& kernels, const FusedKernel& kernel, const PointsToGraph& strategy,
                                    const PlanOptions& options) {
  return Lowering(kernels, strategy, options).runOne(kernel);
}

} // namespace tcx
