// A minimal JSON text builder for reports: the PostgreSQL layer turns the text into jsonb.
#pragma once

#include <string>
#include <vector>

namespace anon {

class JsonWriter {
public:
    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(const std::string& k);
    JsonWriter& value(const std::string& v);
    JsonWriter& value(const char* v) { return value(std::string(v)); }
    JsonWriter& value(double v);
    JsonWriter& value(long long v);
    JsonWriter& value(long v) { return value(static_cast<long long>(v)); }
    JsonWriter& value(int v) { return value(static_cast<long long>(v)); }
    JsonWriter& value(unsigned long v) { return value(static_cast<long long>(v)); }
    JsonWriter& value(bool v);
    JsonWriter& null();
    JsonWriter& raw(const std::string& json);  // an already-encoded JSON value

    // Shorthand for key(k).value(v).
    template <typename T>
    JsonWriter& field(const std::string& k, const T& v) {
        key(k);
        return value(v);
    }

    const std::string& str() const { return out_; }

private:
    void separate();

    std::string out_;
    std::vector<bool> first_;  // per open container: no element written yet
    bool after_key_ = false;
};

// Encodes a string as a JSON string literal.
std::string json_quote(const std::string& s);

}  // namespace anon
