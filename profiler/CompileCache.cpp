#include "profiler/CompileCache.h"

#include "support/AtomicFile.h"
#include "support/Error.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tcx::gpu {
namespace {

std::string envOrEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

} // namespace

const char* cacheHitName(CacheHit hit) {
  switch (hit) {
  case CacheHit::Miss: return "miss";
  case CacheHit::Memory: return "memory";
  case CacheHit::Disk: return "disk";
  }
  return "?";
}

CompileCache::CompileCache(std::string dir) : dir_(std::move(dir)) {}

std::string CompileCache::cacheRoot() {
  if (std::string root = envOrEmpty("TCX_CACHE_DIR"); !root.empty()) return root;
  if (std::string xdg = envOrEmpty("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/tcx";
  if (std::string home = envOrEmpty("HOME"); !home.empty()) return home + "/.cache/tcx";
  return "";
}

std::string CompileCache::defaultDir() {
  std::string root = cacheRoot();
  return root.empty() ? "" : root + "/nvrtc";
}

std::string CompileCache::pathFor(uint64_t key) const { return fmt::format("{}/{:016x}.cubin", dir_, key); }

std::pair<Cubin, CacheHit> CompileCache::find(uint64_t key) {
  std::lock_guard lock(mutex_);
  if (auto it = memory_.find(key); it != memory_.end()) return {it->second, CacheHit::Memory};
  if (dir_.empty()) return {nullptr, CacheHit::Miss};
  std::ifstream in(pathFor(key), std::ios::binary);
  if (!in) return {nullptr, CacheHit::Miss};
  std::ostringstream bytes;
  bytes << in.rdbuf();
  // Files are written atomically, so an empty one was made by hand: ignore it.
  if (bytes.view().empty()) return {nullptr, CacheHit::Miss};
  auto cubin = std::make_shared<const std::string>(std::move(bytes).str());
  memory_.emplace(key, cubin);
  return {cubin, CacheHit::Disk};
}

void CompileCache::store(uint64_t key, const Cubin& cubin) {
  std::lock_guard lock(mutex_);
  memory_.insert_or_assign(key, cubin);
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  try {
    writeFileAtomically(pathFor(key), *cubin);
  } catch (const Error&) {
    // Read-only or full cache directories only cost a recompile next time.
  }
}

} // namespace tcx::gpu
