#include <unistd.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/lists/tensor_list.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Shape(std::vector<int32_t> dims) {
  return Tensor::FromVector<int32_t>(dims, TensorShape({static_cast<int64_t>(dims.size())}));
}

Tensor FloatList(std::vector<Tensor> items, PartialTensorShape shape) {
  auto list = std::make_shared<TensorList>();
  list->element_dtype = DT_FLOAT;
  list->element_shape = std::move(shape);
  list->tensors = std::move(items);
  return TensorForList(std::move(list));
}

TEST(TensorListTest, ReserveThenStackFillsUnsetElementsWithZeros) {
  OpTester reserve("TensorListReserve");
  reserve.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32);
  reserve.Input(Shape({2})).Input(Tensor::Scalar<int32_t>(3));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> l, reserve.Run());
  OpTester set("TensorListSetItem");
  set.Attr("element_dtype", DT_FLOAT).Input(l[0]).Input(Tensor::Scalar<int32_t>(1));
  set.Input(Tensor::FromVector<float>({5, 6}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> l2, set.Run());
  // The input list is unchanged: lists are values.
  EXPECT_TRUE(l[0].flat<Variant>()[0].get<TensorList>()->tensors[1].IsInitialized() == false);
  OpTester stack("TensorListStack");
  stack.Attr("element_dtype", DT_FLOAT).Input(l2[0]).Input(Shape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, stack.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({0, 0, 5, 6, 0, 0}, TensorShape({3, 2})));
}

