// Writing, reading and checking index files.
#include "closure/reach/index_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

#include "closure/io/atomic_file.hpp"
#include "closure/reach/index_layer.hpp"
#include "closure/reach/name_table.hpp"
#include "closure/util/huge_pages.hpp"

namespace closure::reach {

namespace {

constexpr uint32_t kIdentityLabels = 1;
constexpr uint32_t kHasLayer = 2;  // a living index's layer follows (version 4)

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;
  uint64_t vertices, components, edges;
  uint32_t supportive, flags;
  uint64_t label_bytes;
  uint64_t file_bytes;
  uint64_t checksum;
  uint64_t name_seed;    // name_table.hpp; 0 with identity labels
  uint64_t layer_bytes;  // version 4: the layer section's size (index_layer.hpp)
  uint64_t reserved;
};
static_assert(sizeof(Header) == 96);
static_assert(offsetof(Header, checksum) == kIndexChecksumOffset);

constexpr uint64_t pad8(uint64_t x) {
  return (x + 7) & ~uint64_t{7};
}

// Byte offsets of every section for the sizes a header declares. Sizes are bounded
// first, so no sum below can overflow.
struct Layout {
  uint64_t labels, component_of, offsets, targets, label_offsets, name_slots, names, layer, end;
};

Layout layout_of(const Header& h) {
  Layout l{};
  const bool names = !(h.flags & kIdentityLabels);
  l.labels = sizeof(Header);
  l.component_of = l.labels + h.components * sizeof(ComponentLabel);
  l.offsets = l.component_of + pad8(h.vertices * 4);
  l.targets = l.offsets + pad8((h.components + 1) * 4);
  l.label_offsets = l.targets + pad8(h.edges * 4);
  l.name_slots = l.label_offsets + (names ? (h.vertices + 1) * 8 : 0);
  l.names = l.name_slots + (names ? name_slot_count(h.vertices) * 8 : 0);
  l.layer = l.names + (names ? pad8(h.label_bytes) : 0);
  l.end = l.layer + h.layer_bytes;
  return l;
}

constexpr uint64_t kK1 = 0x9E3779B97F4A7C15ull, kK2 = 0xC2B2AE3D27D4EB4Full,
                   kK3 = 0x165667B19E3779F9ull;

inline uint64_t rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}
inline uint64_t load64(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Streaming form of index_checksum: four independent multiply-rotate lanes over 32-byte
// blocks (so the multiplies overlap: several GB/s), the tail and the length mixed last.
class Hasher {
 public:
  explicit Hasher(uint64_t seed) : lane_{seed ^ kK1, seed + kK2, seed ^ kK3, seed - kK1} {}
  void update(const void* data, size_t size) {
    if (size == 0) return;  // data may be null then (an empty array): memcpy must not see it
    auto p = static_cast<const unsigned char*>(data);
    total_ += size;
    if (fill_) {
      const size_t take = std::min(size, sizeof buf_ - fill_);
      std::memcpy(buf_ + fill_, p, take);
      fill_ += take, p += take, size -= take;
      if (fill_ < sizeof buf_) return;
      block(buf_);
      fill_ = 0;
    }
    for (; size >= 32; p += 32, size -= 32) block(p);
    std::memcpy(buf_, p, size);
    fill_ = size;
  }
  uint64_t finish() {
    unsigned char tail[32] = {};
    std::memcpy(tail, buf_, fill_);
    block(tail);
    uint64_t h = total_ * kK3;
    for (uint64_t l : lane_) h = rotl(h ^ (l * kK1), 31) * kK2;
    h ^= h >> 29;
    h *= kK3;
    return h ^ (h >> 32);
  }

 private:
  void block(const unsigned char* p) {
    for (int i = 0; i < 4; ++i) lane_[i] = rotl(lane_[i] ^ (load64(p + 8 * i) * kK1), 29) * kK2;
  }
  uint64_t lane_[4];
  unsigned char buf_[32];
  size_t fill_ = 0;
  uint64_t total_ = 0;
};

// A file without a layer is version 3, which closure builds from before layers still read.
Header header_of(const IndexView& d, uint64_t layer_bytes) {
  Header h{};
  std::memcpy(h.magic, kIndexMagic, 8);
  h.version = layer_bytes ? kIndexVersion : 3;
  h.header_bytes = sizeof(Header);
  h.vertices = d.vertices;
  h.components = d.components;
  h.edges = d.edges;
  h.supportive = d.supportive;
  h.flags = (d.identity_labels ? kIdentityLabels : 0) | (layer_bytes ? kHasLayer : 0);
  h.label_bytes = d.identity_labels ? 0 : d.label_byte_count;
  h.name_seed = d.identity_labels ? 0 : d.name_seed;
  h.layer_bytes = layer_bytes;
  h.file_bytes = layout_of(h).end;
  return h;
}

// The payload as the file holds it: (pointer, bytes, padded bytes) per section.
struct Section {
  const void* data;
  uint64_t bytes;
};
std::vector<Section> sections_of(const IndexView& d, const std::string& layer) {
  static const uint32_t kNoEdges = 0;  // the offsets of an index without components
  std::vector<Section> s{{d.labels, d.components * sizeof(ComponentLabel)},
                         {d.component_of, d.vertices * 4},
                         {d.offsets ? d.offsets : &kNoEdges, (d.components + 1) * 4},
                         {d.targets, d.edges * 4}};
  if (!d.identity_labels) {
    s.push_back({d.label_offsets, (d.vertices + 1) * 8});
    s.push_back({d.name_slots, name_slot_count(d.vertices) * 8});
    s.push_back({d.label_bytes, d.label_byte_count});
  }
  if (!layer.empty()) s.push_back({layer.data(), layer.size()});  // 8-aligned already
  return s;
}

template <typename Sink>
void emit(const IndexView& d, const std::string& layer, Sink&& sink) {
  Header h = header_of(d, layer.size());
  Hasher hasher(0);
  static const char zeros[8] = {};
  hasher.update(&h, sizeof h);
  for (const Section& s : sections_of(d, layer)) {
    hasher.update(s.data, s.bytes);
    hasher.update(zeros, pad8(s.bytes) - s.bytes);
  }
  h.checksum = hasher.finish();
  sink(&h, sizeof h);
  for (const Section& s : sections_of(d, layer)) {
    sink(s.data, s.bytes);
    sink(zeros, pad8(s.bytes) - s.bytes);
  }
}

// The header alone (the first bytes of a file, `prefix` of them present): magic, version and
// sizes that agree with each other, checked before anything is allocated for the file.
Header check_header(const unsigned char* bytes, uint64_t prefix, const std::string& name) {
  auto fail = [&](const std::string& what) -> IndexFileError { return IndexFileError(name, what); };
  if (prefix < 8 || std::memcmp(bytes, kIndexMagic, 8) != 0)
    throw fail("not a closure index file (no CLOSRIDX header); build one with `closure index`");
  if (prefix < sizeof(Header))
    throw fail("truncated index file: " + std::to_string(prefix) + " bytes, the header alone is " +
               std::to_string(sizeof(Header)));
  Header h;
  std::memcpy(&h, bytes, sizeof h);
  if (h.version != kIndexVersion && h.version != 3)
    throw fail("index file version " + std::to_string(h.version) +
               "; this closure reads versions 3 and " + std::to_string(kIndexVersion) +
               " (rebuild it with `closure index`)");
  if (h.header_bytes != sizeof(Header)) throw fail("damaged index file: bad header size");
  if (h.vertices >= UINT32_MAX || h.components > h.vertices || h.edges >= UINT32_MAX ||
      h.supportive > kMaxSupportive || (h.flags & ~(kIdentityLabels | kHasLayer)) ||
      h.label_bytes > (uint64_t{1} << 48) || (h.vertices > 0 && h.components == 0) ||
      h.layer_bytes > (uint64_t{1} << 48) || h.layer_bytes % 8 != 0 ||
      bool(h.flags & kHasLayer) != (h.layer_bytes != 0) || (h.layer_bytes != 0 && h.version == 3) ||
      h.reserved != 0)
    throw fail("damaged index file: impossible sizes in the header");
  if (h.file_bytes != layout_of(h).end)
    throw fail("damaged index file: the header's sizes disagree");
  return h;
}

// Checks `bytes` (8-aligned) and returns the view into it; throws IndexFileError.
IndexView check(const unsigned char* bytes, uint64_t size, const std::string& name) {
  auto fail = [&](const std::string& what) -> IndexFileError { return IndexFileError(name, what); };
  const Header h = check_header(bytes, size, name);
  const Layout l = layout_of(h);
  if (size != l.end)
    throw fail((size < l.end ? "truncated index file: " : "damaged index file: ") +
               std::to_string(size) + " bytes, the header says " + std::to_string(l.end));
  Header zeroed = h;
  zeroed.checksum = 0;
  Hasher hasher(0);
  hasher.update(&zeroed, sizeof zeroed);
  hasher.update(bytes + sizeof(Header), size - sizeof(Header));
  if (hasher.finish() != h.checksum) throw fail("damaged index file: checksum mismatch");

  // Every index a query follows is checked too, so even a file with a forged checksum
  // cannot send a query outside the mapping.
  IndexView v;
  v.vertices = h.vertices;
  v.components = h.components;
  v.edges = h.edges;
  v.supportive = h.supportive;
  v.labels = reinterpret_cast<const ComponentLabel*>(bytes + l.labels);
  v.component_of = reinterpret_cast<const uint32_t*>(bytes + l.component_of);
  v.offsets = reinterpret_cast<const uint32_t*>(bytes + l.offsets);
  v.targets = reinterpret_cast<const uint32_t*>(bytes + l.targets);
  for (uint64_t i = 0; i < h.vertices; ++i)
    if (v.component_of[i] >= h.components) throw fail("damaged index file: bad component id");
  if (v.offsets[0] != 0 || v.offsets[h.components] != h.edges)
    throw fail("damaged index file: bad edge offsets");
  for (uint64_t c = 0; c < h.components; ++c) {
    if (v.offsets[c] > v.offsets[c + 1]) throw fail("damaged index file: bad edge offsets");
    uint64_t prev = c;
    for (uint32_t i = v.offsets[c]; i < v.offsets[c + 1]; ++i) {
      if (v.targets[i] <= prev || v.targets[i] >= h.components)
        throw fail("damaged index file: bad condensation edge");
      prev = v.targets[i];
    }
  }
  v.identity_labels = (h.flags & kIdentityLabels) != 0;
  if (!v.identity_labels) {
    v.label_offsets = reinterpret_cast<const uint64_t*>(bytes + l.label_offsets);
    v.name_slots = reinterpret_cast<const uint64_t*>(bytes + l.name_slots);
    v.name_seed = h.name_seed;
    v.label_bytes = reinterpret_cast<const char*>(bytes + l.names);
    v.label_byte_count = h.label_bytes;
    if (v.label_offsets[0] != 0 || v.label_offsets[h.vertices] != h.label_bytes)
      throw fail("damaged index file: bad label offsets");
    for (uint64_t i = 0; i < h.vertices; ++i) {
      if (v.label_offsets[i] > v.label_offsets[i + 1])
        throw fail("damaged index file: bad label offsets");
    }
    // Every slot empty or naming a vertex, and every vertex named by exactly one slot: a
    // lookup's probe then meets an empty slot (there are more slots than vertices), never
    // leaves the names, and finds every name the file holds.
    std::vector<uint64_t> named((h.vertices + 63) / 64, 0);
    uint64_t occupied = 0;
    for (uint64_t i = 0, n = name_slot_count(h.vertices); i < n; ++i) {
      const uint64_t s = v.name_slots[i];
      if (s == 0) continue;
      const uint32_t vertex = uint32_t(s) - 1;
      if (uint32_t(s) == 0 || vertex >= h.vertices || (named[vertex / 64] >> (vertex % 64)) & 1)
        throw fail("damaged index file: bad name table");
      named[vertex / 64] |= uint64_t{1} << (vertex % 64);
      ++occupied;
    }
    if (occupied != h.vertices) throw fail("damaged index file: bad name table");
  }
  v.layer = h.layer_bytes ? bytes + l.layer : nullptr;
  v.layer_bytes = h.layer_bytes;
  return v;
}

}  // namespace

