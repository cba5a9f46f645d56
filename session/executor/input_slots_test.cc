// IterationState (fresh and reset), DeliverOutput and ReadRefInputs (values, refs, fetched
// variables) and the uninitialized-input check with its errors.
#include "session/executor/input_slots.h"

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "session/executor/test_util.h"

namespace rill {
namespace executor_internal {
namespace {

// A ref to `variable` (a TF1 variable's tensor) guarded by `mu`.
TensorValue Ref(Tensor* variable, rill::SharedMutex* mu) {
  TensorValue v;
  v.ref = variable;
  v.ref_mu = mu;
  return v;
}

// A plain value.
TensorValue Value(int32_t v) {
  TensorValue value;
  value.tensor = Tensor::Scalar<int32_t>(v);
  return value;
}

const NodeItem& Item(const NodeItems& items, const std::string& name) {
  const int i = IndexOf(items, name);
  EXPECT_GE(i, 0) << name;
  return items.nodes[i < 0 ? 0 : i];
}

TEST(IterationStateTest, StartsFreshAndResetEmptiesEverySlot) {
  FrameInfo info;
  info.num_nodes = 2;
  info.total_inputs = 3;
  info.initial_pending = {0, 2};
  IterationState state(info, 7);
  EXPECT_EQ(state.iter, 7);
  ASSERT_EQ(state.inputs.size(), 3u);
  for (const TensorValue& v : state.inputs) {
    EXPECT_FALSE(v.tensor.IsInitialized());
    EXPECT_FALSE(v.is_ref());
  }
  EXPECT_EQ(state.pending[1].load(), 2);
  EXPECT_EQ(state.dead_count[1].load(), 0);

  Tensor variable = Tensor::Scalar<int32_t>(5);
  rill::SharedMutex mu;
  state.inputs[0].tensor = Tensor::Scalar<int32_t>(1);
  state.inputs[2] = Ref(&variable, &mu);
  state.pending[1].store(0);
  state.dead_count[0].store(1);
  state.outstanding_ops = 3;
  state.outstanding_frame_count = 1;
  state.Reset(info, 0);
  EXPECT_EQ(state.iter, 0);
  for (const TensorValue& v : state.inputs) {
    EXPECT_FALSE(v.tensor.IsInitialized());
    EXPECT_FALSE(v.is_ref());
  }
  EXPECT_EQ(state.pending[0].load(), 0);
  EXPECT_EQ(state.pending[1].load(), 2);
  EXPECT_EQ(state.dead_count[0].load(), 0);
  EXPECT_EQ(state.outstanding_ops, 0);
  EXPECT_EQ(state.outstanding_frame_count, 0);
}

class DeliverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RILL_ASSERT_OK_AND_ASSIGN(
        items_,
        BuildTestItems(absl::StrCat(
            NodeText("var", "PartTestRefSource"), NodeText("reader", "PartTestRefReader", {"var"}),
            NodeText("deref", "PartTestUnary", {"var"}),
            NodeText("ret", "_Retval", {"var"}, "attr { key: 'index' value { i: 0 } }"))));
  }
  NodeItems items_;
  Tensor variable_ = Tensor::Scalar<int32_t>(5);
  rill::SharedMutex mu_;
};

TEST_F(DeliverTest, AValueIsCopiedAndSharesItsBufferBeforeItsLastUse) {
  TensorValue out = Value(3);
  TensorValue slot;
  DeliverOutput(&out, /*last_use=*/false, &slot);
  EXPECT_FALSE(slot.is_ref());
  EXPECT_TRUE(slot.tensor.SharesBufferWith(out.tensor));
  EXPECT_EQ(slot.tensor.flat<int32_t>()[0], 3);
}

TEST_F(DeliverTest, AValueIsMovedOnItsLastUse) {
  TensorValue out = Value(3);
  const Tensor held = out.tensor;  // the buffer, to see it arrive
  TensorValue slot;
  DeliverOutput(&out, /*last_use=*/true, &slot);
  EXPECT_FALSE(slot.is_ref());
  EXPECT_TRUE(slot.tensor.SharesBufferWith(held));
  EXPECT_FALSE(out.tensor.IsInitialized());
  // An empty value (a producer that set no output on a live edge) moves as empty.
  TensorValue none;
  TensorValue slot2 = Value(9);
  DeliverOutput(&none, /*last_use=*/true, &slot2);
  EXPECT_FALSE(slot2.tensor.IsInitialized());
}

TEST_F(DeliverTest, ARefIsCopiedEvenOnItsLastUse) {
  for (bool last_use : {false, true}) {
    TensorValue out = Ref(&variable_, &mu_);
    TensorValue slot;
    DeliverOutput(&out, last_use, &slot);
    EXPECT_EQ(slot.ref, &variable_);
    EXPECT_EQ(slot.ref_mu, &mu_);
    EXPECT_EQ(out.ref, &variable_);  // the producer's output still names the variable
  }
}

TEST_F(DeliverTest, ARefStaysARefForARefInput) {
  TensorValue out = Ref(&variable_, &mu_);
  TensorValue slot;
  DeliverOutput(&out, /*last_use=*/true, &slot);
  EXPECT_EQ(slot.ref, &variable_);
  EXPECT_EQ(slot.ref_mu, &mu_);
}

TEST_F(DeliverTest, ARefReadByAValueInputIsTheVariablesValueWhenTheReaderRuns) {
  TensorValue out = Ref(&variable_, &mu_);
  TensorValue slot;
  DeliverOutput(&out, /*last_use=*/true, &slot);
  EXPECT_EQ(slot.ref, &variable_);  // not read yet
  // An Assign between the variable's node and its reader: the reader sees the new value.
  variable_ = Tensor::Scalar<int32_t>(7);
  ReadRefInputs(Item(items_, "deref"), &slot);
  EXPECT_FALSE(slot.is_ref());
  EXPECT_TRUE(slot.tensor.SharesBufferWith(variable_));
  EXPECT_EQ(slot.tensor.flat<int32_t>()[0], 7);
}

TEST_F(DeliverTest, AFetchedVariableIsASnapshot) {
  TensorValue out = Ref(&variable_, &mu_);
  TensorValue slot;
  DeliverOutput(&out, /*last_use=*/true, &slot);
  ReadRefInputs(Item(items_, "ret"), &slot);
  EXPECT_FALSE(slot.is_ref());
  EXPECT_FALSE(slot.tensor.SharesBufferWith(variable_));
  EXPECT_EQ(slot.tensor.flat<int32_t>()[0], 5);
  // An uninitialized variable gives an empty slot.
  Tensor empty;
  TensorValue uninitialized = Ref(&empty, &mu_);
  TensorValue slot2;
  DeliverOutput(&uninitialized, /*last_use=*/true, &slot2);
  ReadRefInputs(Item(items_, "ret"), &slot2);
  EXPECT_FALSE(slot2.tensor.IsInitialized());
  EXPECT_FALSE(slot2.is_ref());
}

class MissingInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RILL_ASSERT_OK_AND_ASSIGN(
        items_,
        BuildTestItems(absl::StrCat(
            NodeText("src", "PartTestSource"), NodeText("pred", "PartTestBool"),
            NodeText("plain", "PartTestBinary", {"src", "src"}),
            NodeText("var", "PartTestRefSource"), NodeText("reader", "PartTestRefReader", {"var"}),
            NodeText("init", "PartTestRefInit", {"var"}),
            NodeText("deref", "PartTestUnary", {"var"}), NodeText("sw", "Switch", {"src", "pred"}),
            NodeText("m", "Merge", {"sw:0", "sw:1"}))));
  }
  NodeItems items_;
  rill::SharedMutex mu_;
};

