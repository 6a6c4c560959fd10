// Accounting of a job's large structures (the frequency set and its read, the roll-up cache, the algorithms'
// working sets and the release) against a budget the caller passes in as a number (the PostgreSQL layer's
// anon.memory_limit), so that a job too large for its budget ends with a clear error before it allocates the
// structure that would exceed it, instead of swapping; the peak is reported. The core stays independent of
// PostgreSQL: the budget is a byte count and the name of the setting that raises it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace anon {

class MemoryBudget {
public:
    // `limit_bytes` 0 means no limit; `setting` names what raises the limit, for the error's hint.
    MemoryBudget(std::uint64_t limit_bytes, std::string setting);

    // Accounts `bytes` more for `what`; throws Error(resource_limit) saying what was needed, what is accounted
    // in all, the limit and the setting to raise, when the total would exceed the limit (nothing is charged then).
    // `remedy`: what else the hint suggests (nullptr: anonymizing fewer or coarser columns).
    void charge(std::uint64_t bytes, const std::string& what, const char* remedy = nullptr);
    // True when `bytes` more stay within the limit.
    bool fits(std::uint64_t bytes) const;
    // True when `bytes` more of an optional structure (a cache, which only saves time) keep the total within half
    // the limit, so the structures a job cannot do without keep the other half to grow into.
    bool fits_optional(std::uint64_t bytes) const;
    void release(std::uint64_t bytes);

    std::uint64_t current() const { return current_; }
    std::uint64_t peak() const { return peak_; }
    std::uint64_t limit() const { return limit_; }

private:
    std::uint64_t limit_;
    std::string setting_;
    std::uint64_t current_ = 0;
    std::uint64_t peak_ = 0;
};

// The budget of the running job; nullptr outside one (nothing is accounted then).
MemoryBudget* current_memory_budget();

// Installs a budget as the current one for a scope (one job), restoring the previous one when it ends.
class ScopedMemoryBudget {
public:
    explicit ScopedMemoryBudget(MemoryBudget& budget);
    ~ScopedMemoryBudget();
    ScopedMemoryBudget(const ScopedMemoryBudget&) = delete;
    ScopedMemoryBudget& operator=(const ScopedMemoryBudget&) = delete;

private:
    MemoryBudget* previous_;
};

// A charge against the current budget held while a structure lives: resize() accounts a new size (throwing like
// MemoryBudget::charge when it grows past the limit), the destructor releases it. No-op without a current budget.
class MemoryCharge {
public:
    MemoryCharge() = default;
    MemoryCharge(std::uint64_t bytes, const std::string& what, const char* remedy = nullptr) {
        resize(bytes, what, remedy);
    }
    ~MemoryCharge();
    MemoryCharge(const MemoryCharge&) = delete;
    MemoryCharge& operator=(const MemoryCharge&) = delete;

    void resize(std::uint64_t bytes, const std::string& what, const char* remedy = nullptr);
    std::uint64_t bytes() const { return bytes_; }

private:
    MemoryBudget* budget_ = nullptr;
    std::uint64_t bytes_ = 0;
};

// Bytes a vector holds on the heap.
template <typename T>
std::uint64_t heap_bytes(const std::vector<T>& v) {
    return static_cast<std::uint64_t>(v.capacity()) * sizeof(T);
}

// Heap bytes of a std::string of `size` bytes: none when the standard library keeps it inline.
std::uint64_t string_heap_bytes(std::size_t size);

// "12.3 MB" style text of a byte count, for messages.
std::string describe_bytes(std::uint64_t bytes);

}  // namespace anon
