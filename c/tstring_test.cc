// TF_TString: the exported TF_String* functions and the inline TF_TString_* ones of
// tf_tstring.h (TensorFlow's ctstring.h API) on each representation: small, large, view and
// offset strings, growth across the inline capacity, assignment, move and append.
#include <cstring>
#include <string>

#include "gtest/gtest.h"
#include "tensorflow/c/tf_tstring.h"

namespace {

std::string Str(const TF_TString* t) {
  return std::string(TF_TString_GetDataPointer(t), TF_TString_GetSize(t));
}

TEST(TString, SmallAndLargeCopies) {
  TF_TString t;
  TF_TString_Init(&t);
  EXPECT_EQ(TF_TString_GetSize(&t), 0u);
  EXPECT_EQ(TF_TString_GetType(&t), TF_TSTR_SMALL);
  TF_TString_Copy(&t, "hello", 5);
  EXPECT_EQ(Str(&t), "hello");
  EXPECT_EQ(TF_TString_GetType(&t), TF_TSTR_SMALL);
  EXPECT_EQ(TF_TString_GetCapacity(&t), 22u);
  const std::string long_text(40, 'x');
  TF_TString_Copy(&t, long_text.data(), long_text.size());
  EXPECT_EQ(Str(&t), long_text);
  EXPECT_EQ(TF_TString_GetType(&t), TF_TSTR_LARGE);
  EXPECT_EQ(TF_TString_GetDataPointer(&t)[40], '\0');
  TF_TString_Dealloc(&t);
  EXPECT_EQ(TF_TString_GetSize(&t), 0u);
}

TEST(TString, AppendGrowsPastTheInlineCapacity) {
  TF_TString t;
  TF_TString_Init(&t);
  std::string expected;
  for (int i = 0; i < 10; ++i) {
    TF_TString_AppendN(&t, "abcdef", 6);
    expected += "abcdef";
    ASSERT_EQ(Str(&t), expected) << i;
    ASSERT_EQ(TF_TString_GetDataPointer(&t)[expected.size()], '\0');
  }
  EXPECT_EQ(TF_TString_GetType(&t), TF_TSTR_LARGE);
  EXPECT_GE(TF_TString_GetCapacity(&t), 60u);
  TF_TString other;
  TF_TString_Init(&other);
  TF_TString_Copy(&other, "!", 1);
  TF_TString_Append(&t, &other);
  EXPECT_EQ(Str(&t), expected + "!");
  TF_TString_Dealloc(&t);
  TF_TString_Dealloc(&other);
}

TEST(TString, ResizeAndReserve) {
  TF_TString t;
  TF_TString_Init(&t);
  TF_TString_Copy(&t, "abc", 3);
  char* p = TF_TString_Resize(&t, 6, 'z');
  EXPECT_EQ(std::string(p, 6), "abczzz");
  EXPECT_EQ(Str(&t), "abczzz");
  // Across the inline capacity and back: the kept bytes stay.
  TF_TString_Resize(&t, 30, '-');
  EXPECT_EQ(Str(&t), "abczzz" + std::string(24, '-'));
  TF_TString_ResizeUninitialized(&t, 2);
  EXPECT_EQ(Str(&t), "ab");
  TF_TString_Reserve(&t, 100);
  EXPECT_GE(TF_TString_GetCapacity(&t), 100u);
  EXPECT_EQ(Str(&t), "ab");
  TF_TString_GetMutableDataPointer(&t)[0] = 'X';
  EXPECT_EQ(Str(&t), "Xb");
  TF_TString_Dealloc(&t);
}

TEST(TString, ViewsAssignAndMove) {
  const char text[] = "a view of someone else's bytes";
  TF_TString view;
  TF_TString_Init(&view);
  TF_TString_AssignView(&view, text, 6);
  EXPECT_EQ(TF_TString_GetType(&view), TF_TSTR_VIEW);
  EXPECT_EQ(TF_TString_GetDataPointer(&view), text);
  EXPECT_EQ(TF_TString_GetCapacity(&view), 0u);

  // Assigning a view gives a view; assigning an owned string copies it.
  TF_TString copy;
  TF_TString_Init(&copy);
  TF_TString_Assign(&copy, &view);
  EXPECT_EQ(TF_TString_GetDataPointer(&copy), text);
  TF_TString large;
  TF_TString_Init(&large);
  TF_TString_Copy(&large, text, sizeof(text) - 1);
  TF_TString_Assign(&copy, &large);
  EXPECT_EQ(TF_TString_GetType(&copy), TF_TSTR_LARGE);
  EXPECT_NE(TF_TString_GetDataPointer(&copy), TF_TString_GetDataPointer(&large));
  EXPECT_EQ(Str(&copy), text);

  // Writing to a view makes it an owned copy.
  char* mutable_bytes = TF_TString_GetMutableDataPointer(&view);
  EXPECT_NE(mutable_bytes, text);
  EXPECT_EQ(TF_TString_GetType(&view), TF_TSTR_SMALL);
  EXPECT_EQ(Str(&view), "a view");

  // Move leaves the source empty and takes its block.
  const char* block = TF_TString_GetDataPointer(&large);
  TF_TString_Move(&copy, &large);
  EXPECT_EQ(TF_TString_GetDataPointer(&copy), block);
  EXPECT_EQ(TF_TString_GetSize(&large), 0u);
  TF_TString_Dealloc(&copy);
  TF_TString_Dealloc(&view);
}

TEST(TString, OffsetStringsAreReadAndCopiedOnMove) {
  // An OFFSET string: {size << 2 | 2, offset, count}, bytes at (char*)this + offset.
  struct {
    TF_TString s;
    char bytes[8];
  } block;
  std::memset(&block, 0, sizeof(block));
  block.s.u.offset.size = (5u << 2) | TF_TSTR_OFFSET;
  block.s.u.offset.offset = static_cast<uint32_t>(sizeof(TF_TString));
  block.s.u.offset.count = 1;
  std::memcpy(block.bytes, "world", 5);
  EXPECT_EQ(Str(&block.s), "world");
  TF_TString moved;
  TF_TString_Init(&moved);
  TF_TString_Move(&moved, &block.s);
  EXPECT_EQ(TF_TString_GetType(&moved), TF_TSTR_SMALL);
  EXPECT_EQ(Str(&moved), "world");
  TF_TString_Dealloc(&moved);
}

}  // namespace