// SetItem updates a list nothing else holds in place (a loop's list, moved from step to step)
// and copies one that anything else can read; either way the output holds the same elements,
// non-finite values bit for bit, and the errors are the same.
TEST(TensorListTest, SetItemUpdatesAnUnsharedListInPlaceAndCopiesAShared) {
  OpTester set("TensorListSetItem");
  set.Attr("element_dtype", DT_FLOAT).Input(FloatList({}, PartialTensorShape({2})));
  set.Input(Tensor::Scalar<int32_t>(0)).Input(Tensor::FromVector<float>({0, 0}, TensorShape({2})));
  RILL_ASSERT_OK(set.Init());
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor item = Tensor::FromVector<float>({nan, -inf}, TensorShape({2}));
  // The list moved in (an initializer list would copy it: a second holder).
  auto run = [&](Tensor list, int32_t index) {
    std::vector<TensorValue> in;
    in.emplace_back(std::move(list), nullptr, nullptr);
    in.emplace_back(Tensor::Scalar<int32_t>(index), nullptr, nullptr);
    in.emplace_back(item, nullptr, nullptr);
    return set.RunWith(std::move(in));
  };
  auto held = [](const Tensor& t) { return t.flat<Variant>()[0].get<TensorList>(); };
  const Tensor two = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  // Unshared: the output is the input's list, element 1 replaced.
  Tensor mine = FloatList({two, Tensor()}, PartialTensorShape({2}));
  const TensorList* before = held(mine);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<TensorValue> out, run(std::move(mine), 1));
  EXPECT_EQ(held(out[0].tensor), before);
  ASSERT_EQ(held(out[0].tensor)->tensors.size(), 2u);
  ExpectTensorEqual(held(out[0].tensor)->tensors[0], two);
  EXPECT_TRUE(held(out[0].tensor)->tensors[1].SharesBufferWith(item));
  // Shared through another tensor of the same buffer, or through another Variant of the same
  // list: the input list keeps its element 1 unset and the output is a new list.
  const Tensor kept = FloatList({two, Tensor()}, PartialTensorShape({2}));
  for (bool same_buffer : {true, false}) {
    Tensor reader(DT_VARIANT, TensorShape());
    if (same_buffer) {
      reader = kept;
    } else {
      reader.flat<Variant>()[0] = kept.flat<Variant>()[0];
    }
    RILL_ASSERT_OK_AND_ASSIGN(out, run(std::move(reader), 1));
    EXPECT_NE(held(out[0].tensor), held(kept));
    EXPECT_FALSE(held(kept)->tensors[1].IsInitialized());
    ExpectTensorEqual(held(out[0].tensor)->tensors[0], two);
    EXPECT_TRUE(held(out[0].tensor)->tensors[1].SharesBufferWith(item));
  }
  // The errors, unshared as shared, and an unshared list left as it was.
  Tensor bad = FloatList({two}, PartialTensorShape({2}));
  const TensorList* bad_list = held(bad);
  Tensor bad_copy = bad;
  EXPECT_THAT(run(std::move(bad_copy), 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Trying to modify element 3 in a list with 1 elements."));
  EXPECT_EQ(bad_list->tensors.size(), 1u);
  EXPECT_THAT(run(FloatList({two}, PartialTensorShape({2})), -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Trying to modify element -1 in a list with 1 elements."));
}

TEST(TensorListTest, ConcatJoinsElementsAndSizesUnsetOnesFromLeadingDims) {
  Tensor list = FloatList({Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2})), Tensor(),
                           Tensor::FromVector<float>({5, 6}, TensorShape({1, 2}))},
                          PartialTensorShape({-1, 2}));
  OpTester concat("TensorListConcatV2");
  concat.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32);
  concat.Input(list).Input(Shape({-1, 2}));
  concat.Input(Tensor::FromVector<int64_t>({9, 1, 9}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, concat.Run());
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<float>({1, 2, 3, 4, 0, 0, 5, 6}, TensorShape({4, 2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({2, 1, 1}, TensorShape({3})));
}

TEST(TensorListTest, SplitMakesElementsOfTheGivenLengthsAndChecksThem) {
  auto split = [](const Tensor& t, const Tensor& shape, std::vector<int64_t> lengths) {
    OpTester op("TensorListSplit");
    op.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32);
    op.Input(t).Input(shape).Input(
        Tensor::FromVector<int64_t>(lengths, TensorShape({static_cast<int64_t>(lengths.size())})));
    return op.Run();
  };
  const Tensor t = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> l, split(t, Shape({-1, 2}), {2, 0, 1}));
  const TensorList* list = l[0].flat<Variant>()[0].get<TensorList>();
  ASSERT_EQ(list->tensors.size(), 3u);
  ExpectTensorEqual(list->tensors[0], Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2})));
  EXPECT_EQ(list->tensors[1].shape(), TensorShape({0, 2}));
  ExpectTensorEqual(list->tensors[2], Tensor::FromVector<float>({5, 6}, TensorShape({1, 2})));
  EXPECT_THAT(split(t, Shape({-1, 2}), {1, 1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Unused values in tensor. Length of tensor: 3 Values used: 2"));
  EXPECT_THAT(split(t, Shape({-1, 2}), {2, 2}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Attempting to slice [2, 4] from tensor with length 3"));
  EXPECT_THAT(split(t, Shape({-1, 2}), {-1, 4}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid value in lengths: -1"));
  EXPECT_THAT(split(t, Shape({-1, 3}), {3}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "tensor shape [3,2] is not compatible with element_shape [?,3]"));
}

TEST(TensorListTest, DtypeMismatchIsTensorFlowsError) {
  OpTester get("TensorListGetItem");
  get.Attr("element_dtype", DT_INT32)
      .Input(FloatList({Tensor::Scalar<float>(1)}, PartialTensorShape()))
      .Input(Tensor::Scalar<int32_t>(0))
      .Input(Tensor::Scalar<int32_t>(-1));
  EXPECT_THAT(get.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Invalid data types; op elements int32 but list elements float"));
}

TEST(TensorListTest, NonListInputIsInvalidArgumentNamingTheOp) {
  OpTester len("TensorListLength");
  Tensor empty_variant(DT_VARIANT, TensorShape());
  len.Input(empty_variant);
  EXPECT_THAT(len.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "TensorListLength: input_handle is not a TensorList (it holds empty)"));
}

TEST(TensorListTest, UnsetElementWithUnknownShapeCannotBeRead) {
  OpTester get("TensorListGetItem");
  get.Attr("element_dtype", DT_FLOAT)
      .Input(FloatList({Tensor()}, PartialTensorShape({-1})))
      .Input(Tensor::Scalar<int32_t>(0))
      .Input(Tensor::Scalar<int32_t>(-1));
  EXPECT_THAT(get.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Trying to read an uninitialized tensor but element_shape is "
                                 "not fully defined: [?]")));
}

TEST(TensorListTest, PushPopAndElementShape) {
  OpTester push("TensorListPushBack");
  push.Attr("element_dtype", DT_FLOAT)
      .Input(FloatList({}, PartialTensorShape({-1, 2})))
      .Input(Tensor::FromVector<float>({1, 2}, TensorShape({1, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> pushed, push.Run());
  OpTester shape("TensorListElementShape");
  shape.Attr("shape_type", DT_INT64).Input(pushed[0]);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> s, shape.Run());
  ExpectTensorEqual(s[0], Tensor::FromVector<int64_t>({-1, 2}, TensorShape({2})));
  OpTester pop("TensorListPopBack");
  pop.Attr("element_dtype", DT_FLOAT).Input(pushed[0]).Input(Tensor::Scalar<int32_t>(-1));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> popped, pop.Run());
  ExpectTensorEqual(popped[1], Tensor::FromVector<float>({1, 2}, TensorShape({1, 2})));
  EXPECT_TRUE(popped[0].flat<Variant>()[0].get<TensorList>()->tensors.empty());
  // A wrong element shape is refused.
  OpTester bad("TensorListPushBack");
  bad.Attr("element_dtype", DT_FLOAT)
      .Input(FloatList({}, PartialTensorShape({-1, 2})))
      .Input(Tensor::FromVector<float>({1, 2, 3}, TensorShape({1, 3})));
  EXPECT_THAT(bad.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Tried to append a tensor with incompatible shape to a list. Op element "
                       "shape: [1,3] list shape: [?,2]"));
}

TEST(TensorListTest, ElementShapeInputMustBeAVectorOrMinusOne) {
  OpTester reserve("TensorListReserve");
  reserve.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32);
  reserve.Input(Tensor::Scalar<int32_t>(3)).Input(Tensor::Scalar<int32_t>(1));
  EXPECT_THAT(reserve.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The only valid scalar shape tensor is the fully unknown shape specified "
                       "as -1."));
}

// Issue 26: sizes read from values are checked: a TensorList count the host cannot hold is
// ResourceExhausted, not std::length_error / std::bad_alloc (or the OOM killer) ending the
// process.
TEST(TensorListTest, ReserveAndSetItemPastMemoryAreResourceExhausted) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  const uint64_t physical =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (uint64_t{kMax} * sizeof(Tensor) <= physical) GTEST_SKIP() << "this host could hold them";
  const auto oom = StatusIs(absl::StatusCode::kResourceExhausted,
                            HasSubstr("OOM when allocating a TensorList of "));
  OpTester reserve("TensorListReserve");
  reserve.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32);
  reserve.Input(Shape({2})).Input(Tensor::Scalar<int32_t>(kMax));
  EXPECT_THAT(reserve.Run(), oom);
  OpTester set("TensorListSetItem");
  set.Attr("element_dtype", DT_FLOAT).Attr("resize_if_index_out_of_bounds", true);
  set.Input(FloatList({}, PartialTensorShape({2}))).Input(Tensor::Scalar<int32_t>(kMax - 1));
  set.Input(Tensor::FromVector<float>({5, 6}, TensorShape({2})));
  EXPECT_THAT(set.Run(), oom);
}

