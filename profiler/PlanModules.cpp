#include "profiler/PlanModules.h"

#include "support/Error.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

namespace tcx::gpu {

namespace {

CompileOptions partOptions(const std::vector<int>& kernels) {
  CompileOptions options;
  options.programName = "tcx_plan.cu";
  options.extraOptions.push_back("-DTCX_PART");
  for (int k : kernels) options.extraOptions.push_back("-DTCX_KERNEL_" + std::to_string(k));
  return options;
}

} // namespace

std::vector<std::vector<int>> PlanModules::partition(const GeneratedPlan& code, unsigned parts) {
  const std::vector<int>& cost = code.compileCost;
  std::vector<int> order;
  for (size_t k = 0; k < cost.size(); ++k)
    if (cost[k] > 0) order.push_back(static_cast<int>(k));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost[a] > cost[b]; });
  const size_t count = std::clamp<size_t>(parts, 1, std::max<size_t>(order.size(), 1));
  std::vector<std::vector<int>> result(count);
  std::vector<int64_t> load(count, 0);
  for (int k : order) {
    const size_t least = std::min_element(load.begin(), load.end()) - load.begin();
    result[least].push_back(k);
    load[least] += cost[k];
  }
  for (std::vector<int>& part : result) std::sort(part.begin(), part.end());
  std::erase_if(result, [](const std::vector<int>& part) { return part.empty(); });
  return result;
}

PlanModules::PlanModules(const GeneratedPlan& code, NvrtcCompiler& compiler, unsigned maxParts) : code_(code) {
  const auto start = std::chrono::steady_clock::now();
  const unsigned threads = maxParts ? maxParts : std::max(1u, std::thread::hardware_concurrency());
  const std::vector<std::vector<int>> parts = partition(code, threads);
  std::vector<CompileResult> results(parts.size());
  std::vector<std::exception_ptr> failures(parts.size());
  std::vector<double> partMs(parts.size(), 0);
  {
    std::vector<std::jthread> workers;
    for (size_t p = 0; p < parts.size(); ++p)
      workers.emplace_back([&, p] {
        const auto partStart = std::chrono::steady_clock::now();
        try {
          results[p] = compiler.compile(code.source, partOptions(parts[p]));
        } catch (...) {
          failures[p] = std::current_exception();
        }
        partMs[p] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - partStart).count();
      });
  }
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);

  std::vector<int> partOf(code.kernelSpans.size(), -1);
  for (size_t p = 0; p < parts.size(); ++p) {
    modules_.push_back(std::make_unique<CudaModule>(*results[p].cubin));
    for (int k : parts[p]) partOf[k] = static_cast<int>(p);
    compiled_.cached += results[p].cache != CacheHit::Miss;
  }
  for (const GeneratedLaunch& l : code.launches) launches_.push_back(entry(l, partOf));
  for (const VendorAlternative& a : code.vendorAlternatives) {
    epilogues_.push_back(entry(a.epilogue, partOf));
    preludes_.push_back(a.prelude ? entry(*a.prelude, partOf) : Entry{});
  }
  compiled_.parts = parts.size();
  compiled_.slowestPartMs = partMs.empty() ? 0 : *std::max_element(partMs.begin(), partMs.end());
  compiled_.compileMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

PlanModules::Entry PlanModules::entry(const GeneratedLaunch& l, const std::vector<int>& partOf) const {
  const int p = partOf.at(code_.codeKernel.at(l.planKernel));
  TCX_CHECK(p >= 0, ErrorKind::Internal, "launch '{}' belongs to plan kernel {}, which has no code", l.entry,
            l.planKernel);
  CudaModule* module = modules_[p].get();
  return {module, module->kernel(l.entry)};
}

void PlanModules::launchAt(const Entry& entry, const GeneratedLaunch& l, void** args, cudaStream_t stream,
                           LaunchOrder order) {
  entry.module->launch(entry.kernel, dim3(l.grid[0], l.grid[1], l.grid[2]), dim3(l.block[0], l.block[1], l.block[2]),
                       l.sharedBytes, args, stream, order);
}

void PlanModules::launch(size_t i, void** args, cudaStream_t stream, LaunchOrder order) {
  launchAt(launches_[i], code_.launches[i], args, stream, order);
}

void PlanModules::launchEpilogue(size_t a, void** args, cudaStream_t stream, LaunchOrder order) {
  launchAt(epilogues_[a], code_.vendorAlternatives[a].epilogue, args, stream, order);
}

void PlanModules::launchPrelude(size_t a, void** args, cudaStream_t stream, LaunchOrder order) {
  launchAt(preludes_[a], code_.vendorAlternatives[a].prelude.value(), args, stream, order);
}

} // namespace tcx::gpu
