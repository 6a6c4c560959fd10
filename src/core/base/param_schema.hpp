// Parameter schemas: what a model, an algorithm or a publication accepts in params (key, type, range, meaning),
// and the typed options parsed from the caller's params against such a schema. Each schema entry is bound to the
// member of a typed options struct it fills (OptionField), so a key is named once, where its type, range and
// meaning are; the job parses the caller's JSON once, into those structs, and everything below it reads their
// members, never a key.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
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
    bool required = false;  // a model's parameter it cannot do without ("params->'l' is required for ...")
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
// The same entry, marked required.
ParamSpec required_param(ParamSpec spec);

// The value types of the kinds: an object of names to strings, and (name, level) pairs (names are empty when the
// caller gave an array of levels).
using StringMap = std::vector<std::pair<std::string, std::string>>;
using LevelMap = std::vector<std::pair<std::string, long>>;

// The parsed values of the keys a schema names that the caller gave (JSON null counts as absent). They are read
// through the schema's own entries (OptionField below), never by a key spelled again.
class ParamValues {
public:
    // The value of `spec`'s key as T, nullopt when not given. T is the type of the spec's kind: double (integer and
    // number kinds), long (integer), bool, std::string (choice and string), std::vector<std::string>, StringMap,
    // LevelMap; another T is an internal error.
    template <class T>
    std::optional<T> get(const ParamSpec& spec) const;
    bool given(const ParamSpec& spec) const;

private:
    friend ParamValues parse_params(const Params& params, const std::vector<ParamSpec>& schema);
    struct Value {
        double number = 0;
        long integer = 0;
        bool boolean = false;
        std::string string;
        std::vector<std::string> strings;
        StringMap map;
        LevelMap levels;
    };
    const Value* find(const ParamSpec& spec) const;
    std::vector<std::pair<std::string, Value>> values_;
};

template <>
std::optional<double> ParamValues::get<double>(const ParamSpec& spec) const;
template <>
std::optional<long> ParamValues::get<long>(const ParamSpec& spec) const;
template <>
std::optional<bool> ParamValues::get<bool>(const ParamSpec& spec) const;
template <>
std::optional<std::string> ParamValues::get<std::string>(const ParamSpec& spec) const;
template <>
std::optional<std::vector<std::string>> ParamValues::get<std::vector<std::string>>(const ParamSpec& spec) const;
template <>
std::optional<StringMap> ParamValues::get<StringMap>(const ParamSpec& spec) const;
template <>
std::optional<LevelMap> ParamValues::get<LevelMap>(const ParamSpec& spec) const;

// Reads every key of `schema` from params, in the schema's order, with the error of params.hpp's accessors
// ("invalid params->'l': expected an integer in [2, 1000000000], found 1.5") for a wrong type or range.
ParamValues parse_params(const Params& params, const std::vector<ParamSpec>& schema);

// The first required entry of `schema` the caller did not give; null when all were given.
const ParamSpec* first_missing(const ParamValues& values, const std::vector<ParamSpec>& schema);

// The members of params that `schema` names, in the schema's order (an algorithm that runs another with its own
// options: MASK's k-anonymous step).
Params params_named_by(const Params& params, const std::vector<ParamSpec>& schema);

// Throws Error(internal): options parsed by one entry were unpacked by another.
[[noreturn]] void throw_options_mismatch();

// One entry of a typed options struct's schema: the parameter and how its parsed value fills the struct.
template <class Options>
struct OptionField {
    ParamSpec spec;
    std::function<void(const ParamValues&, const ParamSpec&, Options&)> fill;
};

namespace param_binding {

// The parsed type a member holds: long for integers, double for floating point numbers, the type itself otherwise.
template <class T, class = void>
struct stored {
    using type = T;
};
template <class T>
struct stored<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
    using type = long;
};
template <class T>
struct stored<T, std::enable_if_t<std::is_floating_point_v<T>>> {
    using type = double;
};

// A member's value type: T, or the T of std::optional<T>.
template <class T>
struct unwrapped {
    using type = T;
};
template <class T>
struct unwrapped<std::optional<T>> {
    using type = T;
};

// Throws Error(internal) when a member of the stored type T cannot hold the spec's kind (a schema bound to the
// wrong member), at the first use of the schema.
template <class T>
void check_kind(const ParamSpec& spec);
template <>
void check_kind<double>(const ParamSpec& spec);
template <>
void check_kind<long>(const ParamSpec& spec);
template <>
void check_kind<bool>(const ParamSpec& spec);
template <>
void check_kind<std::string>(const ParamSpec& spec);
template <>
void check_kind<std::vector<std::string>>(const ParamSpec& spec);
template <>
void check_kind<StringMap>(const ParamSpec& spec);
template <>
void check_kind<LevelMap>(const ParamSpec& spec);

}  // namespace param_binding

// Binds `spec` to a member of Options: a given value sets the member (an optional member: to the value; any other:
// to the value, and it keeps its default when the key is not given).
template <class Options, class Member>
OptionField<Options> field(Member Options::*member, ParamSpec spec) {
    using Value = typename param_binding::unwrapped<Member>::type;
    using Stored = typename param_binding::stored<Value>::type;
    param_binding::check_kind<Stored>(spec);
    return {std::move(spec), [member](const ParamValues& values, const ParamSpec& s, Options& out) {
                if (const auto v = values.get<Stored>(s)) out.*member = static_cast<Value>(*v);
            }};
}

// A choice parameter bound to an enumerated member: each name the caller may give, with the value it stands for.
template <class Options, class Member, class Enum>
OptionField<Options> choice_field(Member Options::*member, std::string key,
                                  std::vector<std::pair<std::string, Enum>> choices, std::string doc) {
    std::vector<std::string> names;
    for (const auto& choice : choices) names.push_back(choice.first);
    return {choice_param(std::move(key), std::move(names), std::move(doc)),
            [member, choices](const ParamValues& values, const ParamSpec& s, Options& out) {
                if (const auto name = values.get<std::string>(s))
                    for (const auto& [n, value] : choices)
                        if (n == *name) out.*member = value;
            }};
}

// The schema of a typed options struct: its fields, in the order params are read and errors raised.
template <class Options>
class OptionSchema {
public:
    OptionSchema(std::vector<OptionField<Options>> fields) : fields_(std::move(fields)) {
        for (const auto& f : fields_) specs_.push_back(f.spec);
    }
    const std::vector<ParamSpec>& specs() const { return specs_; }
    // Fills `out` (holding its defaults) with the values the caller gave.
    void fill(const ParamValues& values, Options& out) const {
        for (const auto& f : fields_) f.fill(values, f.spec, out);
    }
    // Parses params against the schema and returns the struct.
    Options parse(const Params& params) const {
        Options out;
        fill(parse_params(params, specs_), out);
        return out;
    }

private:
    std::vector<OptionField<Options>> fields_;
    std::vector<ParamSpec> specs_;
};

// The typed options an entry parsed, as the entry's own struct T: only the entry that made them unpacks them. A
// struct of another type is an internal error.
template <class T, class Base>
const T& options_as(const Base& options) {
    if (const T* typed = dynamic_cast<const T*>(&options)) return *typed;
    throw_options_mismatch();
}

}  // namespace anon