// A vector variant tensor holding `lists` (a batch, as tf.stack of list handles makes).
Tensor ListBatch(std::vector<Tensor> lists) {
  Tensor batch(DT_VARIANT, TensorShape({static_cast<int64_t>(lists.size())}));
  for (size_t i = 0; i < lists.size(); ++i) batch.flat<Variant>()[i] = lists[i].flat<Variant>()[0];
  return batch;
}

Tensor Stacked(const Variant& list, std::vector<int32_t> shape) {
  OpTester stack("TensorListStack");
  stack.Attr("element_dtype", DT_FLOAT)
      .Input(TensorForList(std::static_pointer_cast<const TensorList>(list.value())))
      .Input(Shape(std::move(shape)));
  absl::StatusOr<std::vector<Tensor>> out = stack.Run();
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? (*out)[0] : Tensor();
}

Tensor Vec(std::vector<float> v) {
  return Tensor::FromVector<float>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

TEST(TensorListTest, PushBackBatchPushesRowIOntoListI) {
  Tensor a = FloatList({Vec({1, 2})}, PartialTensorShape({2}));
  Tensor b = FloatList({}, PartialTensorShape({-1}));
  OpTester push("TensorListPushBackBatch");
  push.Attr("element_dtype", DT_FLOAT).Input(ListBatch({a, b}));
  push.Input(Tensor::FromVector<float>({5, 6, 7, 8}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, push.Run());
  ASSERT_EQ(out[0].shape(), TensorShape({2}));
  ExpectTensorEqual(Stacked(out[0].flat<Variant>()[0], {2}),
                    Tensor::FromVector<float>({1, 2, 5, 6}, TensorShape({2, 2})));
  ExpectTensorEqual(Stacked(out[0].flat<Variant>()[1], {2}),
                    Tensor::FromVector<float>({7, 8}, TensorShape({1, 2})));
  // The inputs are values: list a still has one element.
  EXPECT_EQ(a.flat<Variant>()[0].get<TensorList>()->tensors.size(), 1u);
}

TEST(TensorListTest, PushBackBatchErrors) {
  Tensor a = FloatList({}, PartialTensorShape({3}));
  auto run = [&](const Tensor& handles, const Tensor& t) {
    OpTester push("TensorListPushBackBatch");
    push.Attr("element_dtype", DT_FLOAT).Input(handles).Input(t);
    return push.Run().status();
  };
  const Tensor rows = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  EXPECT_THAT(run(a, rows), StatusIs(absl::StatusCode::kInvalidArgument,
                                     "Expected input_handles to be a vector, but saw shape: []"));
  EXPECT_THAT(run(ListBatch({a}), rows),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected tensor.shape[0] == input_handles.size, but saw 2 vs. 1"));
  EXPECT_THAT(run(ListBatch({a, a}), Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Tried to append a tensor with incompatible shape to a list at index 0. Op "
                       "element shape: [2] list shape: [3]"));
  auto full = std::make_shared<TensorList>();
  full->element_dtype = DT_FLOAT;
  full->max_num_elements = 0;
  EXPECT_THAT(run(ListBatch({a, TensorForList(full)}), rows),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Tried to push item into a full list at list index 1 list size: 0 "
                       "max_num_elements: 0"));
}

TEST(TensorListTest, ConcatListsJoinsEachPairOfABatch) {
  Tensor a0 = FloatList({Vec({1, 2})}, PartialTensorShape({2}));
  Tensor a1 = FloatList({}, PartialTensorShape({2}));
  Tensor b0 = FloatList({Vec({3, 4}), Vec({5, 6})}, PartialTensorShape({2}));
  OpTester concat("TensorListConcatLists");
  concat.Attr("element_dtype", DT_FLOAT).Input(ListBatch({a0, a1})).Input(ListBatch({b0, a0}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, concat.Run());
  ExpectTensorEqual(Stacked(out[0].flat<Variant>()[0], {2}),
                    Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})));
  ExpectTensorEqual(Stacked(out[0].flat<Variant>()[1], {2}),
                    Tensor::FromVector<float>({1, 2}, TensorShape({1, 2})));
  OpTester bad("TensorListConcatLists");
  bad.Attr("element_dtype", DT_FLOAT).Input(ListBatch({a0, a1})).Input(ListBatch({b0}));
  EXPECT_THAT(bad.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "input_a and input_b must have the same shape, but saw: [2] vs. [1]"));
}

