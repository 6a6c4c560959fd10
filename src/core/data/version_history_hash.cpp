#include "version_history.hpp"

namespace anon {

namespace {

constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;
constexpr std::uint64_t fnv_prime = 0x100000001b3ull;

// FNV-1a over `bytes`, continuing from `h`.
std::uint64_t fnv1a(std::uint64_t h, std::string_view bytes) {
    for (unsigned char c : bytes) {
        h ^= c;
        h *= fnv_prime;
    }
    return h;
}

// splitmix64's finalizer: spreads FNV's weak low bits over the word; 0 is mapped to 1 (0 is reserved).
ValueHash finish(std::uint64_t h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h == 0 ? 1 : h;
}

// The 8 bytes of n, little-endian: the length prefix of a tuple's texts, the same on every platform.
std::string_view length_bytes(std::uint64_t n, char (&buf)[8]) {
    for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return {buf, 8};
}

}  // namespace

ValueHash text_hash(std::string_view text) { return finish(fnv1a(fnv_offset, text)); }

ValueHash tuple_hash(const std::vector<std::string_view>& texts) {
    std::uint64_t h = fnv_offset;
    char buf[8];
    for (std::string_view t : texts) h = fnv1a(fnv1a(h, length_bytes(t.size(), buf)), t);
    return finish(h);
}

}  // namespace anon
