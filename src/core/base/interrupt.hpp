// Cooperative cancellation: long core loops call poll() every few thousand iterations; the PostgreSQL layer
// installs a callback that checks for a pending cancel and throws Error(cancelled) instead of longjmp-ing.
#pragma once

#include <cstdint>

namespace anon {

using InterruptCheck = void (*)();

// Installs the process-wide interrupt callback (nullptr: never interrupted). Returns the previous one.
InterruptCheck set_interrupt_check(InterruptCheck check);

// Calls the installed callback; it throws Error(ErrorKind::cancelled) when the job must stop.
void check_interrupts();

// Polls the callback once every `period` calls of tick(); cheap enough for inner loops.
class InterruptPoller {
public:
    explicit InterruptPoller(std::uint32_t period = 4096) : period_(period) {}
    void tick() {
        if (++n_ >= period_) {
            n_ = 0;
            check_interrupts();
        }
    }

private:
    std::uint32_t period_;
    std::uint32_t n_ = 0;
};

}  // namespace anon
