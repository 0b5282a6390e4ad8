#include "profiler/VendorSelection.h"

#include "profiler/CompileCache.h"
#include "profiler/GpuDevice.h"
#include "support/AtomicFile.h"
#include "support/Error.h"
#include "support/Hash.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <limits>

namespace tcx::gpu {

TimerOptions vendorSelectionTimer() { return {.warmup = 2, .repetitions = 7, .flushL2 = true}; }

VendorChoiceCache::VendorChoiceCache() {
  if (std::string root = CompileCache::cacheRoot(); !root.empty()) dir_ = root + "/vendor";
}

std::string VendorChoiceCache::pathFor(const std::string& key) const {
  // How a choice is measured is part of what it depends on: choices cached
  // before cuDNN's first kTimedAlgorithms were timed kept cudnnFind's first,
  // those before a 1x1 convolution was also timed as a GEMM lack it, and
  // those before kVendorMargin took the library at any gain.
  return fmt::format("{}/{:016x}.txt", dir_,
                     fnv1a(fmt::format("{}\ntimed algorithms {} and a 1x1 convolution as a gemm, margin {}\n{}",
                                       gpuInfo().describe(), kTimedAlgorithms, kVendorMargin, key)));
}

std::optional<VendorChoice> VendorChoiceCache::find(const std::string& key) {
  if (dir_.empty()) return std::nullopt;
  std::ifstream in(pathFor(key));
  std::string form;
  VendorChoice choice;
  if (!(in >> form >> choice.algorithm.algorithm >> choice.algorithm.mathType >> choice.generatedUs >>
        choice.vendorUs) ||
      (form != "vendor" && form != "generated"))
    return std::nullopt;
  choice.vendor = form == "vendor";
  choice.cached = true;
  return choice;
}

void VendorChoiceCache::store(const std::string& key, const VendorChoice& choice) {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  try {
    writeFileAtomically(pathFor(key), fmt::format("{} {} {} {:.3f} {:.3f}\n", choice.vendor ? "vendor" : "generated",
                                                  choice.algorithm.algorithm, choice.algorithm.mathType,
                                                  choice.generatedUs, choice.vendorUs));
  } catch (const Error&) {
  }
}

bool preferVendor(double vendorUs, double generatedUs) { return vendorUs * (1 + kVendorMargin) < generatedUs; }

VendorChoice measureVendorChoice(KernelTimer& timer, const std::function<void(cudaStream_t)>& generated,
                                 const std::function<void(cudaStream_t)>& vendor, PreparedVendorCall& call) {
  VendorChoice choice;
  choice.generatedUs = timer.time(generated).total.medianUs;
  choice.vendorUs = std::numeric_limits<double>::infinity();
  for (const VendorAlgorithm& algorithm : call.candidates(kTimedAlgorithms)) {
    call.use(algorithm);
    if (const double us = timer.time(vendor).total.medianUs; us < choice.vendorUs) {
      choice.vendorUs = us;
      choice.algorithm = algorithm;
    }
  }
  call.use(choice.algorithm);
  choice.vendor = preferVendor(choice.vendorUs, choice.generatedUs);
  return choice;
}

} // namespace tcx::gpu
