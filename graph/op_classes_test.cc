#include "graph/op_classes.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(OpClassesTest, RefVariantsShareTheirClass) {
  EXPECT_EQ(ClassifyOp("Switch"), OpClass::kSwitch);
  EXPECT_EQ(ClassifyOp("RefSwitch"), OpClass::kSwitch);
  EXPECT_EQ(ClassifyOp("RefMerge"), OpClass::kMerge);
  EXPECT_EQ(ClassifyOp("RefEnter"), OpClass::kEnter);
  EXPECT_EQ(ClassifyOp("RefExit"), OpClass::kExit);
  EXPECT_EQ(ClassifyOp("RefNextIteration"), OpClass::kNextIteration);
}

TEST(OpClassesTest, TransfersIncludeHostMemoryVariants) {
  EXPECT_TRUE(IsTransfer(ClassifyOp("_Send")));
  EXPECT_TRUE(IsTransfer(ClassifyOp("_HostRecv")));
  EXPECT_TRUE(IsSend(ClassifyOp("_HostSend")));
  EXPECT_TRUE(IsRecv(ClassifyOp("_Recv")));
  EXPECT_FALSE(IsTransfer(ClassifyOp("_Arg")));
}

TEST(OpClassesTest, UnknownAndOrdinaryOpsAreOther) {
  EXPECT_EQ(ClassifyOp("MatMul"), OpClass::kOther);
  EXPECT_EQ(ClassifyOp("NoSuchOp"), OpClass::kOther);
  EXPECT_EQ(ClassifyOp(""), OpClass::kOther);
  // Prefixes are not classes: only exact names count.
  EXPECT_EQ(ClassifyOp("Identity2"), OpClass::kOther);
}

TEST(OpClassesTest, GroupPredicates) {
  for (const char* op :
       {"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond", "ControlTrigger"}) {
    EXPECT_TRUE(IsControlFlow(ClassifyOp(op))) << op;
  }
  EXPECT_FALSE(IsControlFlow(ClassifyOp("Identity")));
  EXPECT_TRUE(IsLoopControl(ClassifyOp("Exit")));
  EXPECT_FALSE(IsLoopControl(ClassifyOp("Merge")));
  EXPECT_TRUE(IsFunctional(ClassifyOp("StatefulPartitionedCall")));
  EXPECT_TRUE(IsFunctional(ClassifyOp("StatelessWhile")));
  EXPECT_TRUE(IsFunctional(ClassifyOp("Case")));
  EXPECT_EQ(ClassifyOp("StatelessCase"), OpClass::kFunctionalCase);
  EXPECT_TRUE(IsAnyPlaceholder(ClassifyOp("PlaceholderWithDefault")));
  EXPECT_FALSE(IsPlaceholder(ClassifyOp("PlaceholderWithDefault")));
  EXPECT_TRUE(MayLeaveOutputUnset(ClassifyOp("_HostRecv")));
  EXPECT_TRUE(MayLeaveOutputUnset(ClassifyOp("RefSwitch")));
  EXPECT_FALSE(MayLeaveOutputUnset(ClassifyOp("_Send")));
  EXPECT_TRUE(IsShapeMetadata(ClassifyOp("Rank")));
  EXPECT_TRUE(IsIdentity(ClassifyOp("StopGradient")));
}

TEST(OpClassesTest, OpsOfClassListsEveryNameSorted) {
  EXPECT_EQ(OpsOfClass(IsFunctional),
            (std::vector<std::string>{"Case", "If", "PartitionedCall", "StatefulPartitionedCall",
                                      "StatelessCase", "StatelessIf", "StatelessWhile", "While"}));
  EXPECT_EQ(OpsOfClass(IsLoopControl),
            (std::vector<std::string>{"Enter", "Exit", "NextIteration", "RefEnter", "RefExit",
                                      "RefNextIteration"}));
}

}  // namespace
}  // namespace rill