bool looks_like_index(std::string_view first_bytes) {
  return first_bytes.size() >= 8 && std::memcmp(first_bytes.data(), kIndexMagic, 8) == 0;
}

bool file_is_index(const std::string& path) {
  if (path == "-") return false;  // peeking would need the stream itself: use is_index
  try {
    InputSource input(path);
    return is_index(input);
  } catch (const InputError&) {
    return false;
  }
}

bool is_index(InputSource& input) {
  return looks_like_index(input.peek(sizeof kIndexMagic));
}

uint64_t index_checksum(const void* data, size_t size, uint64_t seed) {
  Hasher h(seed);
  h.update(data, size);
  return h.finish();
}

uint64_t index_file_bytes(const IndexData& data) {
  return header_of(data.view(), 0).file_bytes;
}

uint64_t write_index(const std::string& path, const IndexData& data) {
  return write_index(path, data.view(), {});
}

uint64_t write_index(const std::string& path, const IndexView& base, const std::string& layer) {
  AtomicFile file(path);
  uint64_t written = 0;
  emit(base, layer, [&](const void* p, uint64_t n) {
    file.write(p, n);
    written += n;
  });
  file.commit();
  return written;
}

std::string index_image(const IndexData& data) {
  std::string out;
  emit(data.view(), {},
       [&](const void* p, uint64_t n) { out.append(static_cast<const char*>(p), n); });
  return out;
}

