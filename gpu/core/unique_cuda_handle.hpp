#pragma once
// UniqueCudaHandle<Handle, destroy>: the owner of a CUDA handle that is an
// opaque pointer (cudaStream_t, cudaEvent_t, cudaLibrary_t,
// cusolverDnHandle_t, cublasHandle_t), given to `destroy` when it goes out of scope;
// move-only, null after a move. std::unique_ptr does the owning. The status
// `destroy` returns is not checked: a destructor cannot report it, and it
// only repeats an earlier asynchronous error that a check has thrown.
// Usable from .cu and .cpp files.
#include <memory>
#include <type_traits>

namespace geobem {

namespace detail {

template <auto destroy>
struct HandleDestroyer {
  template <class Handle>
  void operator()(Handle handle) const noexcept {
    destroy(handle);
  }
};

}  // namespace detail

template <class Handle, auto destroy>
using UniqueCudaHandle = std::unique_ptr<std::remove_pointer_t<Handle>, detail::HandleDestroyer<destroy>>;

}  // namespace geobem
