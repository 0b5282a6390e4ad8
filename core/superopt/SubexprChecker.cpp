#include "superopt/SubexprChecker.h"

#include "superopt/ExprSignature.h"
#include "superopt/SubexprClosure.h"

#include "support/Error.h"

#include <z3++.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tcx::superopt {

namespace {

using Kind = AbstractExpr::Kind;
// Leaves by canonical string: inputs and constants print differently
// (AbstractExpr escapes names), so the string is the leaf's Z3 name too.
using Leaves = std::map<std::string, ExprRef>;

void collectLeaves(const ExprRef& e, Leaves& leaves) {
  if (e->kind() == Kind::Input || e->kind() == Kind::Constant) {
    leaves.emplace(e->str(), e);
    return;
  }
  collectLeaves(e->lhs(), leaves);
  if (e->rhs()) collectLeaves(e->rhs(), leaves);
}

void collectSubterms(const ExprRef& e, std::unordered_set<std::string>& subterms) {
  if (!subterms.insert(e->str()).second) return;
  if (e->lhs()) collectSubterms(e->lhs(), subterms);
  if (e->rhs()) collectSubterms(e->rhs(), subterms);
}

// ceil(log2(size)): sizes multiply when sums nest, their logarithms add.
int sumDegree(int64_t size) { return std::bit_width(static_cast<uint64_t>(size - 1)); }

// One Z3 context with Table 2's axioms and the target's leaf facts asserted;
// a query pushes, asserts what is new about its own leaves, checks, pops.
class Session {
public:
  Session(const ExprRef& target, const Leaves& targetLeaves, const SolverOptions& options)
      : P_(ctx_.uninterpreted_sort("P")), add_(ctx_.function("add", P_, P_, P_)),
        mul_(ctx_.function("mul", P_, P_, P_)), div_(ctx_.function("div", P_, P_, P_)),
        exp_(ctx_.function("exp", P_, P_)), sqrt_(ctx_.function("sqrt", P_, P_)),
        sum_(ctx_.function("sum", ctx_.int_sort(), P_, P_)),
        subexpr_(ctx_.function("subexpr", P_, P_, ctx_.bool_sort())), solver_(ctx_), target_(ctx_) {
    z3::params params(ctx_);
    params.set("mbqi", true);
    params.set("rlimit", options.closure ? options.fallbackResourceLimit : options.resourceLimit);
    params.set("timeout", options.timeoutMs);
    solver_.set(params);
    assertAxioms();
    std::vector<z3::expr> leaves;
    for (const auto& [name, leaf] : targetLeaves) {
      z3::expr l = ctx_.constant(name.c_str(), P_);
      for (const z3::expr& other : leaves) assertUnrelated(l, other);
      leaves.push_back(l);
      targetLeaves_.insert(name);
    }
    target_ = translate(target);
  }

  z3::check_result check(const ExprRef& e) {
    solver_.push();
    Leaves fresh;
    collectLeaves(e, fresh);
    std::erase_if(fresh, [&](const auto& leaf) { return targetLeaves_.count(leaf.first) != 0; });
    std::vector<z3::expr> known;
    for (const std::string& name : targetLeaves_) known.push_back(ctx_.constant(name.c_str(), P_));
    for (const auto& [name, leaf] : fresh) {
      z3::expr l = ctx_.constant(name.c_str(), P_);
      for (const z3::expr& other : known) assertUnrelated(l, other);
      known.push_back(l);
    }
    solver_.add(!subexpr_(translate(e), target_));
    z3::check_result result = solver_.check();
    solver_.pop();
    return result;
  }

private:
  // Distinct leaves: different values, and neither part of the other.
  void assertUnrelated(const z3::expr& a, const z3::expr& b) {
    solver_.add(a != b);
    solver_.add(!subexpr_(a, b));
    solver_.add(!subexpr_(b, a));
  }

