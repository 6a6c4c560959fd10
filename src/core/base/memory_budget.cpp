#include "memory_budget.hpp"

#include <cstdio>

#include "error.hpp"

namespace anon {

namespace {
MemoryBudget* g_current = nullptr;
}

MemoryBudget::MemoryBudget(std::uint64_t limit_bytes, std::string setting)
    : limit_(limit_bytes), setting_(std::move(setting)) {}

bool MemoryBudget::fits(std::uint64_t bytes) const { return limit_ == 0 || current_ + bytes <= limit_; }

bool MemoryBudget::fits_optional(std::uint64_t bytes) const { return limit_ == 0 || current_ + bytes <= limit_ / 2; }

void MemoryBudget::charge(std::uint64_t bytes, const std::string& what, const char* remedy) {
    if (!fits(bytes))
        throw Error(ErrorKind::resource_limit,
                    "the job needs " + describe_bytes(current_ + bytes) + " of memory, more than " + setting_ + " = " +
                        describe_bytes(limit_),
                    what + " needs " + describe_bytes(bytes) + " with " + describe_bytes(current_) +
                        " already in use by the job's other structures.",
                    "Raise " + setting_ + ", or " +
                        (remedy != nullptr ? remedy
                                           : "anonymize fewer or coarser columns (memory grows with the distinct "
                                             "combinations of their values)") +
                        ".");
    current_ += bytes;
    if (current_ > peak_) peak_ = current_;
}

void MemoryBudget::release(std::uint64_t bytes) { current_ = bytes > current_ ? 0 : current_ - bytes; }

MemoryBudget* current_memory_budget() { return g_current; }

ScopedMemoryBudget::ScopedMemoryBudget(MemoryBudget& budget) : previous_(g_current) { g_current = &budget; }

ScopedMemoryBudget::~ScopedMemoryBudget() { g_current = previous_; }

MemoryCharge::~MemoryCharge() {
    if (budget_ != nullptr && budget_ == g_current) budget_->release(bytes_);
}

void MemoryCharge::resize(std::uint64_t bytes, const std::string& what, const char* remedy) {
    if (budget_ == nullptr) budget_ = g_current;
    if (budget_ == nullptr || budget_ != g_current) return;
    if (bytes > bytes_)
        budget_->charge(bytes - bytes_, what, remedy);
    else
        budget_->release(bytes_ - bytes);
    bytes_ = bytes;
}

std::uint64_t string_heap_bytes(std::size_t size) {
    static const std::size_t inline_capacity = std::string().capacity();
    return size > inline_capacity ? size + 1 : 0;
}

std::string describe_bytes(std::uint64_t bytes) {
    char buf[48];
    if (bytes >= 1024ULL * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.1f GB", bytes / (1024.0 * 1024 * 1024));
    else if (bytes >= 1024ULL * 1024)
        std::snprintf(buf, sizeof buf, "%.1f MB", bytes / (1024.0 * 1024));
    else
        std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1024.0);
    return buf;
}

}  // namespace anon
