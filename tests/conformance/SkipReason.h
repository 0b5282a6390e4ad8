#pragma once
// Why onnx_conformance skips an ONNX node test: a fixed list, each entry a
// part of ONNX that tcx leaves out on purpose. The list was derived from what
// the backend node tests of Debian 12's libonnx-testdata actually hit.
//
// A skip must name one of these reasons, and each reason is recognised by
// where it arises, not by what an error message says: the model's structure
// (ops, value kinds, element types), a model that asks for training, or the
// test data files. An Unsupported error anywhere else is a failure, so an op
// that regresses into "unsupported" cannot hide among the skips.

#include <optional>
#include <string>

namespace onnx {
class ModelProto;
}

namespace tcx::conformance {

enum class SkipReason {
  OpNotRegistered,  // a node's op is not in tcx's registry, or is in a domain other than ONNX's default one
                    // (ai.onnx.preview.training, ai.onnx.ml)
  NonTensorValue,   // a sequence, map or optional value: control flow and sequence ops
  ElemTypeNotInTcx, // a declared value or an attribute's tensor has an element type that is not one of tcx's
                    // dtypes (STRING, INT16, UINT16/32/64, FLOAT8*, ...)
  TrainingMode,     // an Unsupported error in a model that gives a node a training_mode operand: tcx runs
                    // inference only (Dropout that drops, BatchNormalization's batch statistics)
  TestDataElemType, // a test_data_set file stores a tensor in an element type tcx lacks (the bf16 Cast tests
                    // store their bf16 data as UINT16)
  NoTestData,       // the folder has no test_data_set_*: nothing to compare with (none in Debian's data; a
                    // damaged install would show here, and in the pinned pass count)
};

inline constexpr SkipReason kAllSkipReasons[] = {SkipReason::OpNotRegistered,  SkipReason::NonTensorValue,
                                                 SkipReason::ElemTypeNotInTcx, SkipReason::TrainingMode,
                                                 SkipReason::TestDataElemType, SkipReason::NoTestData};

// A short name for listings: "op-not-registered", ...
const char* skipReasonName(SkipReason reason);

struct Skip {
  SkipReason reason;
  std::string detail; // what the model or error names: "op Loop, op SequenceEmpty, non-tensor value"
};

// The first of OpNotRegistered, NonTensorValue and ElemTypeNotInTcx that the
// model's structure falls under (the detail lists every cause found), or
// nullopt when the model is within tcx's scope.
std::optional<Skip> structuralSkip(const onnx::ModelProto& model);

// Whether some node is given a training_mode operand, as an attribute that is
// not 0 or as an input (found through ONNX's own op schemas, so no op is
// named here): the one kind of model in which an Unsupported error from
// import or execution is an expected skip.
bool asksForTrainingMode(const onnx::ModelProto& model);

} // namespace tcx::conformance
