#include "base/error.hpp"

namespace anon {

std::string abbreviated_found(const std::string& found) {
    constexpr std::size_t whole = 240, kept = 200;
    if (found.size() <= whole) return found;
    std::size_t cut = kept;
    while (cut > 0 && (static_cast<unsigned char>(found[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
    return found.substr(0, cut) + "… (" + std::to_string(found.size()) + " bytes in all)";
}

}  // namespace anon
