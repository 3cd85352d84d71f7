// UninitializedAllocator: std::vector storage that resize() leaves unwritten.
#pragma once

#include <memory>
#include <new>
#include <type_traits>

namespace closure {

// An allocator whose value-initialisation does nothing (vector::resize leaves the words
// as they are), so that a large matrix is zeroed or filled by several threads, each
// first-touching its own pages: one thread zeroing a 5 GB matrix took longer than
// copying the closure into it (docs/benchmarks-gpu.md, downloads).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  // Only the no-argument form: allocator_traits constructs with arguments itself.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
};

}  // namespace closure
