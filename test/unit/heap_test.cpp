// SPDX-License-Identifier: MIT
// detail::pairing_heap, checked against std::set on random operation mixes
// (insert, pop the minimum, remove an arbitrary element).

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "phaseloop/detail/pairing_heap.hpp"

namespace {

using phaseloop::detail::heap_node;

struct item {
  int key = 0;
  int seq = 0;  // tie-breaker: makes the order total, as timers do
  bool in_heap = false;
  heap_node<item> node;
};

struct item_less {
  bool operator()(const item& a, const item& b) const noexcept {
    return a.key < b.key || (a.key == b.key && a.seq < b.seq);
  }
};

using heap = phaseloop::detail::pairing_heap<item, &item::node, item_less>;
using model = std::set<std::pair<int, int>>;

std::pair<int, int> key_of(const item& i) { return {i.key, i.seq}; }

TEST(heap, empty_heap_has_no_top) {
  heap h;
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.top(), nullptr);
}

TEST(heap, pops_in_sorted_order) {
  std::vector<item> items(200);
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> key(0, 50);  // many duplicate keys
  heap h;
  for (int i = 0; i < static_cast<int>(items.size()); i++) {
    items[i].key = key(rng);
    items[i].seq = i;
    h.insert(items[i]);
  }
  std::vector<std::pair<int, int>> expected;
  for (const item& i : items) expected.push_back(key_of(i));
  std::sort(expected.begin(), expected.end());
  std::vector<std::pair<int, int>> got;
  while (item* t = h.top()) {
    got.push_back(key_of(*t));
    h.remove(*t);
  }
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(h.empty());
}

TEST(heap, equal_keys_come_out_in_insertion_sequence) {
  std::vector<item> items(20);
  heap h;
  // Insert in a scrambled order; seq decides among equal keys.
  for (int i : {7, 3, 19, 0, 12, 5, 1, 18, 9, 2, 16, 4, 11, 6, 15, 8, 14, 10, 17, 13}) {
    items[i].key = 42;
    items[i].seq = i;
    h.insert(items[i]);
  }
  for (int i = 0; i < 20; i++) {
    ASSERT_NE(h.top(), nullptr);
    EXPECT_EQ(h.top()->seq, i);
    h.remove(*h.top());
  }
  EXPECT_TRUE(h.empty());
}

TEST(heap, removing_arbitrary_elements_keeps_order) {
  std::vector<item> items(100);
  heap h;
  model m;
  for (int i = 0; i < 100; i++) {
    items[i].key = (i * 37) % 23;
    items[i].seq = i;
    h.insert(items[i]);
    m.insert(key_of(items[i]));
  }
  // Remove every third element, root or not.
  for (int i = 0; i < 100; i += 3) {
    h.remove(items[i]);
    m.erase(key_of(items[i]));
    ASSERT_NE(h.top(), nullptr);
    EXPECT_EQ(key_of(*h.top()), *m.begin());
  }
  while (!m.empty()) {
    ASSERT_NE(h.top(), nullptr);
    EXPECT_EQ(key_of(*h.top()), *m.begin());
    h.remove(*h.top());
    m.erase(m.begin());
  }
  EXPECT_TRUE(h.empty());
}

TEST(heap, randomized_against_std_set) {
  for (unsigned seed : {1u, 2u, 3u, 42u, 2024u}) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    constexpr int n = 400;
    std::vector<item> items(n);
    heap h;
    model m;
    int next_seq = 0;
    std::vector<int> in_heap;  // indices of items currently in the heap
    std::vector<int> free_slots;
    for (int i = n - 1; i >= 0; i--) free_slots.push_back(i);
    std::uniform_int_distribution<int> key(0, 100);
    for (int step = 0; step < 20000; step++) {
      const int op = static_cast<int>(rng() % 10);
      if (op < 5 && !free_slots.empty()) {
        // insert (also re-inserts items that were removed earlier)
        const int idx = free_slots.back();
        free_slots.pop_back();
        items[idx].key = key(rng);
        items[idx].seq = next_seq++;
        items[idx].in_heap = true;
        h.insert(items[idx]);
        m.insert(key_of(items[idx]));
        in_heap.push_back(idx);
      } else if (op < 7 && !in_heap.empty()) {
        // pop the minimum
        item* t = h.top();
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(key_of(*t), *m.begin());
        h.remove(*t);
        m.erase(m.begin());
        t->in_heap = false;
        const int idx = static_cast<int>(t - items.data());
        in_heap.erase(std::find(in_heap.begin(), in_heap.end(), idx));
        free_slots.push_back(idx);
      } else if (!in_heap.empty()) {
        // remove an arbitrary element
        const std::size_t pos = rng() % in_heap.size();
        const int idx = in_heap[pos];
        in_heap[pos] = in_heap.back();
        in_heap.pop_back();
        h.remove(items[idx]);
        ASSERT_EQ(m.erase(key_of(items[idx])), 1u);
        items[idx].in_heap = false;
        free_slots.push_back(idx);
      }
      // The heap's minimum must always be the model's.
      if (m.empty()) {
        ASSERT_TRUE(h.empty());
        ASSERT_EQ(h.top(), nullptr);
      } else {
        ASSERT_NE(h.top(), nullptr);
        ASSERT_EQ(key_of(*h.top()), *m.begin()) << "step " << step;
        ASSERT_TRUE(h.top()->in_heap);
      }
    }
    // Drain: sorted order.
    while (!m.empty()) {
      ASSERT_EQ(key_of(*h.top()), *m.begin());
      h.remove(*h.top());
      m.erase(m.begin());
    }
    EXPECT_TRUE(h.empty());
  }
}

TEST(heap, removed_node_is_reset_and_can_be_reinserted) {
  item a, b, c;
  a.key = 1;
  b.key = 2;
  c.key = 3;
  heap h;
  h.insert(c);
  h.insert(a);
  h.insert(b);
  h.remove(b);  // not the root
  EXPECT_EQ(b.node.child, nullptr);
  EXPECT_EQ(b.node.sibling, nullptr);
  EXPECT_EQ(b.node.prev, nullptr);
  b.key = 0;
  h.insert(b);
  EXPECT_EQ(h.top(), &b);
  h.remove(b);
  EXPECT_EQ(h.top(), &a);
  h.remove(a);
  EXPECT_EQ(h.top(), &c);
  h.remove(c);
  EXPECT_TRUE(h.empty());
}

}  // namespace
