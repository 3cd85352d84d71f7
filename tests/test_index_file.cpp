// Hostile index files: every truncation, every flipped byte, a foreign file and a newer
// version are refused with IndexFileError (exit status 3 in the CLI), never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "closure/reach/index_file.hpp"
#include "closure/reach/name_table.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure::reach {
namespace {

std::string small_image(bool names) {
  std::vector<std::string> labels;
  if (names) labels = {"a", "bb", "c", "dd", "e"};
  const Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {4, 4}}, labels);
  return index_image(build_index(g));
}

TEST(IndexFile, EveryTruncationIsRefused) {
  for (bool names : {false, true}) {
    const std::string image = small_image(names);
    for (size_t len = 0; len < image.size(); ++len)
      EXPECT_THROW(load_index_from_bytes(image.substr(0, len)), IndexFileError) << len;
    EXPECT_NO_THROW(load_index_from_bytes(image));
  }
}

TEST(IndexFile, EveryFlippedByteIsRefused) {
  for (bool names : {false, true}) {
    const std::string image = small_image(names);
    for (size_t i = 0; i < image.size(); ++i)
      for (unsigned char bit : {0x01, 0x80}) {
        std::string bad = image;
        bad[i] = char(bad[i] ^ bit);
        EXPECT_THROW(load_index_from_bytes(bad), IndexFileError) << i;
      }
  }
}

