// Parameter schemas: what a model, an algorithm or a publication accepts in params (key, type, range, meaning),
// and the typed values parsed from the caller's params against such a schema. The job parses the caller's JSON
// once, here; everything below it reads ParamValues, never JSON.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "params.hpp"

namespace anon {

struct ParamSpec {
    enum class Kind {
        integer,       // an integer in [low, high]
        number,        // a number in [low, high]
        number_above,  // a number in (low, high], or (low, high) with high_open
        any_number,    // any finite number (the model checks the range itself, with its own wording)
        boolean,       // true or false
        choice,        // one of `choices`
        string,        // any string
        string_list,   // an array of strings
        string_map,    // an object mapping names to strings (params->'taxonomies')
        level_map      // an object mapping names to levels (integers >= 0), or an array of levels in order
    };
    std::string key;
    Kind kind = Kind::number;
    double low = 0, high = 0;        // number kinds
    long int_low = 0, int_high = 0;  // integer kind
    bool high_open = false;
    std::vector<std::string> choices;
    std::string doc;            // what the parameter means, for docs
    std::string expected;       // string_map: what the object should be, as errors say it
    std::string item_expected;  // string_map: what each member should be
};

// Shorthands for schema entries.
ParamSpec integer_param(std::string key, long low, long high, std::string doc);
ParamSpec number_param(std::string key, double low, double high, std::string doc);
ParamSpec number_above_param(std::string key, double low, double high, std::string doc, bool high_open = false);
ParamSpec any_number_param(std::string key, std::string doc);
ParamSpec boolean_param(std::string key, std::string doc);
ParamSpec choice_param(std::string key, std::vector<std::string> choices, std::string doc);
ParamSpec string_param(std::string key, std::string doc);
ParamSpec string_list_param(std::string key, std::string doc);
ParamSpec string_map_param(std::string key, std::string expected, std::string item_expected, std::string doc);
ParamSpec level_map_param(std::string key, std::string doc);

// The parsed values of the keys a schema names that the caller gave (JSON null counts as absent), typed.
class ParamValues {
public:
    std::optional<double> number(const std::string& key) const;  // integer and number kinds
    std::optional<long> integer(const std::string& key) const;
    std::optional<bool> boolean(const std::string& key) const;
    std::optional<std::string> string(const std::string& key) const;  // choice and string kinds
    std::optional<std::vector<std::string>> strings(const std::string& key) const;
    std::optional<std::vector<std::pair<std::string, std::string>>> string_map(const std::string& key) const;
    // level_map kind: (name, level) pairs; names are empty when the caller gave an array.
    std::optional<std::vector<std::pair<std::string, long>>> level_map(const std::string& key) const;
    bool has(const std::string& key) const;

    // Adds the values of another schema's parse (keys already present keep their value).
    void merge(const ParamValues& other);

private:
    friend ParamValues parse_params(const Params& params, const std::vector<ParamSpec>& schema);
    struct Value {
        double number = 0;
        long integer = 0;
        bool boolean = false;
        std::string string;
        std::vector<std::string> strings;
        std::vector<std::pair<std::string, std::string>> map;
        std::vector<std::pair<std::string, long>> levels;
    };
    const Value* find(const std::string& key) const;
    std::vector<std::pair<std::string, Value>> values_;
};

// Reads every key of `schema` from params, in the schema's order, with the error of params.hpp's accessors
// ("invalid params->'l': expected an integer in [2, 1000000000], found 1.5") for a wrong type or range.
ParamValues parse_params(const Params& params, const std::vector<ParamSpec>& schema);

}  // namespace anon
