#include "profiler/DeviceBuffer.h"

#include "ir/Tensor.h"
#include "profiler/CudaError.h"
#include "support/Error.h"

#include <fmt/format.h>

#include <utility>

namespace tcx::gpu {

DeviceBuffer::DeviceBuffer(size_t bytes) : size_(bytes) {
  checkCuda(cudaMalloc(&data_, bytes), fmt::format("cudaMalloc({} bytes)", bytes));
}

DeviceBuffer DeviceBuffer::fromTensor(const Tensor& tensor) {
  DeviceBuffer buffer(tensor.byteSize());
  buffer.upload(tensor);
  return buffer;
}

DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void DeviceBuffer::upload(const void* host, size_t bytes) {
  TCX_CHECK(bytes <= size_, ErrorKind::Internal, "upload of {} bytes into a device buffer of {}", bytes, size_);
  checkCuda(cudaMemcpy(data_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

void DeviceBuffer::upload(const Tensor& tensor) { upload(tensor.raw(), tensor.byteSize()); }

void DeviceBuffer::download(void* host, size_t bytes) const {
  TCX_CHECK(bytes <= size_, ErrorKind::Internal, "download of {} bytes from a device buffer of {}", bytes, size_);
  checkCuda(cudaMemcpy(host, data_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
}

void DeviceBuffer::download(Tensor& tensor) const { download(tensor.raw(), tensor.byteSize()); }

void DeviceBuffer::memset(int value, cudaStream_t stream) {
  checkCuda(cudaMemsetAsync(data_, value, size_, stream), "cudaMemsetAsync");
}

} // namespace tcx::gpu
