#pragma once
/// Intrusive doubly-linked list: the links live inside the element, so
/// putting an element on a list never allocates. Lists are null-terminated
/// (no sentinel), typed, and name the member that holds the links. Each link
/// also records which list it is on, so an element can be unlinked without
/// knowing the list: a phase moves its list aside before running it, and a
/// handle stopped during the pass must leave whichever list holds it.

#include <cassert>
#include <type_traits>

namespace phaseloop::detail {

/// The two pointers an element carries for one list it can be on.
template <class T>
struct link {
  T* prev = nullptr;
  T* next = nullptr;
  void* owner = nullptr;  // the ilist this element is on, or nullptr
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
/// assert it is not linked twice.
template <class T, auto L>
class ilist {
  using B = typename link_member<decltype(L)>::base;
  static_assert(std::is_base_of_v<B, T>);
  // The link's pointers have the base's type; the elements are all T's.
  static T* down(B* b) noexcept { return static_cast<T*>(b); }

 public:
  ilist() = default;
  ilist(const ilist&) = delete;
  ilist& operator=(const ilist&) = delete;

  bool empty() const noexcept { return head_ == nullptr; }
  T* front() const noexcept { return head_; }
  T* back() const noexcept { return tail_; }
  static T* next(const T& t) noexcept { return down((t.*L).next); }

  /// True when `t` is on this list.
  bool contains(const T& t) const noexcept { return (t.*L).owner == this; }
  /// True when `t` is on any list threaded through `L`.
  static bool linked(const T& t) noexcept { return (t.*L).owner != nullptr; }
  /// Removes `t` from whichever list threaded through `L` holds it.
  static void unlink(T& t) noexcept {
    if ((t.*L).owner) static_cast<ilist*>((t.*L).owner)->erase(t);
  }

  void push_front(T& t) noexcept {
    assert(!linked(t));
    (t.*L).owner = this;
    (t.*L).prev = nullptr;
    (t.*L).next = head_;
    if (head_) (head_->*L).prev = &t; else tail_ = &t;
    head_ = &t;
  }

  void push_back(T& t) noexcept {
    assert(!linked(t));
    (t.*L).owner = this;
    (t.*L).next = nullptr;
    (t.*L).prev = tail_;
    if (tail_) (tail_->*L).next = &t; else head_ = &t;
    tail_ = &t;
  }

  /// Inserts `t` before `pos` (which is on this list), or at the end when
  /// `pos` is nullptr.
  void insert_before(T* pos, T& t) noexcept {
    if (pos == nullptr) return push_back(t);
    assert(!linked(t) && contains(*pos));
    link<B>& p = pos->*L;
    (t.*L).owner = this;
    (t.*L).next = pos;
    (t.*L).prev = p.prev;
    if (p.prev) (p.prev->*L).next = &t; else head_ = &t;
    p.prev = &t;
  }

  void erase(T& t) noexcept {
    assert(contains(t));
    link<B>& l = t.*L;
    if (l.prev) (l.prev->*L).next = l.next; else head_ = down(l.next);
    if (l.next) (l.next->*L).prev = l.prev; else tail_ = down(l.prev);
    l.prev = l.next = nullptr;
    l.owner = nullptr;
  }

  /// Removes and returns the first element, or nullptr.
  T* pop_front() noexcept {
    T* t = head_;
    if (t) erase(*t);
    return t;
  }

  /// Moves all of `other` into this empty list in O(1). The moved links keep
  /// naming `other` as their list until adopt() runs: take a queue under a
  /// lock, then adopt it after releasing the lock.
  void take(ilist& other) noexcept {
    assert(empty());
    head_ = other.head_;
    tail_ = other.tail_;
    other.head_ = other.tail_ = nullptr;
  }
  /// Makes every element's link name this list (after take()).
  void adopt() noexcept {
    for (T* t = head_; t; t = down((t->*L).next)) (t->*L).owner = this;
  }

  /// Moves every element of `other` to the end of this list; `other` ends
  /// empty. O(length of other): each moved link learns its new owner.
  void splice_back(ilist& other) noexcept {
    if (other.empty()) return;
    for (T* t = other.head_; t; t = down((t->*L).next)) (t->*L).owner = this;
    if (tail_) {
      (tail_->*L).next = other.head_;
      (other.head_->*L).prev = tail_;
    } else {
      head_ = other.head_;
    }
    tail_ = other.tail_;
    other.head_ = other.tail_ = nullptr;
  }

 private:
  T* head_ = nullptr;
  T* tail_ = nullptr;
};

}  // namespace phaseloop::detail