  void assertAxioms() {
    z3::expr x = ctx_.constant("x", P_), y = ctx_.constant("y", P_), z = ctx_.constant("z", P_);
    z3::expr i = ctx_.int_const("i"), j = ctx_.int_const("j");
    // A_eq
    solver_.add(z3::forall(x, y, add_(x, y) == add_(y, x)));
    solver_.add(z3::forall(x, y, mul_(x, y) == mul_(y, x)));
    solver_.add(z3::forall(x, y, z, add_(x, add_(y, z)) == add_(add_(x, y), z)));
    solver_.add(z3::forall(x, y, z, mul_(x, mul_(y, z)) == mul_(mul_(x, y), z)));
    solver_.add(z3::forall(x, y, z, add_(mul_(x, z), mul_(y, z)) == mul_(add_(x, y), z)));
    solver_.add(z3::forall(x, y, z, add_(div_(x, z), div_(y, z)) == div_(add_(x, y), z)));
    solver_.add(z3::forall(x, y, z, mul_(x, div_(y, z)) == div_(mul_(x, y), z)));
    solver_.add(z3::forall(x, y, z, div_(div_(x, y), z) == div_(x, mul_(y, z))));
    solver_.add(z3::forall(x, x == sum_(ctx_.int_val(0), x)));
    solver_.add(z3::forall(x, i, j, sum_(i, sum_(j, x)) == sum_(i + j, x)));
    solver_.add(z3::forall(x, y, i, sum_(i, add_(x, y)) == add_(sum_(i, x), sum_(i, y))));
    solver_.add(z3::forall(x, y, i, sum_(i, mul_(x, y)) == mul_(sum_(i, x), y)));
    solver_.add(z3::forall(x, y, i, sum_(i, div_(x, y)) == div_(sum_(i, x), y)));
    // A_sub, with sqrt as one more unary operator
    solver_.add(z3::forall(x, y, subexpr_(x, add_(x, y))));
    solver_.add(z3::forall(x, y, subexpr_(x, mul_(x, y))));
    solver_.add(z3::forall(x, y, subexpr_(x, div_(x, y))));
    solver_.add(z3::forall(x, y, subexpr_(y, div_(x, y))));
    solver_.add(z3::forall(x, subexpr_(x, exp_(x))));
    solver_.add(z3::forall(x, subexpr_(x, sqrt_(x))));
    solver_.add(z3::forall(x, i, subexpr_(x, sum_(i, x))));
    solver_.add(z3::forall(x, subexpr_(x, x)));
    solver_.add(z3::forall(x, y, z, z3::implies(subexpr_(x, y) && subexpr_(y, z), subexpr_(x, z))));
    // A partial sum is part of the whole (see the header). Z3 would trigger
    // it on the whole subexpr(...) atom, which no other axiom builds, and
    // leave it to model-based instantiation; the two sums trigger it instead.
    solver_.add(forallWithPattern({x, i, j}, {sum_(i, x), sum_(j, x)},
                                  z3::implies(i <= j, subexpr_(sum_(i, x), sum_(j, x)))));
  }

  // forall `vars`. `body`, instantiated for the terms matching all of
  // `pattern` at once (a multi-pattern).
  z3::expr forallWithPattern(const std::vector<z3::expr>& vars, const std::vector<z3::expr>& pattern,
                             const z3::expr& body) {
    std::vector<Z3_app> bound;
    for (const z3::expr& v : vars) bound.push_back(Z3_to_app(ctx_, v));
    std::vector<Z3_ast> terms(pattern.begin(), pattern.end());
    Z3_pattern p = Z3_mk_pattern(ctx_, static_cast<unsigned>(terms.size()), terms.data());
    Z3_ast q = Z3_mk_forall_const(ctx_, 0, static_cast<unsigned>(bound.size()), bound.data(), 1, &p, body);
    ctx_.check_error();
    return z3::expr(ctx_, q);
  }

  z3::expr translate(const ExprRef& e) {
    switch (e->kind()) {
    case Kind::Input:
    case Kind::Constant: return ctx_.constant(e->str().c_str(), P_);
    case Kind::Add: return add_(translate(e->lhs()), translate(e->rhs()));
    case Kind::Mul: return mul_(translate(e->lhs()), translate(e->rhs()));
    case Kind::Div: return div_(translate(e->lhs()), translate(e->rhs()));
    case Kind::Exp: return exp_(translate(e->lhs()));
    case Kind::Sqrt: return sqrt_(translate(e->lhs()));
    case Kind::Sum: return sum_(ctx_.int_val(sumDegree(e->size())), translate(e->lhs()));
    }
    raise(ErrorKind::Internal, "unknown abstract expression kind");
  }

  z3::context ctx_;
  z3::sort P_;
  z3::func_decl add_, mul_, div_, exp_, sqrt_, sum_, subexpr_;
  z3::solver solver_;
  z3::expr target_;
  std::set<std::string> targetLeaves_;
};

} // namespace

