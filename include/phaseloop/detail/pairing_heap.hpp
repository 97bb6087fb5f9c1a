// SPDX-License-Identifier: MIT
#pragma once
/// Intrusive pairing heap: the min-heap that orders timers. Nodes live inside
/// the elements, so insert and remove never allocate. Insert is O(1); removing
/// the minimum or an arbitrary node is O(log n) amortized. The order must be
/// a strict total order (timers use (due, start sequence)), so the element
/// that comes out first never depends on the heap's shape.

#include <cassert>

namespace phaseloop::detail {

/// The three pointers a heap element carries, all null while it is in no
/// heap.
template <class T>
struct heap_node {
  T* child = nullptr;    // its first child
  T* sibling = nullptr;  // the next child of its parent
  T* prev = nullptr;     // the parent for a first child, else the left sibling
};

/// `Less` is a stateless functor: Less{}(a, b) is true when a goes first.
template <class T, heap_node<T> T::*N, class Less>
class pairing_heap {
 public:
  bool empty() const noexcept { return root_ == nullptr; }
  T* top() const noexcept { return root_; }

  void insert(T& t) noexcept {
    node(t) = heap_node<T>{};
    root_ = root_ ? meld(root_, &t) : &t;
  }

  void remove(T& t) noexcept {
    T* rest = merge_pairs(node(t).child);
    if (&t == root_) {
      root_ = rest;
    } else {
      cut(t);
      if (rest) root_ = meld(root_, rest);
    }
    node(t) = heap_node<T>{};
  }

 private:
  static heap_node<T>& node(T& t) noexcept { return t.*N; }

  // Makes the loser the first child of the winner; both must be roots.
  static T* meld(T* a, T* b) noexcept {
    if (Less{}(*b, *a)) {
      T* tmp = a;
      a = b;
      b = tmp;
    }
    heap_node<T>& an = node(*a);
    heap_node<T>& bn = node(*b);
    bn.sibling = an.child;
    if (an.child) node(*an.child).prev = b;
    bn.prev = a;
    an.child = b;
    an.sibling = nullptr;
    an.prev = nullptr;
    return a;
  }

  // Detaches a non-root node (and its subtree) from its parent or sibling.
  static void cut(T& t) noexcept {
    heap_node<T>& n = node(t);
    assert(n.prev != nullptr);
    heap_node<T>& p = node(*n.prev);
    if (p.child == &t) p.child = n.sibling; else p.sibling = n.sibling;
    if (n.sibling) node(*n.sibling).prev = n.prev;
    n.sibling = n.prev = nullptr;
  }

  // The standard two-pass merge: meld siblings pairwise left to right, then
  // meld the pairs right to left. The pairs are chained in reverse through
  // `sibling` so that the second pass needs no extra storage.
  static T* merge_pairs(T* first) noexcept {
    if (!first) return nullptr;
    T* pairs = nullptr;
    while (first) {
      T* a = first;
      T* b = node(*a).sibling;
      if (!b) {
        node(*a).sibling = pairs;
        pairs = a;
        break;
      }
      first = node(*b).sibling;
      node(*a).sibling = node(*b).sibling = nullptr;
      node(*a).prev = node(*b).prev = nullptr;
      T* m = meld(a, b);
      node(*m).sibling = pairs;
      pairs = m;
    }
    T* result = pairs;
    T* rest = node(*result).sibling;
    node(*result).sibling = nullptr;
    node(*result).prev = nullptr;
    while (rest) {
      T* n = node(*rest).sibling;
      node(*rest).sibling = nullptr;
      node(*rest).prev = nullptr;
      result = meld(result, rest);
      rest = n;
    }
    return result;
  }

  T* root_ = nullptr;
};

}  // namespace phaseloop::detail
