#pragma once
// OpDef factories for this family. Most element-wise ops differ only in the
// scalar function they apply, the dtypes they accept and whether they yield
// bool; a factory builds the whole OpDef (dtype checks, broadcasting shape
// inference, the kernel) from those. The scalar function is a generic lambda
// over ComputeType values; ops with attributes pass a `make` that reads the
// attributes once and returns the function (or a std::variant of functions).

#include "ir/Dispatch.h"
#include "ops/Flops.h"
#include "ops/OpDef.h"
#include "ops/elementwise/Map.h"

#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace tcx::elementwise {

// The dtypes an op's operands may have: ONNX's type constraints narrowed to
// tcx's dtypes.
enum class Accepts { Float, Numeric, Bool, Any };
// The result dtype: the operands' own, or bool for tests and comparisons.
enum class Yields { Same, Bool };

// Raises Unsupported unless `accepts` allows dtype `t`.
void checkAccepts(Accepts accepts, DType t);

// Runs f.template operator()<T>() for the storage type T of `t`, raising
// Unsupported for a dtype outside `A`; only the accepted types instantiate f.
template <Accepts A, typename F> decltype(auto) dispatchAccepted(DType t, F&& f) {
  checkAccepts(A, t);
  if constexpr (A == Accepts::Float) {
    return dispatchFloat(t, std::forward<F>(f));
  } else if constexpr (A == Accepts::Bool) {
    return f.template operator()<bool>();
  } else if constexpr (A == Accepts::Any) {
    return dispatchDType(t, std::forward<F>(f));
  } else {
    switch (t) {
    case DType::I64: return f.template operator()<int64_t>();
    case DType::I32: return f.template operator()<int32_t>();
    case DType::I8: return f.template operator()<int8_t>();
    case DType::U8: return f.template operator()<uint8_t>();
    default: return dispatchFloat(t, std::forward<F>(f));
    }
  }
}

template <Yields Y, typename T> using ResultOf = std::conditional_t<Y == Yields::Bool, bool, T>;

// Raises ShapeInference unless inputs i and j have one dtype.
void checkSameDType(const InferContext& ctx, size_t i, size_t j);
// Raises ShapeInference unless input i holds exactly one element (`what`).
void checkSingleElement(const InferContext& ctx, size_t i, const char* what);

// Every input has one dtype that `accepts` allows; the output has
// their broadcast shape and that dtype, or bool.
void inferBroadcast(InferContext& ctx, Accepts accepts, Yields yields);

namespace detail {

template <typename F> struct IsVariant : std::false_type {};
template <typename... F> struct IsVariant<std::variant<F...>> : std::true_type {};

// A `make` may choose among functions by returning a std::variant of them
// (Gelu's two forms, say): each alternative then gets its own loop, rather
// than one loop that branches per element and does not vectorise.
template <typename F, typename Visitor> void visitFunction(F&& f, Visitor&& visitor) {
  if constexpr (IsVariant<std::decay_t<F>>::value)
    std::visit(visitor, f);
  else
    visitor(f);
}

template <int Arity, Accepts A, Yields Y, typename Make>
OpDef mapOp(std::string name, std::vector<AttrSpec> attributes, Make make) {
  OpDef def{.name = std::move(name),
            .opClass = OpClass::Elementwise,
            .minInputs = Arity,
            .maxInputs = Arity,
            .attributes = std::move(attributes)};
  def.flops = flopsPerOutputElement();
  def.infer = [make](InferContext& ctx) {
    inferBroadcast(ctx, A, Y);
    make(ctx.attrs()); // reports bad attribute values at import, not at run time
  };
  def.kernel = [make](KernelContext& ctx) {
    visitFunction(make(ctx.attrs()), [&](auto& f) {
      dispatchAccepted<A>(ctx.input(0).dtype(), [&]<typename T>() {
        if constexpr (Arity == 1)
          mapElements<ResultOf<Y, T>, T>(ctx.output(0), {&ctx.input(0)}, f);
        else
          mapElements<ResultOf<Y, T>, T, T>(ctx.output(0), {&ctx.input(0), &ctx.input(1)}, f);
      });
    });
  };
  return def;
}

template <typename F> auto constantMaker(F f) {
  return [f](const AttrMap&) { return f; };
}

} // namespace detail

// y = f(x).
template <Accepts A, Yields Y = Yields::Same, typename Make>
OpDef unaryOp(std::string name, std::vector<AttrSpec> attributes, Make make) {
  return detail::mapOp<1, A, Y>(std::move(name), std::move(attributes), std::move(make));
}
template <Accepts A, Yields Y = Yields::Same, typename F> OpDef unaryOp(std::string name, F f) {
  return unaryOp<A, Y>(std::move(name), {}, detail::constantMaker(std::move(f)));
}

// c = f(a, b), a and b of one dtype and broadcast.
template <Accepts A, Yields Y = Yields::Same, typename Make>
OpDef binaryOp(std::string name, std::vector<AttrSpec> attributes, Make make) {
  return detail::mapOp<2, A, Y>(std::move(name), std::move(attributes), std::move(make));
}
template <Accepts A, Yields Y = Yields::Same, typename F> OpDef binaryOp(std::string name, F f) {
  return binaryOp<A, Y>(std::move(name), {}, detail::constantMaker(std::move(f)));
}

// y = f(...f(f(x_0, x_1), x_2)..., x_n-1) over any number of broadcast
// inputs, folded into the output in place.
template <Accepts A, typename F> OpDef variadicOp(std::string name, F f) {
  OpDef def{.name = std::move(name), .opClass = OpClass::Elementwise, .minInputs = 1, .maxInputs = OpDef::kVariadic};
  def.flops = flopsPerOutputElement();
  def.infer = [](InferContext& ctx) { inferBroadcast(ctx, A, Yields::Same); };
  def.kernel = [f](KernelContext& ctx) {
    Tensor& out = ctx.output(0);
    dispatchAccepted<A>(ctx.input(0).dtype(), [&]<typename T>() {
      if (ctx.numInputs() == 1) {
        mapElements<T, T>(out, {&ctx.input(0)}, [](auto x) { return x; });
        return;
      }
      mapElements<T, T, T>(out, {&ctx.input(0), &ctx.input(1)}, f);
      for (size_t i = 2; i < ctx.numInputs(); ++i) mapElements<T, T, T>(out, {&out, &ctx.input(i)}, f);
    });
  };
  return def;
}

} // namespace tcx::elementwise
