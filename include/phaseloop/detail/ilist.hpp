// SPDX-License-Identifier: MIT
#pragma once
/// Intrusive doubly-linked list, as libuv's queue: the links live inside the
/// element, so putting an element on a list never allocates, and a list is
/// circular through a sentinel link of its own, so every operation is O(1)
/// -- moving a whole list aside included, which is what a phase does before
/// running it -- and an element leaves whichever list holds it from its own
/// links alone (a handle stopped during a pass leaves the set-aside list).

#include <bit>
#include <cassert>
#include <cstddef>
#include <type_traits>

namespace phaseloop::detail {

/// The two pointers an element carries for one list it can be on: its
/// neighbours' links, null while it is on no list.
template <class T>
struct link {
  link* prev = nullptr;
  link* next = nullptr;
};

template <class M>
struct link_member;
template <class B>
struct link_member<link<B> B::*> {
  using base = B;
};

/// A list of T threaded through the member `L`: a `link<T>` of T's own, or
/// a `link<B>` that T inherits from its base B (every handle's `link_`).
/// One element can be on at most one list per link member; debug builds
/// assert it is not linked twice. A list points at itself: it cannot be
/// copied or moved.
template <class T, auto L>
class ilist {
  using B = typename link_member<decltype(L)>::base;
  using node = link<B>;
  static_assert(std::is_base_of_v<B, T>);
  // Where the link sits in B. (A pointer to data member is its offset in
  // the Itanium C++ ABI, which every target of this library follows; the
  // round trip through a real element is checked in debug builds.)
  // (Not a constant expression for the compiler, but folded to one.)
  static std::ptrdiff_t offset() noexcept { return std::bit_cast<std::ptrdiff_t>(L); }

  static node& link_of(const T& t) noexcept { return const_cast<node&>(t.*L); }
  static T* element(node* n) noexcept {
    B* b = reinterpret_cast<B*>(reinterpret_cast<char*>(n) - offset());
    return static_cast<T*>(b);
  }

 public:
  ilist() noexcept { head_.prev = head_.next = &head_; }
  ilist(const ilist&) = delete;
  ilist& operator=(const ilist&) = delete;

  bool empty() const noexcept { return head_.next == &head_; }
  T* front() const noexcept { return empty() ? nullptr : element(head_.next); }
  T* back() const noexcept { return empty() ? nullptr : element(head_.prev); }
  /// The element after `t` (which is on this list), or nullptr at the end.
  T* next(const T& t) const noexcept {
    node* n = link_of(t).next;
    return n == &head_ ? nullptr : element(n);
  }

  /// The element before `t` (which is on this list), or nullptr at the front.
  T* prev(const T& t) const noexcept {
    node* n = link_of(t).prev;
    return n == &head_ ? nullptr : element(n);
  }

  /// True when `t` is on this list. O(length): for assertions and cold paths.
  bool contains(const T& t) const noexcept {
    for (const node* n = head_.next; n != &head_; n = n->next)
      if (n == &link_of(t)) return true;
    return false;
  }
  /// True when `t` is on any list threaded through `L`.
  static bool linked(const T& t) noexcept { return link_of(t).next != nullptr; }
  /// Removes `t` from whichever list threaded through `L` holds it (nothing
  /// when it is on none).
  static void unlink(T& t) noexcept {
    node& n = link_of(t);
    if (n.next == nullptr) return;
    n.prev->next = n.next;
    n.next->prev = n.prev;
    n.prev = n.next = nullptr;
  }

  void push_front(T& t) noexcept { link_after(head_, t); }
  void push_back(T& t) noexcept { link_after(*head_.prev, t); }

  /// Inserts `t` before `pos` (which is on this list), or at the end when
  /// `pos` is nullptr.
  void insert_before(T* pos, T& t) noexcept {
    if (pos == nullptr) return push_back(t);
    assert(linked(*pos));
    link_after(*link_of(*pos).prev, t);
  }

  /// Removes `t`, which is on this list.
  void erase(T& t) noexcept {
    assert(linked(t));
    unlink(t);
  }

  /// Removes and returns the first element, or nullptr.
  T* pop_front() noexcept {
    T* t = front();
    if (t) unlink(*t);
    return t;
  }

  /// Moves the first element to the end of `dst` and returns it, or
  /// returns nullptr when this list is empty: one step of a pass over a
  /// list set aside (each element goes back to the live list before its
  /// callback).
  T* move_front_to_back_of(ilist& dst) noexcept {
    node* n = head_.next;
    if (n == &head_) return nullptr;
    head_.next = n->next;
    n->next->prev = &head_;
    n->prev = dst.head_.prev;
    n->next = &dst.head_;
    dst.head_.prev->next = n;
    dst.head_.prev = n;
    return element(n);
  }

  /// Moves every element of `other` to the end of this list in O(1);
  /// `other` ends empty.
  void splice_back(ilist& other) noexcept {
    if (other.empty()) return;
    node* first = other.head_.next;
    node* last = other.head_.prev;
    first->prev = head_.prev;
    head_.prev->next = first;
    last->next = &head_;
    head_.prev = last;
    other.head_.prev = other.head_.next = &other.head_;
  }

 private:
  void link_after(node& at, T& t) noexcept {
    node& n = link_of(t);
    assert(n.next == nullptr);
    assert(element(&n) == &t);
    n.prev = &at;
    n.next = at.next;
    at.next->prev = &n;
    at.next = &n;
  }

  node head_;  // the sentinel: next is the first element, prev the last
};

}  // namespace phaseloop::detail