// Where TensorFlow does not check (and reads or writes outside the list), Rill's errors.
TEST(TensorListTest, ScatterIntoExistingListRefusesNegativeIndicesAndOtherShapes) {
  Tensor list = FloatList({Vec({1, 2}), Vec({3, 4})}, PartialTensorShape({2}));
  auto run = [&](const Tensor& t, std::vector<int32_t> indices) {
    OpTester scatter("TensorListScatterIntoExistingList");
    scatter.Attr("element_dtype", DT_FLOAT).Input(list).Input(t).Input(Shape(std::move(indices)));
    return scatter.Run().status();
  };
  EXPECT_THAT(run(Tensor::FromVector<float>({5, 6}, TensorShape({1, 2})), {-1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Indices in TensorListScatter must all be non-negative."));
  EXPECT_THAT(run(Tensor::FromVector<float>({5, 6, 7}, TensorShape({1, 3})), {0}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Tried to scatter a tensor with incompatible shape into a list. Tensor "
                       "element shape: [3] list shape: [2]"));
}

TEST(TensorListTest, ScatterAndResizePastMemoryAreResourceExhausted) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  const uint64_t physical =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (uint64_t{kMax} * sizeof(Tensor) <= physical) GTEST_SKIP() << "this host could hold them";
  const auto oom = StatusIs(absl::StatusCode::kResourceExhausted,
                            HasSubstr("OOM when allocating a TensorList of "));
  OpTester scatter("TensorListScatter");
  scatter.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32);
  scatter.Input(Tensor::FromVector<float>({5, 6}, TensorShape({1, 2})));
  scatter.Input(Shape({kMax - 1})).Input(Shape({2}));
  EXPECT_THAT(scatter.Run(), oom);
  OpTester resize("TensorListResize");
  resize.Input(FloatList({}, PartialTensorShape({2}))).Input(Tensor::Scalar<int32_t>(kMax));
  EXPECT_THAT(resize.Run(), oom);
}

}  // namespace
}  // namespace rill
