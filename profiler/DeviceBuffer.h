#pragma once
// Bytes in device memory, owned: cudaMalloc'd on construction, freed on
// destruction. Copies to and from the host are synchronous (they are for
// inputs and results, not for the timed path); memset is enqueued on a
// stream.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tcx {
class Tensor;
}

namespace tcx::gpu {

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  // Raises Internal (with the size) when the allocation fails.
  explicit DeviceBuffer(size_t bytes);
  // A buffer holding a copy of `tensor`'s data.
  static DeviceBuffer fromTensor(const Tensor& tensor);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;

  void* data() const { return data_; }
  size_t size() const { return size_; }

  // Copies `bytes` from `host` to the start of the buffer (at most size()).
  void upload(const void* host, size_t bytes);
  void upload(const Tensor& tensor);
  // Copies the first `bytes` of the buffer to `host`.
  void download(void* host, size_t bytes) const;
  // Fills `tensor` (its type decides how many bytes) from the buffer.
  void download(Tensor& tensor) const;
  // Sets every byte to `value`, in order on `stream`.
  void memset(int value, cudaStream_t stream = nullptr);

private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

} // namespace tcx::gpu