struct SubexprChecker::Impl {
  Impl(ExprRef t, SolverOptions o) : target(std::move(t)), options(o), signature(target) {
    if (options.closure) closure.emplace(target);
  }

  ExprRef target;
  SolverOptions options;
  Leaves targetLeaves;
  std::unordered_set<std::string> subterms; // of the target, by canonical string

  std::mutex poolMutex;
  std::vector<std::unique_ptr<Session>> idle;

  std::shared_mutex cacheMutex;
  std::unordered_map<std::string, bool> cache;

  ExprSignature signature; // answers most refutations before the solver
  std::optional<SubexprClosure> closure; // and most proofs
  // Counted on every query from every thread: atomics, not the mutex.
  std::atomic<int64_t> queries{0}, subtermHits{0}, cacheHits{0}, signatureRefuted{0}, closureProved{0},
      closureMissed{0};
  mutable std::mutex statsMutex;
  SolverStats stats;

  std::unique_ptr<Session> checkOut() {
    {
      std::lock_guard lock(poolMutex);
      if (!idle.empty()) {
        std::unique_ptr<Session> s = std::move(idle.back());
        idle.pop_back();
        return s;
      }
    }
    return std::make_unique<Session>(target, targetLeaves, options);
  }

  void checkIn(std::unique_ptr<Session> s) {
    std::lock_guard lock(poolMutex);
    idle.push_back(std::move(s));
  }

  bool solve(const ExprRef& e) {
    std::unique_ptr<Session> session = checkOut();
    auto start = std::chrono::steady_clock::now();
    z3::check_result result = session->check(e);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    checkIn(std::move(session));
    std::lock_guard lock(statsMutex);
    ++stats.solverCalls;
    stats.solverSeconds += seconds;
    stats.maxSolverSeconds = std::max(stats.maxSolverSeconds, seconds);
    ++(result == z3::unsat ? stats.proved : result == z3::sat ? stats.refuted : stats.unknown);
    return result == z3::unsat;
  }
};

namespace {
ExprRef checkedTarget(ExprRef target) {
  TCX_CHECK(target, ErrorKind::InvalidArgument, "a subexpression check without a target");
  return target;
}
} // namespace

SubexprChecker::SubexprChecker(ExprRef target, SolverOptions options)
    : impl_(std::make_unique<Impl>(checkedTarget(std::move(target)), options)) {
  collectLeaves(impl_->target, impl_->targetLeaves);
  collectSubterms(impl_->target, impl_->subterms);
}

SubexprChecker::~SubexprChecker() = default;

const ExprRef& SubexprChecker::target() const { return impl_->target; }

bool SubexprChecker::isSubexpr(const ExprRef& e) {
  TCX_CHECK(e, ErrorKind::InvalidArgument, "a subexpression query without an expression");
  Impl& im = *impl_;
  ++im.queries;
  if (im.subterms.count(e->str())) {
    ++im.subtermHits;
    return true;
  }
  {
    std::shared_lock lock(im.cacheMutex);
    if (auto it = im.cache.find(e->str()); it != im.cache.end()) {
      ++im.cacheHits;
      return it->second;
    }
  }
  bool answer = im.signature.admits(e);
  if (!answer) {
    ++im.signatureRefuted;
  } else if (im.closure && im.closure->proves(e)) {
    ++im.closureProved;
  } else if (im.closure && !im.options.z3Fallback) {
    ++im.closureMissed;
    answer = false;
  } else {
    try {
      answer = im.solve(e);
    } catch (const z3::exception& ex) {
      raise(ErrorKind::Internal, "Z3: {}", ex.msg());
    }
  }
  std::unique_lock lock(im.cacheMutex);
  im.cache.emplace(e->str(), answer);
  return answer;
}

SolverStats SubexprChecker::stats() const {
  std::lock_guard lock(impl_->statsMutex);
  SolverStats s = impl_->stats;
  s.queries = impl_->queries;
  s.subtermHits = impl_->subtermHits;
  s.cacheHits = impl_->cacheHits;
  s.signatureRefuted = impl_->signatureRefuted;
  s.closureProved = impl_->closureProved;
  s.closureMissed = impl_->closureMissed;
  return s;
}

} // namespace tcx::superopt
