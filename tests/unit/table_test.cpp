// Result tables: CSV quoting and aligned text.

#include "util/table.h"

#include <gtest/gtest.h>

namespace s2s::util {
namespace {

TEST(TableTest, QuotesFieldsWithCommaQuoteOrNewline) {
  EXPECT_EQ(csv_field("Haus"), "Haus");
  EXPECT_EQ(csv_field(","), "\",\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("a\nb"), "\"a\nb\"");
  EXPECT_EQ(csv_field("a\rb"), "\"a\rb\"");
  EXPECT_EQ(csv_field(""), "");
}

TEST(TableTest, AlignsStringsLeftAndNumbersRight) {
  Table t;
  t.header = {"name", "value"};
  t.rows = {{std::string("a"), 1.5}, {std::string("long"), int64_t{12}}};
  EXPECT_EQ(format_table(t), "name  value\na       1.5\nlong     12\n");
}

TEST(TableTest, CsvKeepsMoreDigitsAndQuotes) {
  Table t;
  t.header = {"x", "label"};
  t.rows = {{1.0 / 3.0, std::string("a,b")}};
  EXPECT_EQ(format_csv(t, 10), "x,label\n0.3333333333,\"a,b\"\n");
  EXPECT_EQ(format_table(t, 2), "   x  label\n0.33  a,b\n");
}

}  // namespace
}  // namespace s2s::util
