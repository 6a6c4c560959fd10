#include "params.hpp"

#include <cmath>

#include "error.hpp"
#include "number_format.hpp"

namespace anon {

Param Param::of_number(double v) {
    Param p;
    p.kind = Kind::number;
    p.number = v;
    return p;
}

Param Param::of_string(std::string v) {
    Param p;
    p.kind = Kind::string;
    p.string = std::move(v);
    return p;
}

Param Param::of_bool(bool v) {
    Param p;
    p.kind = Kind::boolean;
    p.boolean = v;
    return p;
}

Param Param::of_object() {
    Param p;
    p.kind = Kind::object;
    return p;
}

Param& Param::set(std::string key, Param value) {
    for (auto& [k, v] : fields)
        if (k == key) {
            v = std::move(value);
            return *this;
        }
    fields.emplace_back(std::move(key), std::move(value));
    return *this;
}

const Param* Param::get(const std::string& key) const {
    if (kind != Kind::object) return nullptr;
    for (const auto& [k, v] : fields)
        if (k == key) return v.kind == Kind::null ? nullptr : &v;
    return nullptr;
}

std::string Param::describe() const {
    switch (kind) {
        case Kind::null: return "null";
        case Kind::boolean: return boolean ? "true" : "false";
        case Kind::number: return format_number(number);
        case Kind::string: return "\"" + string + "\"";
        case Kind::array: return "an array";
        case Kind::object: return "an object";
    }
    return "?";
}

namespace {

std::string key_name(const std::string& key) { return "params->'" + key + "'"; }

// Reads a number given as a JSON number or as a numeric string ("3").
std::optional<double> as_number(const Param& v) {
    if (v.kind == Param::Kind::number) return v.number;
    if (v.kind == Param::Kind::string) {
        try {
            size_t used = 0;
            double d = std::stod(v.string, &used);
            if (used == v.string.size() && std::isfinite(d)) return d;
        } catch (...) {}
    }
    return std::nullopt;
}

}  // namespace

std::optional<double> param_number(const Params& p, const std::string& key, double min, double max) {
    const Param* v = p.get(key);
    if (!v) return std::nullopt;
    auto d = as_number(*v);
    std::string range = "a number in [" + format_number(min) + ", " + format_number(max) + "]";
    if (!d) bad_argument(key_name(key), range, v->describe());
    if (*d < min || *d > max) bad_argument(key_name(key), range, format_number(*d));
    return d;
}

std::optional<long> param_integer(const Params& p, const std::string& key, long min, long max) {
    const Param* v = p.get(key);
    if (!v) return std::nullopt;
    auto d = as_number(*v);
    std::string range = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (!d || *d != std::floor(*d)) bad_argument(key_name(key), range, v->describe());
    if (*d < static_cast<double>(min) || *d > static_cast<double>(max))
        bad_argument(key_name(key), range, format_number(*d));
    return static_cast<long>(*d);
}

std::optional<bool> param_bool(const Params& p, const std::string& key) {
    const Param* v = p.get(key);
    if (!v) return std::nullopt;
    if (v->kind == Param::Kind::boolean) return v->boolean;
    if (v->kind == Param::Kind::string && (v->string == "true" || v->string == "false")) return v->string == "true";
    bad_argument(key_name(key), "true or false", v->describe());
}

std::optional<std::string> param_string(const Params& p, const std::string& key,
                                        const std::vector<std::string>& allowed) {
    const Param* v = p.get(key);
    if (!v) return std::nullopt;
    std::string choices;
    for (size_t i = 0; i < allowed.size(); ++i) choices += (i ? ", " : "") + allowed[i];
    if (v->kind != Param::Kind::string)
        bad_argument(key_name(key), allowed.empty() ? "a string" : "one of " + choices, v->describe());
    if (!allowed.empty()) {
        for (const auto& a : allowed)
            if (a == v->string) return v->string;
        bad_argument(key_name(key), "one of " + choices, v->describe());
    }
    return v->string;
}

std::optional<std::vector<std::string>> param_string_array(const Params& p, const std::string& key) {
    const Param* v = p.get(key);
    if (!v) return std::nullopt;
    if (v->kind != Param::Kind::array) bad_argument(key_name(key), "an array of strings", v->describe());
    std::vector<std::string> out;
    for (const auto& item : v->items) {
        if (item.kind != Param::Kind::string)
            bad_argument(key_name(key), "an array of strings", "an element " + item.describe());
        out.push_back(item.string);
    }
    return out;
}

void check_known_keys(const Params& p, const std::vector<std::string>& known) {
    if (p.kind != Param::Kind::object) bad_argument("params", "a JSON object", p.describe());
    for (const auto& [k, v] : p.fields) {
        bool ok = false;
        for (const auto& name : known) ok = ok || name == k;
        if (!ok) {
            std::string list;
            for (size_t i = 0; i < known.size(); ++i) list += (i ? ", " : "") + known[i];
            bad_argument("params", "keys among " + list, "unknown key \"" + k + "\"");
        }
    }
}

}  // namespace anon