TEST(IndexFile, MessagesSayWhatIsWrong) {
  const std::string image = small_image(true);
  auto message = [](const std::string& bytes) {
    try {
      load_index_from_bytes(bytes, "x.idx");
    } catch (const IndexFileError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_NE(message("graph_for_greach\n3\n").find("not a closure index file"), std::string::npos);
  EXPECT_NE(message(image.substr(0, 50)).find("truncated"), std::string::npos);
  EXPECT_NE(message(image.substr(0, image.size() - 8)).find("truncated"), std::string::npos);
  EXPECT_NE(message(image + "x").find("damaged"), std::string::npos);
  std::string newer = image;
  newer[8] = char(kIndexVersion + 1);
  EXPECT_NE(message(newer).find("version " + std::to_string(kIndexVersion + 1)), std::string::npos);
  std::string older = image;  // version 2 held sorted names where 3 holds a hash table
  older[8] = 2;
  EXPECT_NE(message(older).find("rebuild it"), std::string::npos);
  std::string flipped = image;
  flipped[image.size() - 1] ^= 1;
  EXPECT_NE(message(flipped).find("checksum mismatch"), std::string::npos);
  EXPECT_EQ(message(image), "loaded");
}

TEST(IndexFile, ForgedChecksumStillCannotPointOutside) {
  // A bad edge target with a recomputed checksum: the structural checks catch it.
  const Graph g(4, {{0, 1}, {1, 2}, {2, 3}});
  IndexData d = build_index(g);
  d.targets[0] = 99;
  EXPECT_THROW(load_index_from_bytes(index_image(d)), IndexFileError);
  d = build_index(g);
  d.component_of[3] = 7;
  EXPECT_THROW(load_index_from_bytes(index_image(d)), IndexFileError);
  d = build_index(g);
  d.offsets[2] = 100;
  EXPECT_THROW(load_index_from_bytes(index_image(d)), IndexFileError);
}

TEST(IndexFile, ForgedNameTableIsRefused) {
  // Slots naming no vertex, a vertex past the end, or too few or too many taken slots would
  // let a lookup read outside the names or probe forever; the loader refuses each.
  const Graph g(5, {{0, 1}, {1, 2}}, {"a", "bb", "c", "dd", "e"});
  const IndexData good = build_index(g);
  ASSERT_EQ(good.name_slots.size(), name_slot_count(5));
  ASSERT_NO_THROW(load_index_from_bytes(index_image(good)));
  size_t taken = 0, empty = 0;
  for (size_t i = 0; i < good.name_slots.size(); ++i) (good.name_slots[i] ? taken : empty) = i;
  auto refused = [&](auto&& forge) {
    IndexData d = good;
    forge(d.name_slots);
    EXPECT_THROW(load_index_from_bytes(index_image(d)), IndexFileError);
  };
  refused([&](auto& s) { s[taken] &= ~uint64_t{0xffffffff}; });  // a tag, vertex "0 - 1"
  refused([&](auto& s) { s[taken] = (s[taken] & ~uint64_t{0xffffffff}) | 6; });  // vertex 5
  refused([&](auto& s) { s[taken] = 0; });                                       // 4 names
  refused([&](auto& s) { s[empty] = 1; });                                       // 6 names
  refused([&](auto& s) {  // every slot taken: a probe for an unknown name would not end
    for (auto& x : s) x = x ? x : 1;
  });
}

TEST(NameTable, FindsEveryNameAndNothingElse) {
  // 100,003 names sharing long prefixes and lengths (so tags, not lengths, separate them),
  // looked up from a mapped-like view; unknown names, prefixes and extensions are not found.
  const uint64_t n = 100003;
  std::vector<uint64_t> offsets{0};
  std::string bytes;
  for (uint64_t v = 0; v < n; ++v) {
    bytes += "refs/heads/topic-" + std::to_string(v * 7919 % 1000003);
    offsets.push_back(bytes.size());
  }
  const uint64_t seed = name_seed(bytes);
  const std::vector<uint64_t> slots = build_name_slots(offsets.data(), bytes.data(), n, seed);
  EXPECT_EQ(slots.size(), name_slot_count(n));
  EXPECT_EQ(slots.size(), uint64_t{1} << 18);  // 4/3 of 100,003 rounded up to a power of 2
  const NameTable t{slots.data(), slots.size(), seed, offsets.data(), bytes.data()};
  for (uint64_t v = 0; v < n; ++v) {
    const std::string name(t.name(uint32_t(v)));
    ASSERT_EQ(t.find(name), vertex_t(v)) << name;
    ASSERT_FALSE(t.find(name + "/").has_value()) << name;
    ASSERT_FALSE(t.find(name.substr(0, name.size() - 1) + "x").has_value()) << name;
  }
  EXPECT_FALSE(t.find("").has_value());
  EXPECT_FALSE(t.find("refs/heads/topic-").has_value());
  // The seed depends on the names only: the same names give the same file.
  EXPECT_EQ(name_seed(bytes), seed);
  EXPECT_NE(name_seed(bytes + "x"), seed);
  EXPECT_EQ(name_slot_count(0), 2u);
  EXPECT_EQ(name_slot_count(1), 2u);
  EXPECT_EQ(name_slot_count(3), 4u);
  EXPECT_EQ(name_slot_count(4), 8u);  // 4 + 2 > 4: never fuller than 3/4
}

TEST(IndexFile, WrittenAtomicallyAndMapped) {
  const std::string path = ::testing::TempDir() + "closure_index_test.idx";
  const Graph g(3, {{0, 1}, {1, 2}}, {"x", "y", "z"});
  const uint64_t bytes = write_index(path, build_index(g));
  EXPECT_EQ(bytes, index_file_bytes(build_index(g)));
  EXPECT_TRUE(file_is_index(path));
  auto index = load_index(path);
  Querier q(*index);
  EXPECT_TRUE(q.reaches(*index->find("x"), *index->find("z")));
  EXPECT_FALSE(q.reaches(*index->find("z"), *index->find("x")));
  std::remove(path.c_str());
  EXPECT_THROW(load_index(path), IndexFileError);
}

TEST(IndexFile, ReadIntoHugePagesLikeMapped) {
  // The path big files take (threshold 0 here): the same answers, the same refusals.
  const std::string path = ::testing::TempDir() + "closure_index_huge.idx";
  const Graph g(4, {{0, 1}, {1, 2}, {2, 1}, {3, 3}}, {"w", "x", "y", "z"});
  write_index(path, build_index(g));
  auto index = load_index(path, 0);
  Querier q(*index);
  EXPECT_TRUE(q.reaches(*index->find("w"), *index->find("y")));
  EXPECT_TRUE(q.reaches(*index->find("x"), *index->find("x")));  // on a cycle
  EXPECT_TRUE(q.reaches(*index->find("z"), *index->find("z")));  // self-loop
  EXPECT_FALSE(q.reaches(*index->find("w"), *index->find("w")));
  EXPECT_FALSE(q.reaches(*index->find("y"), *index->find("w")));
  // Truncated and flipped files are refused on this path too.
  std::string image;
  {
    std::ifstream in(path, std::ios::binary);
    image.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto rewrite = [&](const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  };
  rewrite(image.substr(0, image.size() - 3));
  EXPECT_THROW(load_index(path, 0), IndexFileError);
  std::string flipped = image;
  flipped[image.size() / 2] ^= 0x10;
  rewrite(flipped);
  EXPECT_THROW(load_index(path, 0), IndexFileError);
  rewrite(image);
  EXPECT_NO_THROW(load_index(path, 0));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace closure::reach
