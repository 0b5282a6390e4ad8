// μGraph levels as DisplayGraphs: the kernel graph with its graph-defined
// operators, a block graph with its iterators' maps, a thread graph, and
// operator refs that name a path through the levels.
#include "../mugraph/Programs.h"

#include "support/Error.h"
#include "view/MuGraphView.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace tcx;
using namespace tcx::view;
using namespace tcx::mugraph;
namespace testing = tcx::mugraph::testing;

namespace {

const testing::AttentionShape kShape{.heads = 2, .kvHeads = 2, .queryLen = 1, .kvLen = 8, .headDim = 4};

std::vector<const DisplayNode*> nodesOfType(const DisplayGraph& d, OpType type) {
  std::vector<const DisplayNode*> out;
  for (const DisplayNode& n : d.nodes)
    if (n.opType == opTypeName(type)) out.push_back(&n);
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("the kernel graph of FlashDecoding has its two kernels as graph-defined nodes", "[view][mugraph]") {
  const KernelGraph g = testing::flashDecoding(kShape, 2, 2);
  const DisplayGraph d = buildMuGraphView(g);
  CHECK(d.name == "kernel graph flash_decoding");
  REQUIRE(d.nodes.size() == g.ops().size() + 1); // and the output
  const std::vector<const DisplayNode*> kernels = nodesOfType(d, OpType::GraphDefined);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0]->ref == ItemRef{ItemKind::Node, "3"});
  CHECK(kernels[1]->ref == ItemRef{ItemKind::Node, "4"});
  CHECK(kernels[0]->style == NodeStyle::CollapsedGroup);
  CHECK(kernels[0]->label == "block graph\ngrid [2,2], for-loop [2]\n[2,1,8]\n[2,1,2]");
  CHECK(contains(kernels[0]->tooltip, "double-click to open"));
  for (size_t i = 0; i < 3; ++i) CHECK(d.nodes[i].style == NodeStyle::GraphInput);
  CHECK(d.nodes[0].label == "q\n[2,1,4]");
  CHECK(d.nodes[2].label == "v\n[2,8,4]");
  const DisplayNode& output = d.nodes.back();
  CHECK(output.style == NodeStyle::GraphOutput);
  CHECK(output.label == "output 0\n[2,1,4]");
  // Kernel 1's two outputs feed kernel 2; three inputs feed kernel 1.
  size_t into3 = 0, from3To4 = 0;
  for (const DisplayEdge& e : d.edges) {
    into3 += e.to == 3;
    from3To4 += e.from == 3 && e.to == 4;
  }
  CHECK(into3 == 3);
  CHECK(from3To4 == 2);
  CHECK(d.edges.back().ref == ItemRef{ItemKind::Value, "4:0"});
}

TEST_CASE("a block graph shows its iterators' imaps and fmaps and its partition in the title", "[view][mugraph]") {
  const KernelGraph g = testing::flashDecoding(kShape, 2, 2);
  const DisplayGraph d = buildMuGraphView(g, {3});
  CHECK(d.name == "block graph of operator 3: grid [2,2], for-loop [2]");
  const std::vector<const DisplayNode*> iterators = nodesOfType(d, OpType::InputIterator);
  REQUIRE(iterators.size() == 3);
  CHECK(iterators[0]->ref == ItemRef{ItemKind::Node, "3/0"});
  CHECK(iterators[0]->style == NodeStyle::GraphInput);
  CHECK(iterators[0]->label == "InputIterator #0 q\nimap {x→0, y→φ}\nfmap {i→φ}\n[1,1,4]");
  CHECK(iterators[1]->label == "InputIterator #1 k_t\nimap {x→0, y→2}\nfmap {i→2}\n[1,4,2]");
  CHECK(iterators[2]->label == "InputIterator #2 v\nimap {x→0, y→1}\nfmap {i→1}\n[1,2,4]");
  const std::vector<const DisplayNode*> accumulators = nodesOfType(d, OpType::OutputAccumulator);
  REQUIRE(accumulators.size() == 2);
  CHECK(accumulators[1]->style == NodeStyle::GraphOutput);
  CHECK(accumulators[1]->label == "OutputAccumulator #1\nomap {x→0, y→2}\nfmap {i→φ}\n[2,1,2]");
  CHECK(nodesOfType(d, OpType::GraphDefined).empty());
  CHECK(d.nodes.size() == muGraphLevel(g, {3}).ops().size());
}

