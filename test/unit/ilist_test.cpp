// SPDX-License-Identifier: MIT
// detail::ilist: the intrusive list behind every handle queue.

#include <random>
#include <vector>
#include <list>

#include <gtest/gtest.h>

#include "phaseloop/detail/ilist.hpp"

namespace {

using phaseloop::detail::link;

struct node {
  int value = 0;
  link<node> a;  // two independent lists through two link members
  link<node> b;
};

using list_a = phaseloop::detail::ilist<node, &node::a>;
using list_b = phaseloop::detail::ilist<node, &node::b>;

template <class L>
std::vector<int> values(const L& l) {
  std::vector<int> out;
  for (node* n = l.front(); n; n = l.next(*n)) out.push_back(n->value);
  return out;
}

// Walks backwards from back() through the prev links.
std::vector<int> values_backwards(const list_a& l) {
  std::vector<int> out;
  for (node* n = l.back(); n; n = l.prev(*n)) out.insert(out.begin(), n->value);
  return out;
}

TEST(ilist, push_back_and_push_front_order) {
  node n[4];
  for (int i = 0; i < 4; i++) n[i].value = i;
  list_a l;
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.front(), nullptr);
  EXPECT_EQ(l.back(), nullptr);
  l.push_back(n[1]);
  l.push_back(n[2]);
  l.push_front(n[0]);
  l.push_back(n[3]);
  EXPECT_FALSE(l.empty());
  EXPECT_EQ(values(l), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(values_backwards(l), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(l.front(), &n[0]);
  EXPECT_EQ(l.back(), &n[3]);
  while (l.pop_front()) {
  }
}

TEST(ilist, erase_from_front_middle_and_back) {
  node n[5];
  for (int i = 0; i < 5; i++) n[i].value = i;
  list_a l;
  for (node& x : n) l.push_back(x);
  l.erase(n[2]);
  EXPECT_EQ(values(l), (std::vector<int>{0, 1, 3, 4}));
  l.erase(n[0]);
  EXPECT_EQ(values(l), (std::vector<int>{1, 3, 4}));
  l.erase(n[4]);
  EXPECT_EQ(values(l), (std::vector<int>{1, 3}));
  EXPECT_EQ(values_backwards(l), (std::vector<int>{1, 3}));
  EXPECT_FALSE(list_a::linked(n[2]));
  EXPECT_EQ(n[2].a.prev, nullptr);
  EXPECT_EQ(n[2].a.next, nullptr);
  l.erase(n[1]);
  l.erase(n[3]);
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.back(), nullptr);
}

TEST(ilist, pop_front_returns_elements_in_order_then_null) {
  node n[3];
  for (int i = 0; i < 3; i++) n[i].value = i;
  list_a l;
  for (node& x : n) l.push_back(x);
  EXPECT_EQ(l.pop_front(), &n[0]);
  EXPECT_EQ(l.pop_front(), &n[1]);
  EXPECT_EQ(l.pop_front(), &n[2]);
  EXPECT_EQ(l.pop_front(), nullptr);
  EXPECT_TRUE(l.empty());
  for (node& x : n) EXPECT_FALSE(list_a::linked(x));
}

TEST(ilist, insert_before_positions) {
  node n[5];
  for (int i = 0; i < 5; i++) n[i].value = i;
  list_a l;
  l.push_back(n[2]);
  l.insert_before(&n[2], n[0]);  // new head
  l.insert_before(&n[2], n[1]);  // middle
  l.insert_before(nullptr, n[4]);  // end
  l.insert_before(&n[4], n[3]);
  EXPECT_EQ(values(l), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(values_backwards(l), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(l.front(), &n[0]);
  EXPECT_EQ(l.back(), &n[4]);
  while (l.pop_front()) {
  }
}

TEST(ilist, contains_linked_and_unlink_know_the_owning_list) {
  node x, y;
  list_a l1, l2;
  l1.push_back(x);
  l2.push_back(y);
  EXPECT_TRUE(l1.contains(x));
  EXPECT_FALSE(l2.contains(x));
  EXPECT_TRUE(list_a::linked(x));
  // unlink finds the list on its own.
  list_a::unlink(x);
  EXPECT_TRUE(l1.empty());
  EXPECT_FALSE(list_a::linked(x));
  list_a::unlink(x);  // not linked: no effect
  EXPECT_TRUE(l1.empty());
  EXPECT_FALSE(l2.empty());
  list_a::unlink(y);
  EXPECT_TRUE(l2.empty());
}

TEST(ilist, splice_back_moves_everything) {
  node n[6];
  for (int i = 0; i < 6; i++) n[i].value = i;
  list_a dst, src, empty;
  dst.push_back(n[0]);
  dst.push_back(n[1]);
  for (int i = 2; i < 6; i++) src.push_back(n[i]);
  dst.splice_back(src);
  EXPECT_TRUE(src.empty());
  EXPECT_EQ(src.back(), nullptr);
  EXPECT_EQ(values(dst), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(values_backwards(dst), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  for (node& x : n) EXPECT_TRUE(dst.contains(x));
  // unlink of a moved element removes it from its new list.
  list_a::unlink(n[3]);
  EXPECT_EQ(values(dst), (std::vector<int>{0, 1, 2, 4, 5}));
  // Splicing an empty list changes nothing; splicing into an empty one works.
  dst.splice_back(empty);
  EXPECT_EQ(values(dst), (std::vector<int>{0, 1, 2, 4, 5}));
  empty.splice_back(dst);
  EXPECT_TRUE(dst.empty());
  EXPECT_EQ(values(empty), (std::vector<int>{0, 1, 2, 4, 5}));
  EXPECT_EQ(empty.back(), &n[5]);
  while (empty.pop_front()) {
  }
}

// What a phase does: move the live list aside, then put each element back
// before its callback; a callback may stop (unlink) an element still in
// the set-aside list, or start one anew on the live list.
TEST(ilist, a_pass_over_a_list_moved_aside) {
  node n[5];
  for (int i = 0; i < 5; i++) n[i].value = i;
  list_a live;
  for (int i = 0; i < 4; i++) live.push_back(n[i]);
  list_a pass;
  pass.splice_back(live);
  EXPECT_TRUE(live.empty());
  std::vector<int> ran;
  while (node* x = pass.pop_front()) {
    live.push_back(*x);
    ran.push_back(x->value);
    if (x->value == 1) {
      list_a::unlink(n[2]);  // stopped before its turn: not run
      live.push_back(n[4]);  // started during the pass: runs next pass
    }
  }
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(values(live), (std::vector<int>{0, 1, 4, 3}));
  EXPECT_FALSE(list_a::linked(n[2]));
  while (live.pop_front()) {
  }
}

TEST(ilist, an_element_can_be_on_one_list_per_link_member) {
  node n[3];
  for (int i = 0; i < 3; i++) n[i].value = i;
  list_a la;
  list_b lb;
  for (node& x : n) la.push_back(x);
  for (int i = 2; i >= 0; i--) lb.push_back(n[i]);
  EXPECT_EQ(values(la), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(values(lb), (std::vector<int>{2, 1, 0}));
  lb.erase(n[1]);
  EXPECT_EQ(values(la), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(values(lb), (std::vector<int>{2, 0}));
  while (la.pop_front()) {
  }
  while (lb.pop_front()) {
  }
}

TEST(ilist, randomized_against_std_list) {
  std::mt19937 rng(7);
  constexpr int n = 64;
  std::vector<node> nodes(n);
  for (int i = 0; i < n; i++) nodes[i].value = i;
  list_a l;
  std::list<int> model;
  for (int step = 0; step < 5000; step++) {
    const int idx = static_cast<int>(rng() % n);
    node& x = nodes[idx];
    if (list_a::linked(x)) {
      l.erase(x);
      model.remove(idx);
    } else {
      switch (rng() % 3) {
        case 0:
          l.push_back(x);
          model.push_back(idx);
          break;
        case 1:
          l.push_front(x);
          model.push_front(idx);
          break;
        default: {
          node* pos = l.front();
          auto it = model.begin();
          const std::size_t skip = model.empty() ? 0 : rng() % (model.size() + 1);
          for (std::size_t k = 0; k < skip && pos; k++) {
            pos = l.next(*pos);
            ++it;
          }
          l.insert_before(pos, x);
          model.insert(it, idx);
        }
      }
    }
    ASSERT_EQ(values(l), std::vector<int>(model.begin(), model.end())) << "step " << step;
  }
  EXPECT_EQ(values_backwards(l), std::vector<int>(model.begin(), model.end()));
  while (l.pop_front()) {
  }
}

}  // namespace
