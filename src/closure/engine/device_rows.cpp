// DeviceRows: queries and downloads of the propagation's rows where they are.
#include "closure/engine/device_rows.hpp"

#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/ocl/error.hpp"

namespace closure {

DeviceRows::DeviceRows(ocl::Runtime& rt, cl::Program program, size_t components,
                       std::vector<DeviceSlice> slices, uint64_t cross_pairs, std::string where)
    : context_(rt.context()),
      queue_(rt.queue()),
      program_(std::move(program)),
      components_(components),
      slices_(std::move(slices)),
      cross_pairs_(cross_pairs),
      where_(std::move(where)) {}

DeviceRows::DeviceRows(size_t components, BitMatrix host, bool kept, uint64_t cross_pairs,
                       std::string where)
    : components_(components),
      cross_pairs_(cross_pairs),
      where_(std::move(where)),
      host_(std::move(host)),
      downloaded_(kept),
      counted_only_(!kept) {}

size_t DeviceRows::host_bytes() const {
  std::lock_guard lock(mutex_);
  return downloaded_ ? host_.bytes() : 0;
}

bool DeviceRows::reaches(vertex_t c, vertex_t d) const {
  if (const BitMatrix* h = host_if_present()) return h->get(c, d);
  const DeviceSlice& s = slice_of(d);
  word_t w = 0;
  ocl::checked("reading the closure on the device", [&] {
    queue_.enqueueReadBuffer(s.rows, CL_TRUE,
                             (size_t(c) * s.words + (word_of(d) - s.word_begin)) * sizeof(word_t),
                             sizeof w, &w);
  });
  return (w & bit_mask(d)) != 0;
}

void DeviceRows::reaches_many(std::span<const std::pair<vertex_t, vertex_t>> pairs,
                              std::span<uint8_t> out) const {
  if (const BitMatrix* h = host_if_present()) {
    for (size_t i = 0; i < pairs.size(); ++i) out[i] = h->get(pairs[i].first, pairs[i].second);
    return;
  }
  // One launch per slice over the pairs whose column lies in it.
  for (const DeviceSlice& s : slices_) {
    std::vector<size_t> where;
    for (size_t i = 0; i < pairs.size(); ++i)
      if (s.holds_word(word_of(pairs[i].second))) where.push_back(i);
    if (!where.empty())
      ocl::checked("asking the closure on the device", [&] { query_slice(s, pairs, where, out); });
  }
}

void DeviceRows::query_slice(const DeviceSlice& s,
                             std::span<const std::pair<vertex_t, vertex_t>> pairs,
                             const std::vector<size_t>& where, std::span<uint8_t> out) const {
  std::vector<uint32_t> flat;
  flat.reserve(2 * where.size());
  for (size_t i : where) {
    flat.push_back(pairs[i].first);
    flat.push_back(pairs[i].second);
  }
  cl::Buffer in(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, flat.size() * sizeof(uint32_t),
                flat.data());
  cl::Buffer answers(context_, CL_MEM_WRITE_ONLY, where.size());
  std::vector<uint8_t> got(where.size());
  {
    std::lock_guard lock(mutex_);  // one kernel object, its arguments set per launch
    if (!query_()) query_ = cl::Kernel(program_, "query_pairs");
    query_.setArg(0, s.rows);
    query_.setArg(1, cl_uint(s.word_begin));
    query_.setArg(2, cl_uint(s.words));
    query_.setArg(3, in);
    query_.setArg(4, cl_uint(where.size()));
    query_.setArg(5, answers);
    queue_.enqueueNDRangeKernel(query_, cl::NullRange, cl::NDRange(round_up(where.size(), 64)),
                                cl::NDRange(64));
  }
  queue_.enqueueReadBuffer(answers, CL_TRUE, 0, got.size(), got.data());
  for (size_t k = 0; k < where.size(); ++k) out[where[k]] = got[k];
}

BitMatrix DeviceRows::host_columns(uint32_t word_begin, uint32_t word_end) const {
  BitMatrix m(components_, bits_in_words(word_end - word_begin), {}, WordOrder::kRowMajor);
  if (const BitMatrix* h = host_if_present()) {
    for (size_t r = 0; r < components_; ++r)
      for (uint32_t w = word_begin; w < word_end && w < h->words_padded(); ++w)
        m.set_word(r, w - word_begin, h->word(r, w));
    return m;
  }
  std::lock_guard lock(mutex_);
  for (const DeviceSlice& s : slices_)
    if (s.word_begin >= word_begin && s.word_begin + s.words <= word_end)
      ocl::checked("reading the closure from the device",
                   [&] { download_slice(context_, queue_, s, components_, m, word_begin); });
    else if (s.word_begin < word_end && s.word_begin + s.words > word_begin)
      throw InternalError("host_columns: a range that cuts a device slice");
  return m;
}

const BitMatrix& DeviceRows::host_rows() const {
  std::lock_guard lock(mutex_);
  if (counted_only_)
    throw UsageError(
        "the closure (" + where_ +
        ") was larger than the device and only counted; ask for its rows before computing it "
        "(an output or verification does)");
  if (!downloaded_) {
    // When the slices cover every word (one process), nothing needs zeroing first; a
    // rank's range leaves the other columns zero.
    size_t covered = 0;
    for (const DeviceSlice& s : slices_) covered += s.words;
    BitMatrix m = covered == words_for_bits(components_)
                      ? BitMatrix::unfilled(components_, components_, {}, WordOrder::kRowMajor)
                      : BitMatrix(components_, components_, {}, WordOrder::kRowMajor);
    ocl::checked("reading the closure from the device", [&] {
      for (const DeviceSlice& s : slices_) download_slice(context_, queue_, s, components_, m);
    });
    host_ = std::move(m);
    downloaded_ = true;
  }
  return host_;
}

const BitMatrix* DeviceRows::host_if_present() const {
  std::lock_guard lock(mutex_);
  if (counted_only_) throw UsageError("the closure (" + where_ + ") was only counted");
  return downloaded_ ? &host_ : nullptr;
}

const DeviceSlice& DeviceRows::slice_of(vertex_t d) const {
  for (const DeviceSlice& s : slices_)
    if (s.holds_word(word_of(d))) return s;
  throw InternalError("DeviceRows: column out of range");
}

}  // namespace closure
