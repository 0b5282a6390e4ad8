#pragma once
// Compiled cubins kept in memory and on disk, keyed by a content hash of
// everything that determines the bytes (source, headers, options, target
// architecture, compiler version), so that a re-run of the same plan skips
// NVRTC entirely. A 64-bit FNV-1a key is collision-safe enough for a cache
// of generated kernels; a stale file can always be deleted.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tcx::gpu {

enum class CacheHit { Miss, Memory, Disk };
const char* cacheHitName(CacheHit hit); // "miss", "memory", "disk"

using Cubin = std::shared_ptr<const std::string>;

class CompileCache {
public:
  // `dir` holds the files ("" keeps the cache in memory only); created on
  // first store.
  explicit CompileCache(std::string dir);

  // cacheRoot()/nvrtc, or "" (memory only).
  static std::string defaultDir();
  // Where tcx keeps what it may recompute: $TCX_CACHE_DIR, else
  // $XDG_CACHE_HOME/tcx, else ~/.cache/tcx; "" when none of them is set.
  static std::string cacheRoot();

  // The cubin stored under `key` and where it was found; nullptr and Miss
  // when it is in neither tier. A disk hit is kept in memory too.
  std::pair<Cubin, CacheHit> find(uint64_t key);
  // Keeps `cubin` in memory and writes it to disk atomically. A disk that
  // cannot be written costs only a later recompile, so that is not an error.
  void store(uint64_t key, const Cubin& cubin);

  const std::string& dir() const { return dir_; }
  std::string pathFor(uint64_t key) const;

private:
  std::string dir_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, Cubin> memory_;
};

} // namespace tcx::gpu