namespace {

// An index is read into anonymous memory, never mapped: a mapped file that another process
// truncates or rewrites would end the process with SIGBUS at the next query, and the load
// checks every byte's checksum anyway, so a mapping saved no reading. A big index goes on
// 2 MiB pages: its queries hit random labels across hundreds of MB; with 4 KiB pages nearly
// each one also missed the TLB, and in a virtual machine a page walk is itself a chain of
// misses: huge pages make random-pair queries several times faster (docs/benchmarks-queries.md,
// "Reachability index and queries"). Takes ownership of fd.
std::unique_ptr<ReachIndex> read_into_memory(int fd, uint64_t size, const std::string& path,
                                             bool huge_pages) {
  // Small indexes get their pages in one call (MAP_POPULATE) rather than a fault per page.
  void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | (huge_pages ? 0 : MAP_POPULATE), -1, 0);
  if (base == MAP_FAILED) {
    ::close(fd);
    throw OutOfMemoryError("out of memory loading the index " + path + " (" +
                           format_bytes(double(size)) + ")");
  }
  if (huge_pages) {
    detail::advise_huge_pages(base, size);
    try {
      detail::prefault_in_parallel(base, size);
    } catch (...) {
      ::close(fd);
      ::munmap(base, size);
      throw;
    }
  }
  auto* bytes = static_cast<unsigned char*>(base);
  uint64_t done = 0;
  while (done < size) {
    const ssize_t got =
        ::pread(fd, bytes + done, size_t(std::min<uint64_t>(size - done, 1u << 30)), off_t(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const std::string why = got < 0 ? std::strerror(errno) : "the file shrank while read";
      ::close(fd);
      ::munmap(base, size);
      throw IndexFileError(path, "cannot read: " + why);
    }
    done += uint64_t(got);
  }
  ::close(fd);
  try {
    const IndexView v = check(bytes, size, path);
    return std::make_unique<ReachIndex>(v, base, size);
  } catch (const std::bad_alloc&) {  // the keys made beside it: the index's, not a method's
    ::munmap(base, size);
    throw OutOfMemoryError("out of memory loading the index " + path + " (" +
                           format_bytes(double(size)) + " and 64-76 bytes a vertex beside it)");
  } catch (...) {
    ::munmap(base, size);
    throw;
  }
}

// A stream (pipe, FIFO, stdin): the header is checked first; then the stream is read as it
// comes, in growing steps up to the size the header declares (and one byte more, to tell a
// longer stream), so a forged size costs no more memory than the bytes actually sent.
std::unique_ptr<ReachIndex> read_stream(InputSource& input) {
  const std::string_view head = input.peek(sizeof(Header));
  const Header h =
      check_header(reinterpret_cast<const unsigned char*>(head.data()), head.size(), input.name());
  const uint64_t want = h.file_bytes + 1;
  std::string prefix;
  const int fd = input.release(prefix);
  std::string bytes = std::move(prefix);
  bool ended = false;
  try {
    while (bytes.size() < want && !ended) {
      const size_t at = bytes.size();
      const size_t step = size_t(std::min<uint64_t>(want - at, std::max<size_t>(at, 1u << 20)));
      bytes.resize(at + step);
      size_t got = 0;
      while (got < step) {
        const ssize_t k = ::read(fd, bytes.data() + at + got, step - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0)
          throw IndexFileError(input.name(), std::string("cannot read: ") + std::strerror(errno));
        if (k == 0) {
          ended = true;
          break;
        }
        got += size_t(k);
      }
      bytes.resize(at + got);
    }
  } catch (const std::bad_alloc&) {
    ::close(fd);
    throw OutOfMemoryError("out of memory loading the index " + input.name() + " (" +
                           format_bytes(double(h.file_bytes)) + ")");
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return load_index_from_bytes(bytes, input.name());
}

}  // namespace

std::unique_ptr<ReachIndex> load_index(InputSource&& input, uint64_t huge_pages_from) {
  if (!input.regular()) return read_stream(input);
  const uint64_t size = uint64_t(input.status().st_size);
  const std::string name = input.name();
  if (size == 0) throw IndexFileError(name, "not a closure index file (empty)");
  // The header before the allocation: a graph file given as an index is refused at once.
  const std::string_view head = input.peek(sizeof(Header));
  const Header h =
      check_header(reinterpret_cast<const unsigned char*>(head.data()), head.size(), name);
  if (size != h.file_bytes)
    throw IndexFileError(
        name, (size < h.file_bytes ? "truncated index file: " : "damaged index file: ") +
                  std::to_string(size) + " bytes, the header says " + std::to_string(h.file_bytes));
  std::string unused;
  return read_into_memory(input.release(unused), size, name, size >= huge_pages_from);
}

std::unique_ptr<ReachIndex> load_index(const std::string& path, uint64_t huge_pages_from) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw IndexFileError(path, "not a regular file (a folder)");
  std::unique_ptr<InputSource> input;
  try {
    input = std::make_unique<InputSource>(path);
  } catch (const InputError& e) {
    throw IndexFileError(e.file(), e.message());
  }
  return load_index(std::move(*input), huge_pages_from);
}

