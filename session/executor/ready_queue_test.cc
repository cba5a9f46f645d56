// ReadyQueue: order, rewinding, compaction of a long-lived queue, moving a front run to another
// queue, and the iteration helpers.
#include "session/executor/ready_queue.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace executor_internal {
namespace {

TaggedNode Node(int id) { return TaggedNode{id, nullptr, 0, false}; }

std::vector<int> Drain(ReadyQueue& q) {
  std::vector<int> ids;
  while (!q.empty()) ids.push_back(q.pop_front().id);
  return ids;
}

TEST(ReadyQueueTest, FirstInFirstOutAndRewindsWhenEmptied) {
  ReadyQueue q;
  EXPECT_TRUE(q.empty());
  for (int i = 0; i < 3; ++i) q.push_back(Node(i));
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.pop_front().id, 0);
  EXPECT_EQ(q.consumed_for_test(), 1u);
  q.push_back(Node(3));
  EXPECT_EQ(Drain(q), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(q.consumed_for_test(), 0u);  // emptied: rewound
}

TEST(ReadyQueueTest, ALongLivedQueueDropsItsConsumedFront) {
  constexpr size_t k = ReadyQueue::kCompactAfterPopped;
  ReadyQueue q;
  for (size_t i = 0; i < 3 * k; ++i) q.push_back(Node(static_cast<int>(i)));
  for (size_t i = 0; i < k; ++i) q.pop_front();
  // k popped, but they are less than half of the vector: kept.
  EXPECT_EQ(q.consumed_for_test(), k);
  for (size_t i = 0; i < k / 2 - 1; ++i) q.pop_front();
  EXPECT_EQ(q.consumed_for_test(), k + k / 2 - 1);
  q.pop_front();  // now half of the vector is consumed: dropped
  EXPECT_EQ(q.consumed_for_test(), 0u);
  EXPECT_EQ(q.size(), 3 * k - k - k / 2);
  EXPECT_EQ(q.pop_front().id, static_cast<int>(k + k / 2));  // order kept
}

TEST(ReadyQueueTest, AQueueThatNeverEmptiesStaysWithinItsBound) {
  // A loop's thread: three nodes always queued, one popped for each pushed.
  constexpr size_t k = ReadyQueue::kCompactAfterPopped;
  ReadyQueue q;
  for (int i = 0; i < 3; ++i) q.push_back(Node(i));
  size_t most_consumed = 0;
  for (int i = 3; i < 10000; ++i) {
    q.push_back(Node(i));
    ASSERT_EQ(q.pop_front().id, i - 3);  // order kept across every compaction
    most_consumed = std::max(most_consumed, q.consumed_for_test());
  }
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(most_consumed, k - 1);
}

TEST(ReadyQueueTest, MoveFrontToHandsOverTheNextNodesInOrder) {
  ReadyQueue q, chunk;
  for (int i = 0; i < 6; ++i) q.push_back(Node(i));
  q.pop_front();
  chunk.push_back(Node(0));
  q.MoveFrontTo(chunk, 2);
  EXPECT_EQ(Drain(chunk), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(q.size(), 3u);
  ReadyQueue rest;
  q.MoveFrontTo(rest, 3);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.consumed_for_test(), 0u);
  EXPECT_EQ(Drain(rest), (std::vector<int>{3, 4, 5}));
}

TEST(ReadyQueueTest, ForEachSeesTheQueuedNodesAndForEachWhileStops) {
  ReadyQueue q;
  for (int i = 0; i < 5; ++i) q.push_back(Node(i));
  q.pop_front();
  std::vector<int> all, some;
  q.ForEach([&](const TaggedNode& t) { all.push_back(t.id); });
  q.ForEachWhile([&](const TaggedNode& t) {
    some.push_back(t.id);
    return t.id < 2;
  });
  EXPECT_EQ(all, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(some, (std::vector<int>{1, 2}));
  EXPECT_EQ(q.size(), 4u);  // neither pops
}

}  // namespace
}  // namespace executor_internal
}  // namespace rill
