// The JSON string rule for bytes (io/json_text.hpp): valid UTF-8 as it is, every other byte
// as \udcNN, so that distinct labels stay distinct and the output is always JSON; and
// dump_json lays objects out as nlohmann's dump does.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "closure/io/json_text.hpp"

namespace closure {
namespace {

TEST(JsonText, ValidUtf8IsWrittenAsNlohmannWritesIt) {
  for (const std::string& s :
       std::vector<std::string>{"", "a", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                "q\"b\\", "tab\there", "nl\nx", std::string("nul\0x", 5), "\x7f"})
    EXPECT_EQ(json_string(s), nlohmann::json(s).dump()) << s;
}

TEST(JsonText, BytesThatAreNotUtf8BecomeLoneSurrogates) {
  EXPECT_EQ(json_string("a\xff"), "\"a\\udcff\"");
  EXPECT_EQ(json_string("\xC0\xAF"), "\"\\udcc0\\udcaf\"");             // overlong '/'
  EXPECT_EQ(json_string("\xED\xA0\x80"), "\"\\udced\\udca0\\udc80\"");  // a UTF-8 surrogate
  EXPECT_EQ(json_string("\xF4\x90\x80\x80"), "\"\\udcf4\\udc90\\udc80\\udc80\"");  // > U+10FFFF
  EXPECT_EQ(json_string("\xE2\x82"), "\"\\udce2\\udc82\"");                        // cut short
  EXPECT_EQ(json_string("\xC3\xA9\xff\xC3\xA9"), "\"\xC3\xA9\\udcff\xC3\xA9\"");
}

TEST(JsonText, DistinctByteStringsStayDistinctAndParse) {
  std::mt19937_64 rng(24);
  std::set<std::string> inputs, outputs;
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 6, '\0');
    for (char& c : s) c = char(rng() % 4 == 0 ? 0x80 + rng() % 128 : 0x20 + rng() % 95);
    if (!inputs.insert(s).second) continue;
    const std::string j = json_string(s);
    EXPECT_TRUE(outputs.insert(j).second) << j;
    // JSON's grammar allows lone surrogates (Python and JavaScript read them; nlohmann's
    // strict parser does not): with each \udcNN made a plain escape, the rest must parse.
    std::string plain = j;
    for (size_t at; (at = plain.find("\\udc")) != std::string::npos;) plain.replace(at, 4, "\\u00");
    EXPECT_TRUE(nlohmann::json::accept(plain)) << j;
  }
}

TEST(JsonText, DumpMatchesNlohmannsLayout) {
  nlohmann::ordered_json o;
  o["input"] = "g.txt";
  o["vertices"] = 5;
  o["ratio"] = 0.25;
  o["dag"] = true;
  o["none"] = nullptr;
  o["empty"] = nlohmann::ordered_json::array();
  o["list"] = {"a", "b"};
  o["nested"] = {{"k", 1}};
  EXPECT_EQ(dump_json(o, 2), o.dump(2));
  EXPECT_EQ(dump_json(o), o.dump());
  nlohmann::ordered_json bad;
  bad["label"] = std::string("x\xff");
  EXPECT_EQ(dump_json(bad), "{\"label\":\"x\\udcff\"}");
}

}  // namespace
}  // namespace closure
