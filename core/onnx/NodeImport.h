#pragma once
// The per-node steps of import: reading a NodeProto and checking a node in
// canonical form against its op's definition.

#include "onnx/ImportedNode.h"

#include <string>

namespace onnx {
class NodeProto;
}

namespace tcx {

struct OpDef;

// `proto` with its attributes converted, named `name`. Trailing omitted
// inputs and results are dropped; omitted results in the middle get fresh
// names from `valueNames`.
ImportedNode readNode(const onnx::NodeProto& proto, const std::string& name, const std::string& baseDir,
                      NameTable& valueNames);

// Raises Unsupported for attributes and operand counts beyond what tcx
// supports, InvalidModel for attributes of the wrong kind and for missing
// required attributes or inputs.
void checkAgainstOpDef(const ImportedNode& node, const OpDef& op);

} // namespace tcx
