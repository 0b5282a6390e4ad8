// The IR's mutation API (ir/Graph.h), checked through what a pass can observe
// afterwards: use lists, producers, graph inputs and outputs, node order and
// names. Every pass builds on these invariants, so each mutation is tested
// alone, including the calls that must refuse.
#include "ops/OpRegistry.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace tcx;

namespace {

const TensorType kVec{DType::F32, {4}};

std::vector<std::string> names(const std::vector<Node*>& nodes) {
  std::vector<std::string> out;
  for (const Node* n : nodes) out.push_back(n->name());
  return out;
}

} // namespace

TEST_CASE("addInput marks a typed graph input and refuses a second definition", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  CHECK(x->name() == "x");
  CHECK(x->type() == kVec);
  CHECK(x->hasType());
  CHECK(x->isGraphInput());
  CHECK_FALSE(x->isGraphOutput());
  CHECK_FALSE(x->isConstant());
  CHECK(x->producer() == nullptr);
  CHECK(x->uses().empty());
  CHECK(g.inputs() == std::vector<Value*>{x});
  CHECK(g.findValue("x") == x);

  try {
    g.addInput("x", kVec);
    FAIL("a second input 'x' was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::InvalidModel);
    CHECK_THAT(std::string(e.what()), Catch::Contains("'x'"));
  }
  g.addConstant("c", Tensor::scalar<float>(1.0f));
  CHECK_THROWS_WITH(g.addInput("c", kVec), Catch::Contains("defined twice"));
  CHECK(g.inputs().size() == 1);
}

TEST_CASE("addConstant carries its tensor and renames a clashing name", "[unit][graph]") {
  Graph g;
  Tensor t = Tensor::fromVector<int64_t>({2}, {3, 4});
  Value* c = g.addConstant("shape", t);
  CHECK(c->isConstant());
  CHECK(c->constant().identicalTo(t));
  CHECK(c->type() == TensorType{DType::I64, {2}});
  CHECK(c->hasType());
  CHECK_FALSE(c->isGraphInput());
  CHECK(g.inputs().empty());

  Value* again = g.addConstant("shape", Tensor::scalar<int64_t>(7));
  CHECK(again != c);
  CHECK(again->name() != "shape");
  CHECK(again->name().starts_with("shape_"));
  CHECK(g.findValue("shape") == c);
  CHECK(g.findValue(again->name()) == again);
  CHECK(g.values().size() == 2);
}

TEST_CASE("addNode records producers, use lists and omitted operands", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Value* y = g.addInput("y", kVec);
  Node* add = addNode(g, "Add", {x, y}, {"sum"});
  CHECK(add->opType() == "Add");
  CHECK(&add->op() == OpRegistry::instance().find("Add"));
  CHECK(add->name() == "Add_0"); // the default name: op and position
  REQUIRE(add->numOutputs() == 1);
  Value* sum = add->output(0);
  CHECK(sum->name() == "sum");
  CHECK(sum->producer() == add);
  CHECK(sum->producerResult() == 0);
  CHECK_FALSE(sum->hasType()); // types come from inference, not from addNode
  CHECK(x->uses() == std::vector<Use>{{add, 0}});
  CHECK(y->uses() == std::vector<Use>{{add, 1}});

  SECTION("a value used twice by one node has one use per operand") {
    Node* sq = addNode(g, "Mul", {sum, sum}, {"sq"}, {}, "square");
    CHECK(sq->name() == "square");
    CHECK(g.findNode("square") == sq);
    CHECK(sum->uses() == std::vector<Use>{{sq, 0}, {sq, 1}});
  }
  SECTION("results take unique names; an empty name takes the node's") {
    Node* split = addNode(g, "Split", {sum}, {"sum", ""}, AttrMap{}, "halves");
    REQUIRE(split->numOutputs() == 2);
    CHECK(split->output(0)->name() != "sum");
    CHECK(g.findValue("sum") == sum);
    CHECK(split->output(1)->name() == "halves");
    CHECK(split->output(1)->producerResult() == 1);
    CHECK(g.findValue("halves") == split->output(1));
  }
  SECTION("an omitted optional operand is a null input with no use") {
    Node* clip = addNode(g, "Clip", {sum, nullptr, nullptr}, {"clipped"});
    CHECK(clip->numInputs() == 3);
    CHECK(clip->input(0) == sum);
    CHECK(clip->input(1) == nullptr);
    CHECK(clip->input(2) == nullptr);
    CHECK(clip->input(7) == nullptr); // past the end reads as omitted too
    CHECK(sum->uses() == std::vector<Use>{{clip, 0}});
  }
  SECTION("an op outside the registry is Unsupported, naming op and node, and adds nothing") {
    try {
      addNode(g, "NoSuchOp", {x}, {"z"}, {}, "mystery");
      FAIL("an unknown op was accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Unsupported);
      CHECK_THAT(std::string(e.what()), Catch::Contains("NoSuchOp") && Catch::Contains("mystery"));
    }
    CHECK(g.numNodes() == 1);
    CHECK(g.findValue("z") == nullptr);
    CHECK(x->uses().size() == 1);
  }
}

TEST_CASE("Node::setInput moves the use from the old operand to the new", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Value* y = g.addInput("y", kVec);
  Node* add = addNode(g, "Add", {x, x}, {"sum"});
  REQUIRE(x->uses().size() == 2);

  add->setInput(1, y);
  CHECK(add->input(1) == y);
  CHECK(x->uses() == std::vector<Use>{{add, 0}});
  CHECK(y->uses() == std::vector<Use>{{add, 1}});

  add->setInput(0, nullptr);
  CHECK(add->input(0) == nullptr);
  CHECK(x->uses().empty());

  // Past the end: the operands in between are padded as omitted.
  add->setInput(3, x);
  CHECK(add->numInputs() == 4);
  CHECK(add->input(2) == nullptr);
  CHECK(x->uses() == std::vector<Use>{{add, 3}});
}

TEST_CASE("markOutput lists a value once, and setOutputs replaces the list and the marks", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Value* a = addNode(g, "Relu", {x}, {"a"})->output(0);
  Value* b = addNode(g, "Neg", {x}, {"b"})->output(0);
  g.markOutput(a);
  g.markOutput(b);
  g.markOutput(a);
  CHECK(g.outputs() == std::vector<Value*>{a, b});
  CHECK(a->isGraphOutput());

  g.setOutputs({b, x});
  CHECK(g.outputs() == std::vector<Value*>{b, x});
  CHECK_FALSE(a->isGraphOutput());
  CHECK(b->isGraphOutput());
  CHECK(x->isGraphOutput());
  CHECK(x->isGraphInput()); // an input passed straight through stays an input

  g.setOutputs({});
  CHECK(g.outputs().empty());
  CHECK_FALSE(b->isGraphOutput());
}

TEST_CASE("replaceAllUsesWith redirects every use and the graph-output mark", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Value* y = g.addInput("y", kVec);
  Node* relu = addNode(g, "Relu", {x}, {"r"});
  Value* r = relu->output(0);
  Node* add = addNode(g, "Add", {r, r}, {"sum"});
  Node* neg = addNode(g, "Neg", {r}, {"n"});
  g.setOutputs({add->output(0), r, neg->output(0)});

  g.replaceAllUsesWith(r, y);
  CHECK(r->uses().empty());
  CHECK(add->input(0) == y);
  CHECK(add->input(1) == y);
  CHECK(neg->input(0) == y);
  CHECK(y->uses() == std::vector<Use>{{add, 0}, {add, 1}, {neg, 0}});
  // The output keeps its position in the list.
  CHECK(g.outputs() == std::vector<Value*>{add->output(0), y, neg->output(0)});
  CHECK_FALSE(r->isGraphOutput());
  CHECK(y->isGraphOutput());
  CHECK(r->producer() == relu); // the old value still exists, now unused

  g.replaceAllUsesWith(y, y);
  CHECK(y->uses().size() == 3);
  CHECK(y->isGraphOutput());
}

TEST_CASE("eraseNode detaches an unused node and refuses one whose result is live", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Node* relu = addNode(g, "Relu", {x}, {"r"});
  Node* neg = addNode(g, "Neg", {relu->output(0)}, {"n"});
  Value* r = relu->output(0);
  Value* n = neg->output(0);
  g.markOutput(n);

  SECTION("a used result") {
    try {
      g.eraseNode(relu);
      FAIL("a node with a used result was erased");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Internal);
      CHECK_THAT(std::string(e.what()), Catch::Contains("'r'") && Catch::Contains("Relu"));
    }
    CHECK(g.numNodes() == 2);
    CHECK(x->uses() == std::vector<Use>{{relu, 0}});
    CHECK(r->uses() == std::vector<Use>{{neg, 0}});
  }
  SECTION("a graph output") {
    CHECK_THROWS_AS(g.eraseNode(neg), Error);
    CHECK(g.numNodes() == 2);
    CHECK(n->producer() == neg);
  }
  SECTION("an unused node, then its now-unused producer") {
    g.setOutputs({r});
    g.eraseNode(neg);
    CHECK(g.numNodes() == 1);
    CHECK(g.findNode(neg->name()) == nullptr);
    CHECK(r->uses().empty());
    CHECK(n->producer() == nullptr);

    g.setOutputs({});
    g.eraseNode(relu);
    CHECK(g.numNodes() == 0);
    CHECK(x->uses().empty());
    CHECK(r->producer() == nullptr);

    // The results stay until eraseUnusedValues drops them; inputs stay.
    CHECK(g.findValue("r") == r);
    g.addConstant("unused", Tensor::scalar<float>(0));
    g.eraseUnusedValues();
    CHECK(g.findValue("r") == nullptr);
    CHECK(g.findValue("n") == nullptr);
    CHECK(g.findValue("unused") == nullptr);
    CHECK(g.values() == std::vector<Value*>{x});
  }
}

TEST_CASE("eraseUnusedValues keeps what is produced, used, an input or an output", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Value* unusedInput = g.addInput("unused_input", kVec);
  Value* c = g.addConstant("c", Tensor::filled(DType::F32, {4}, 2.0));
  g.addConstant("dead", Tensor::filled(DType::F32, {4}, 3.0));
  Value* passThrough = g.addConstant("through", Tensor::filled(DType::F32, {4}, 4.0));
  Value* m = addNode(g, "Mul", {x, c}, {"m"})->output(0);
  Value* unusedResult = addNode(g, "Relu", {x}, {"unused_result"})->output(0);
  g.setOutputs({m, passThrough});

  g.eraseUnusedValues();
  CHECK(g.findValue("dead") == nullptr);
  CHECK(g.values() == std::vector<Value*>{x, unusedInput, c, passThrough, m, unusedResult});
}

TEST_CASE("setType, markTyped and setConstant type a value in place", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Node* relu = addNode(g, "Relu", {x}, {"y"});
  Value* y = relu->output(0);
  y->setType(kVec);
  CHECK(y->type() == kVec);
  CHECK_FALSE(y->hasType()); // only markTyped records that inference typed it
  y->markTyped();
  CHECK(y->hasType());

  // Folding turns a result into a constant: it keeps its producer until the
  // pass erases the node.
  Tensor folded = Tensor::fromVector<int32_t>({2}, {1, 2});
  y->setConstant(folded);
  CHECK(y->isConstant());
  CHECK(y->constant().identicalTo(folded));
  CHECK(y->type() == TensorType{DType::I32, {2}});
  CHECK(y->producer() == relu);
}

TEST_CASE("topologicalSort orders producers first, stably, and names a cycle", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  // Built consumer first: "late" reads a value that "early" defines later.
  Node* late = addNode(g, "Neg", {x}, {"late_out"}, {}, "late");
  addNode(g, "Abs", {x}, {"abs_out"}, {}, "independent");
  Node* early = addNode(g, "Relu", {x}, {"early_out"}, {}, "early");
  late->setInput(0, early->output(0));
  CHECK(names(g.nodes()) == std::vector<std::string>{"late", "independent", "early"});

  g.topologicalSort();
  // Ready nodes keep their relative order: only "late" moves.
  CHECK(names(g.nodes()) == std::vector<std::string>{"independent", "early", "late"});
  g.topologicalSort();
  CHECK(names(g.nodes()) == std::vector<std::string>{"independent", "early", "late"});

  SECTION("a cycle raises InvalidModel naming its nodes and leaves the graph whole") {
    early->setInput(0, late->output(0));
    try {
      g.topologicalSort();
      FAIL("a cycle was sorted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::InvalidModel);
      std::string what = e.what();
      CHECK_THAT(what, Catch::Contains("cycle"));
      CHECK_THAT(what, Catch::Contains("'early'") && Catch::Contains("'late'"));
      CHECK_THAT(what, !Catch::Contains("'independent'"));
    }
    CHECK(names(g.nodes()) == std::vector<std::string>{"independent", "early", "late"});
    CHECK(late->output(0)->uses() == std::vector<Use>{{early, 0}});
  }
  SECTION("a node that reads its own result is a cycle") {
    Node* self = addNode(g, "Add", {x, x}, {"self_out"}, {}, "self");
    self->setInput(1, self->output(0));
    CHECK_THROWS_WITH(g.topologicalSort(), Catch::Contains("'self'"));
    CHECK(g.numNodes() == 4);
  }
}

TEST_CASE("a long cycle's message lists five nodes and counts the rest", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  std::vector<Node*> ring;
  for (int i = 0; i < 7; ++i) ring.push_back(addNode(g, "Relu", {x}, {fmt::format("r{}", i)}));
  for (size_t i = 0; i < ring.size(); ++i) ring[i]->setInput(0, ring[(i + 1) % ring.size()]->output(0));
  CHECK_THROWS_WITH(g.topologicalSort(), Catch::Contains("and 2 more"));
  CHECK(g.numNodes() == 7);
}

TEST_CASE("uniqueValueName never returns a name in use", "[unit][graph]") {
  Graph g;
  g.addInput("v_0", kVec);
  std::string a = g.uniqueValueName("v");
  CHECK(a != "v_0");
  CHECK(a.starts_with("v_"));
  CHECK(g.findValue(a) == nullptr);
  std::string b = g.uniqueValueName("v");
  CHECK(b != a); // names handed out are not reused, even before a value takes them
  CHECK(g.uniqueValueName("").starts_with("t_"));
}

TEST_CASE("findValue and findNode answer null for unknown names", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Node* n = addNode(g, "Relu", {x}, {"y"}, {}, "relu");
  CHECK(g.findValue("x") == x);
  CHECK(g.findValue("y") == n->output(0));
  CHECK(g.findNode("relu") == n);
  CHECK(g.findValue("relu") == nullptr);
  CHECK(g.findNode("y") == nullptr);
  CHECK(g.findValue("") == nullptr);
}

TEST_CASE("a moved graph keeps its values, nodes and use lists", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Node* n = addNode(g, "Relu", {x}, {"y"});
  g.markOutput(n->output(0));
  Graph moved = std::move(g);
  CHECK(moved.findValue("x") == x);
  CHECK(moved.nodes() == std::vector<Node*>{n});
  CHECK(x->uses() == std::vector<Use>{{n, 0}});
  CHECK(moved.outputs() == std::vector<Value*>{n->output(0)});
}

TEST_CASE("node names stay unique: after an erase, and when a name is given twice", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Node* first = addNode(g, "Relu", {x}, {"r0"});
  Node* second = addNode(g, "Relu", {x}, {"r1"});
  CHECK(first->name() != second->name());
  const std::string secondName = second->name();
  g.eraseNode(first);
  Node* third = addNode(g, "Relu", {x}, {"r2"});
  CHECK(third->name() != secondName);
  CHECK(g.findNode(secondName) == second);
  CHECK(g.findNode(third->name()) == third);

  Node* named = addNode(g, "Abs", {x}, {"a0"}, {}, "same");
  Node* again = addNode(g, "Abs", {x}, {"a1"}, {}, "same");
  CHECK(named->name() == "same");
  CHECK(again->name() != "same");
  CHECK(again->name().starts_with("same_"));
  CHECK(g.findNode("same") == named);
}

TEST_CASE("replacing one graph output by another lists it once", "[unit][graph]") {
  Graph g;
  Value* x = g.addInput("x", kVec);
  Value* a = addNode(g, "Relu", {x}, {"a"})->output(0);
  Value* b = addNode(g, "Abs", {x}, {"b"})->output(0);
  g.setOutputs({a, b});
  g.replaceAllUsesWith(a, b);
  CHECK(g.outputs() == std::vector<Value*>{b});
  CHECK(b->isGraphOutput());
  CHECK_FALSE(a->isGraphOutput());
}

TEST_CASE("erasing a node of another graph is an error that changes neither", "[unit][graph]") {
  Graph g, other;
  Value* x = g.addInput("x", kVec);
  Node* relu = addNode(g, "Relu", {x}, {"r"});
  Value* y = other.addInput("y", kVec);
  addNode(other, "Relu", {y}, {"s"});
  CHECK_THROWS_AS(other.eraseNode(relu), Error);
  CHECK(g.numNodes() == 1);
  CHECK(other.numNodes() == 1);
  CHECK(x->uses().size() == 1);
}