LivingIndex living_index_of(std::unique_ptr<ReachIndex> base, const std::string& name) {
  const IndexView& v = base->view();
  IndexLayer layer = decode_layer(v.layer, v.layer_bytes, v.vertices, name);
  return LivingIndex(std::shared_ptr<const ReachIndex>(std::move(base)), std::move(layer), name);
}

std::unique_ptr<ReachIndex> load_index_from_bytes(std::string_view bytes, const std::string& name) {
  if (bytes.empty()) throw IndexFileError(name, "not a closure index file (empty)");
  // An anonymous mapping: page-aligned like a file's, released by ReachIndex the same way.
  void* map =
      ::mmap(nullptr, bytes.size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    throw OutOfMemoryError("out of memory loading the index " + name + " (" +
                           format_bytes(double(bytes.size())) + ")");
  std::memcpy(map, bytes.data(), bytes.size());
  try {
    const IndexView v = check(static_cast<const unsigned char*>(map), bytes.size(), name);
    return std::make_unique<ReachIndex>(v, map, bytes.size());
  } catch (const std::bad_alloc&) {
    ::munmap(map, bytes.size());
    throw OutOfMemoryError("out of memory loading the index " + name + " (" +
                           format_bytes(double(bytes.size())) +
                           " and 64-76 bytes a vertex beside it)");
  } catch (...) {
    ::munmap(map, bytes.size());
    throw;
  }
}

}  // namespace closure::reach
