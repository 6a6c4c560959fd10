// Job parameters in core terms: a small JSON-like value tree (the PostgreSQL layer converts jsonb into it), with
// typed accessors that raise an error naming the parameter, what was expected and what was found.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace anon {

struct Param {
    enum class Kind { null, boolean, number, string, array, object };
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Param> items;                           // array elements
    std::vector<std::pair<std::string, Param>> fields;  // object members, in order

    static Param of_number(double v);
    static Param of_string(std::string v);
    static Param of_bool(bool v);
    static Param of_object();
    Param& set(std::string key, Param value);  // object member, replacing an existing one

    const Param* get(const std::string& key) const;  // object member or nullptr
    std::string describe() const;                    // how a value prints in an error ("1.5", "\"x\"", "an array", ...)
};

using Params = Param;  // the params argument: an object

// Typed access to params->key. Each returns nullopt when the key is absent or JSON null, and throws
// Error(invalid_parameter) "invalid params->'key': expected ..., found ..." when the value has the wrong type or
// lies outside [min, max].
std::optional<double> param_number(const Params& p, const std::string& key, double min, double max);
std::optional<long> param_integer(const Params& p, const std::string& key, long min, long max);
std::optional<bool> param_bool(const Params& p, const std::string& key);  // accepts true/false and "true"/"false"
std::optional<std::string> param_string(const Params& p, const std::string& key,
                                        const std::vector<std::string>& allowed = {});
std::optional<std::vector<std::string>> param_string_array(const Params& p, const std::string& key);

// Refuses keys outside `known`, listing the valid ones, so a typo ("dont-care") is not silently ignored.
void check_known_keys(const Params& p, const std::vector<std::string>& known);

}  // namespace anon
