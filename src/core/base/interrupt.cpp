#include "interrupt.hpp"

namespace anon {

namespace {
InterruptCheck g_check = nullptr;
}

InterruptCheck set_interrupt_check(InterruptCheck check) {
    InterruptCheck previous = g_check;
    g_check = check;
    return previous;
}

void check_interrupts() {
    if (g_check != nullptr) g_check();
}

}  // namespace anon