TEST_F(MissingInputTest, EveryInputHeldIsFine) {
  TensorValue inputs[2] = {Value(1), Value(2)};
  EXPECT_EQ(FirstMissingInput(Item(items_, "plain"), inputs), -1);
}

TEST_F(MissingInputTest, AnEmptySlotIsInternalNamingTheNode) {
  TensorValue inputs[2] = {Value(1), TensorValue()};
  const NodeItem& plain = Item(items_, "plain");
  ASSERT_EQ(FirstMissingInput(plain, inputs), 1);
  EXPECT_THAT(MissingInputError(items_.nodes, plain, 1, inputs[1]),
              StatusIs(absl::StatusCode::kInternal,
                       "Input 1 of node plain from src has no value\n\t [[{{node plain}}]]"));
}

TEST_F(MissingInputTest, AnUninitializedVariableIsFailedPrecondition) {
  Tensor uninitialized;
  TensorValue inputs[1] = {Ref(&uninitialized, &mu_)};
  const NodeItem& reader = Item(items_, "reader");
  ASSERT_EQ(FirstMissingInput(reader, inputs), 0);
  EXPECT_THAT(MissingInputError(items_.nodes, reader, 0, inputs[0]),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "Attempting to use uninitialized value var\n\t [[{{node reader}}]]"));
  // The variable read as a value (its slot empty): still the variable's error.
  TensorValue empty[1];
  const NodeItem& deref = Item(items_, "deref");
  ASSERT_EQ(FirstMissingInput(deref, empty), 0);
  EXPECT_THAT(MissingInputError(items_.nodes, deref, 0, empty[0]),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "Attempting to use uninitialized value var\n\t [[{{node deref}}]]"));
  // Once initialized, the ref is fine.
  Tensor initialized = Tensor::Scalar<int32_t>(1);
  TensorValue ok[1] = {Ref(&initialized, &mu_)};
  EXPECT_EQ(FirstMissingInput(reader, ok), -1);
}

TEST_F(MissingInputTest, AnOpThatAllowsUninitializedInputTakesAnUninitializedRef) {
  Tensor uninitialized;
  TensorValue inputs[1] = {Ref(&uninitialized, &mu_)};
  EXPECT_EQ(FirstMissingInput(Item(items_, "init"), inputs), -1);
  // ... but not an empty value slot.
  TensorValue empty[1];
  EXPECT_EQ(FirstMissingInput(Item(items_, "init"), empty), 0);
}

TEST_F(MissingInputTest, AMergesDeadInputsAreNotMissing) {
  TensorValue inputs[2] = {TensorValue(), Value(1)};
  EXPECT_EQ(FirstMissingInput(Item(items_, "m"), inputs), -1);
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
