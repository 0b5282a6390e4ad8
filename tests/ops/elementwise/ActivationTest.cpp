#include "Helpers.h"

using namespace tcx;
using namespace tcx::test;

TEST_CASE("rectifiers: Relu, LeakyRelu, PRelu, ThresholdedRelu", "[elementwise][activation]") {
  requireClose(runOp1("Relu", {f32({4}, {-1, 0, 2, kNaN})}), f32({4}, {0, 0, 2, kNaN}));
  requireClose(runOp1("Relu", {tensor(DType::I32, {2}, {-3, 4})}), tensor(DType::I32, {2}, {0, 4}));
  requireClose(runOp1("LeakyRelu", {f32({2}, {-1, 2})}), f32({2}, {-0.01, 2}));
  requireClose(runOp1("LeakyRelu", {f32({2}, {-1, 2})}, attrs({{"alpha", 0.1f}})), f32({2}, {-0.1, 2}));
  requireClose(runOp1("PRelu", {f32({2, 3}, {-1, -1, -1, 1, -2, 3}), f32({3}, {0.1, 0.2, 0.3})}),
               f32({2, 3}, {-0.1, -0.2, -0.3, 1, -0.4, 3}));
  requireClose(runOp1("PRelu", {i64({2}, {-3, 3}), i64({1}, {2})}), i64({2}, {-6, 3}));
  // The slope broadcasts to the input, not the input to the slope.
  CHECK(errorKind([] {
          runOp1("PRelu", {f32({3}, {1, 2, 3}), f32({2, 3}, {1, 2, 3, 4, 5, 6})});
        }) == ErrorKind::ShapeInference);
  requireClose(runOp1("ThresholdedRelu", {f32({3}, {0.5, 1, 2})}), f32({3}, {0, 0, 2}));
  requireClose(runOp1("ThresholdedRelu", {f32({3}, {0.5, 1, 2})}, attrs({{"alpha", 0.25f}})), f32({3}, {0.5, 1, 2}));
}

TEST_CASE("exponential units: Elu, Selu, Celu", "[elementwise][activation]") {
  requireClose(runOp1("Elu", {f32({2}, {-1, 2})}), f32({2}, {-0.6321206, 2}));
  requireClose(runOp1("Elu", {f32({1}, {-1})}, attrs({{"alpha", 2.0f}})), f32({1}, {-1.2642411}));
  requireClose(runOp1("Selu", {f32({2}, {-1, 2})}), f32({2}, {-1.1113307, 2.1014020}));
  requireClose(runOp1("Selu", {f32({2}, {-1, 2})}, attrs({{"alpha", 2.0f}, {"gamma", 3.0f}})),
               f32({2}, {-3.7927234, 6}));
  requireClose(runOp1("Celu", {f32({2}, {-1, 2})}), f32({2}, {-0.6321206, 2}));
  requireClose(runOp1("Celu", {f32({1}, {-2})}, attrs({{"alpha", 2.0f}})), f32({1}, {-1.2642411}));
}

TEST_CASE("sigmoids: Sigmoid, HardSigmoid, HardSwish, Softplus, Softsign", "[elementwise][activation]") {
  requireClose(runOp1("Sigmoid", {f32({3}, {0, 2, -100})}), f32({3}, {0.5, 0.8807971, 0}));
  requireClose(runOp1("HardSigmoid", {f32({4}, {-3, 0, 1, 3})}), f32({4}, {0, 0.5, 0.7, 1}));
  requireClose(runOp1("HardSigmoid", {f32({2}, {0, 1})}, attrs({{"alpha", 0.5f}, {"beta", 0.25f}})),
               f32({2}, {0.25, 0.75}));
  requireClose(runOp1("HardSwish", {f32({4}, {-4, 0, 1, 4})}), f32({4}, {0, 0, 0.6666667, 4}));
  // Softplus stays finite where exp(x) overflows.
  requireClose(runOp1("Softplus", {f32({4}, {0, 1, 100, -100})}), f32({4}, {0.6931472, 1.3132617, 100, 0}));
  requireClose(runOp1("Softsign", {f32({2}, {1, -3})}), f32({2}, {0.5, -0.75}));
}

TEST_CASE("Gelu (exact and tanh approximation) and Mish", "[elementwise][activation]") {
  Tensor x = f32({2}, {1, -1});
  requireClose(runOp1("Gelu", {x}), f32({2}, {0.8413447, -0.1586553}));
  requireClose(runOp1("Gelu", {x}, attrs({{"approximate", "tanh"}})), f32({2}, {0.8411920, -0.1588080}));
  CHECK(errorKind([&] { runOp1("Gelu", {x}, attrs({{"approximate", "erf"}})); }) == ErrorKind::InvalidModel);
  requireClose(runOp1("Mish", {x}), f32({2}, {0.8650984, -0.3034015}));
  requireClose(runOp1("Gelu", {tensor(DType::BF16, {1}, {1})}), tensor(DType::BF16, {1}, {0.83984375}), 0, 0);
}