TEST_CASE("FlashAttention's thread graph is two levels down", "[view][mugraph]") {
  const KernelGraph g =
      testing::flashAttention({.heads = 2, .kvHeads = 2, .queryLen = 4, .kvLen = 8, .headDim = 4}, 2, 2);
  const DisplayGraph block = buildMuGraphView(g, {3});
  const std::vector<const DisplayNode*> threads = nodesOfType(block, OpType::GraphDefined);
  REQUIRE(threads.size() == 1);
  CHECK(threads[0]->label == "thread graph\nblock [4], for-loop []\n[1,2,4]");
  const std::optional<MuOpId> id = parseMuOpRef(threads[0]->ref);
  REQUIRE(id);
  CHECK(id->level == MuGraphPath{3});

  MuGraphPath down = id->level;
  down.push_back(id->op);
  const DisplayGraph thread = buildMuGraphView(g, down);
  CHECK(thread.name == "thread graph of operator 3/" + std::to_string(id->op) + ": block [4], for-loop []");
  REQUIRE(thread.nodes.size() == 3);
  CHECK(thread.nodes[0].label == "InputIterator #0 Matmul 3\nimap {x→2}\nfmap {}\n[1,2,1]");
  CHECK(thread.nodes[1].opType == "EwExp");
  CHECK(thread.nodes[2].label == "OutputAccumulator #0\nomap {x→2}\nfmap {}\n[1,2,4]");
  CHECK(thread.nodes[2].ref == muOpRef({down, 2}));
}

TEST_CASE("operator refs name a path through the levels", "[view][mugraph]") {
  CHECK(muOpRef({{}, 4}).name == "4");
  CHECK(muOpRef({{3, 5}, 1}) == ItemRef{ItemKind::Node, "3/5/1"});
  CHECK(parseMuOpRef({ItemKind::Node, "3/5/1"}) == MuOpId{{3, 5}, 1});
  CHECK(parseMuOpRef({ItemKind::Node, "7"}) == MuOpId{{}, 7});
  for (const char* bad : {"", "3/", "/3", "a", "3//1", "-1", "3/x"}) CHECK_FALSE(parseMuOpRef({ItemKind::Node, bad}));
  CHECK_FALSE(parseMuOpRef({ItemKind::Value, "3"}));

  const KernelGraph g = testing::flashDecoding(kShape, 2, 2);
  CHECK_THROWS_WITH(muGraphLevel(g, {0}), Catch::Matchers::Contains("0 is not a graph-defined operator"));
  CHECK_THROWS_AS(muGraphLevel(g, {3, 0}), Error);
  CHECK_THROWS_AS(muGraphLevel(g, {9}), Error);
}

TEST_CASE("an operator's details give its maps, what it reads and its shapes", "[view][mugraph]") {
  const KernelGraph g = testing::flashDecoding(kShape, 2, 2);
  CHECK(muOpDetails(g, {{3}, 1}) == "3/1 InputIterator (block level)\n"
                                    "reads parent input #1: k_t [2,4,8] f16\n"
                                    "imap {x→0, y→2}\nfmap {i→2}\n"
                                    "out 0: [1,4,2] f16\n"
                                    "expr 0: k_t");
  CHECK(contains(muOpDetails(g, {{3}, 3}), "expr 0: sum(4,mul(q,k_t))"));
  const std::string kernel = muOpDetails(g, {{}, 3});
  CHECK(contains(kernel, "3 GraphDefined (kernel level)\nbody: block graph, grid [2,2], for-loop [2]"));
  CHECK(contains(kernel, "in  0: q [2,1,4] f16\nin  1: k_t [2,4,8] f16"));
  CHECK(contains(kernel, "out 1: [2,1,2] f16\nexpr 0: "));
  CHECK(contains(kernel, "\nexpr 1: sum("));
  CHECK(contains(muOpDetails(g, {{4}, 3}), "sums every 2 elements of dim 2"));
  CHECK_THROWS_AS(muOpDetails(g, {{}, 12}), Error);
}

TEST_CASE("LoRA's kernel graph is plain operators and an output", "[view][mugraph]") {
  const KernelGraph g = testing::lora({.tokens = 2, .in = 4, .out = 4, .rank = 2});
  const DisplayGraph d = buildMuGraphView(g);
  CHECK(nodesOfType(d, OpType::Matmul).size() == 3);
  CHECK(nodesOfType(d, OpType::GraphDefined).empty());
  CHECK(d.nodes.back().label == "output 0\n[2,4]");
  std::ostringstream dot;
  writeDot(d, dot);
  CHECK(contains(dot.str(), "\"node:0\""));
}
