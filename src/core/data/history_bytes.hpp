// The byte reading and writing of the version history's formats (version_history_io.cpp writes format 2 and reads
// both, version_history_format1.cpp reads format 1): little-endian fixed-width numbers and unsigned LEB128 varints,
// read without ever passing the end, each refusal a data error that names the byte where it happened.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "base/base.hpp"
#include "version_history.hpp"

namespace anon::history_bytes {

// Appends numbers: fixed-width little-endian, or varints (seven bits a byte, lowest first, high bit "more").
class ByteWriter {
public:
    void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void u32(std::uint32_t v) { put(v, 4); }
    void u64(std::uint64_t v) { put(v, 8); }
    void varint(std::uint64_t v) {
        while (v >= 0x80) {
            out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        out_.push_back(static_cast<char>(v));
    }
    // A size the format keeps within 32 bits (what the parser accepts), as a varint.
    void size(std::size_t n, const char* what) {
        if (n > std::numeric_limits<std::uint32_t>::max())
            throw Error(ErrorKind::resource_limit, std::string("the version history holds too many ") + what +
                                                       " to store (" + std::to_string(n) + ")");
        varint(n);
    }
    void bytes(const char* p, std::size_t n) { out_.append(p, n); }
    void reserve(std::uint64_t n) { out_.reserve(static_cast<std::size_t>(n)); }
    std::string take() { return std::move(out_); }

private:
    void put(std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    std::string out_;
};

// Reads numbers, refusing to read past the end. A varint must be minimal (no trailing zero group), so that a
// history has exactly one encoding and parse accepts only what serialize writes back unchanged. The sizes and
// indexes the two formats share are 32-bit numbers: fixed-width in format 1, varints in format 2 (`compact`).
class ByteReader {
public:
    explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

    void set_compact(bool compact) { compact_ = compact; }
    // A size or index of the format: u32, or a varint within 32 bits.
    std::uint32_t number32(const char* what) { return compact_ ? varint32(what) : u32(what); }
    // The fewest bytes number32 reads.
    std::size_t number32_bytes() const { return compact_ ? 1 : 4; }

    [[noreturn]] void refuse(const std::string& what) const {
        throw Error(ErrorKind::data_exception,
                    "invalid version history at byte " + std::to_string(at_) + " of " + std::to_string(bytes_.size()) +
                        ": " + what,
                    "",
                    "The catalog's history of a release is written by anon only; restore it or republish the release.");
    }
    std::uint8_t u8(const char* what) { return static_cast<std::uint8_t>(get(1, what)); }
    std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(get(4, what)); }
    std::uint64_t u64(const char* what) { return get(8, what); }
    std::uint64_t varint(const char* what) {
        std::uint64_t v = 0;
        for (int shift = 0;; shift += 7) {
            if (at_ == bytes_.size()) refuse(std::string("truncated: the bytes end inside ") + what);
            const auto byte = static_cast<unsigned char>(bytes_[at_++]);
            if (shift == 63 && byte > 1) refuse(std::string("a number of ") + what + " beyond 64 bits");
            v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0) {
                if (byte == 0 && shift > 0) refuse(std::string("a number of ") + what + " not in its shortest form");
                return v;
            }
        }
    }
    // A varint that the format keeps within 32 bits.
    std::uint32_t varint32(const char* what) {
        const std::uint64_t v = varint(what);
        if (v > std::numeric_limits<std::uint32_t>::max())
            refuse(std::string("a number of ") + what + " beyond 32 bits (" + std::to_string(v) + ")");
        return static_cast<std::uint32_t>(v);
    }
    // A count of items of at least `item_bytes` each that must fit in the bytes left: checked before anything is
    // allocated.
    std::size_t count(std::uint64_t n, std::size_t item_bytes, const char* what) const {
        const std::uint64_t left = bytes_.size() - at_;
        if (item_bytes > 0 && n > left / item_bytes)
            refuse(std::to_string(n) + " " + what + " need " + std::to_string(item_bytes) + " bytes each, " +
                   std::to_string(left) + " bytes are left");
        return static_cast<std::size_t>(n);
    }
    bool prefix(const char* p, std::size_t n) {
        if (bytes_.size() - at_ < n || std::memcmp(bytes_.data() + at_, p, n) != 0) return false;
        at_ += n;
        return true;
    }
    bool done() const { return at_ == bytes_.size(); }

private:
    std::uint64_t get(std::size_t n, const char* what) {
        if (bytes_.size() - at_ < n) refuse(std::string("truncated: the bytes end inside ") + what);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[at_ + i])) << (8 * i);
        at_ += n;
        return v;
    }
    std::string_view bytes_;
    std::size_t at_ = 0;
    bool compact_ = false;
};

// The last version in format 1 (version_history_format1.cpp), as anon wrote it until format 2.
VersionSnapshot read_format1_snapshot(ByteReader& r, std::size_t n_sa);

}  // namespace anon::history_bytes
