#include "param_schema.hpp"

#include <limits>

#include "error.hpp"
#include "number_format.hpp"

namespace anon {

namespace {

ParamSpec spec(std::string key, ParamSpec::Kind kind, std::string doc) {
    ParamSpec s;
    s.key = std::move(key);
    s.kind = kind;
    s.doc = std::move(doc);
    return s;
}

// A number in (low, high] (or (low, high)), read over all finite numbers first so that every error about the
// parameter states the same interval.
double read_number_above(const Params& params, const ParamSpec& s) {
    const Param* given = params.get(s.key);
    const std::string name = "params->'" + s.key + "'";
    const std::string expected =
        "a number in (" + format_number(s.low) + ", " + format_number(s.high) + (s.high_open ? ")" : "]");
    std::optional<double> value;
    try {
        value = param_number(params, s.key, std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max());
    } catch (const Error&) {
        bad_argument(name, expected, given->describe());
    }
    if (!(*value > s.low && (*value < s.high || (!s.high_open && *value == s.high))))
        bad_argument(name, expected, format_number(*value));
    return *value;
}

// Any finite number, refused as "a number" otherwise.
double read_any_number(const Params& params, const ParamSpec& s) {
    const Param* given = params.get(s.key);
    try {
        return *param_number(params, s.key, std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max());
    } catch (const Error&) {
        bad_argument("params->'" + s.key + "'", "a number", given->describe());
    }
}

// An object of string members, e.g. {"age": "age5"}.
std::vector<std::pair<std::string, std::string>> read_string_map(const Param& given, const ParamSpec& s) {
    if (given.kind != Param::Kind::object) bad_argument("params->'" + s.key + "'", s.expected, given.describe());
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, value] : given.fields) {
        if (value.kind == Param::Kind::null) continue;
        if (value.kind != Param::Kind::string)
            bad_argument("params->'" + s.key + "'->'" + name + "'", s.item_expected, value.describe());
        out.emplace_back(name, value.string);
    }
    return out;
}

// Levels: {"age": 1, "zip": 2} or [1, 2] (each an integer >= 0).
std::vector<std::pair<std::string, long>> read_level_map(const Param& given, const ParamSpec& s) {
    const std::string name = "params->'" + s.key + "'";
    const std::string expected = "an object mapping quasi-identifiers to levels, or an array of levels in their order";
    std::vector<std::pair<std::string, long>> out;
    auto level = [&](const Param& v, const std::string& where) {
        if (v.kind != Param::Kind::number || v.number < 0 ||
            v.number != static_cast<double>(static_cast<long>(v.number)))
            bad_argument(where, "a level (an integer >= 0)", v.describe());
        return static_cast<long>(v.number);
    };
    if (given.kind == Param::Kind::object) {
        for (const auto& [column, value] : given.fields)
            out.emplace_back(column, level(value, name + "->'" + column + "'"));
    } else if (given.kind == Param::Kind::array) {
        for (std::size_t i = 0; i < given.items.size(); ++i)
            out.emplace_back("", level(given.items[i], name + "->" + std::to_string(i)));
    } else {
        bad_argument(name, expected, given.describe());
    }
    return out;
}

}  // namespace

ParamSpec integer_param(std::string key, long low, long high, std::string doc) {
    ParamSpec s = spec(std::move(key), ParamSpec::Kind::integer, std::move(doc));
    s.int_low = low;
    s.int_high = high;
    return s;
}

ParamSpec number_param(std::string key, double low, double high, std::string doc) {
    ParamSpec s = spec(std::move(key), ParamSpec::Kind::number, std::move(doc));
    s.low = low;
    s.high = high;
    return s;
}

ParamSpec number_above_param(std::string key, double low, double high, std::string doc, bool high_open) {
    ParamSpec s = spec(std::move(key), ParamSpec::Kind::number_above, std::move(doc));
    s.low = low;
    s.high = high;
    s.high_open = high_open;
    return s;
}

ParamSpec any_number_param(std::string key, std::string doc) {
    return spec(std::move(key), ParamSpec::Kind::any_number, std::move(doc));
}

ParamSpec boolean_param(std::string key, std::string doc) {
    return spec(std::move(key), ParamSpec::Kind::boolean, std::move(doc));
}

ParamSpec choice_param(std::string key, std::vector<std::string> choices, std::string doc) {
    ParamSpec s = spec(std::move(key), ParamSpec::Kind::choice, std::move(doc));
    s.choices = std::move(choices);
    return s;
}

ParamSpec string_param(std::string key, std::string doc) {
    return spec(std::move(key), ParamSpec::Kind::string, std::move(doc));
}

ParamSpec string_list_param(std::string key, std::string doc) {
    return spec(std::move(key), ParamSpec::Kind::string_list, std::move(doc));
}

ParamSpec string_map_param(std::string key, std::string expected, std::string item_expected, std::string doc) {
    ParamSpec s = spec(std::move(key), ParamSpec::Kind::string_map, std::move(doc));
    s.expected = std::move(expected);
    s.item_expected = std::move(item_expected);
    return s;
}

ParamSpec level_map_param(std::string key, std::string doc) {
    return spec(std::move(key), ParamSpec::Kind::level_map, std::move(doc));
}

ParamSpec required_param(ParamSpec spec) {
    spec.required = true;
    return spec;
}

const ParamValues::Value* ParamValues::find(const ParamSpec& spec) const {
    for (const auto& [k, v] : values_)
        if (k == spec.key) return &v;
    return nullptr;
}

bool ParamValues::given(const ParamSpec& spec) const { return find(spec) != nullptr; }

namespace param_binding {

namespace {

// Refuses a member whose type cannot hold the spec's kind.
void check_kind_in(const ParamSpec& spec, std::initializer_list<ParamSpec::Kind> kinds, const char* type) {
    for (const ParamSpec::Kind kind : kinds)
        if (spec.kind == kind) return;
    throw Error(ErrorKind::internal, "params->'" + spec.key + "' is bound to a member of type " + type +
                                         ", which cannot hold its kind of value");
}

}  // namespace

template <>
void check_kind<double>(const ParamSpec& spec) {
    check_kind_in(
        spec,
        {ParamSpec::Kind::integer, ParamSpec::Kind::number, ParamSpec::Kind::number_above, ParamSpec::Kind::any_number},
        "double");
}
template <>
void check_kind<long>(const ParamSpec& spec) {
    check_kind_in(spec, {ParamSpec::Kind::integer}, "long");
}
template <>
void check_kind<bool>(const ParamSpec& spec) {
    check_kind_in(spec, {ParamSpec::Kind::boolean}, "bool");
}
template <>
void check_kind<std::string>(const ParamSpec& spec) {
    check_kind_in(spec, {ParamSpec::Kind::choice, ParamSpec::Kind::string}, "string");
}
template <>
void check_kind<std::vector<std::string>>(const ParamSpec& spec) {
    check_kind_in(spec, {ParamSpec::Kind::string_list}, "string list");
}
template <>
void check_kind<StringMap>(const ParamSpec& spec) {
    check_kind_in(spec, {ParamSpec::Kind::string_map}, "string map");
}
template <>
void check_kind<LevelMap>(const ParamSpec& spec) {
    check_kind_in(spec, {ParamSpec::Kind::level_map}, "level map");
}

}  // namespace param_binding

template <>
std::optional<double> ParamValues::get<double>(const ParamSpec& spec) const {
    param_binding::check_kind<double>(spec);
    const Value* v = find(spec);
    return v ? std::optional<double>(v->number) : std::nullopt;
}

template <>
std::optional<long> ParamValues::get<long>(const ParamSpec& spec) const {
    param_binding::check_kind<long>(spec);
    const Value* v = find(spec);
    return v ? std::optional<long>(v->integer) : std::nullopt;
}

template <>
std::optional<bool> ParamValues::get<bool>(const ParamSpec& spec) const {
    param_binding::check_kind<bool>(spec);
    const Value* v = find(spec);
    return v ? std::optional<bool>(v->boolean) : std::nullopt;
}

template <>
std::optional<std::string> ParamValues::get<std::string>(const ParamSpec& spec) const {
    param_binding::check_kind<std::string>(spec);
    const Value* v = find(spec);
    return v ? std::optional<std::string>(v->string) : std::nullopt;
}

template <>
std::optional<std::vector<std::string>> ParamValues::get<std::vector<std::string>>(const ParamSpec& spec) const {
    param_binding::check_kind<std::vector<std::string>>(spec);
    const Value* v = find(spec);
    return v ? std::optional<std::vector<std::string>>(v->strings) : std::nullopt;
}

template <>
std::optional<StringMap> ParamValues::get<StringMap>(const ParamSpec& spec) const {
    param_binding::check_kind<StringMap>(spec);
    const Value* v = find(spec);
    return v ? std::optional<StringMap>(v->map) : std::nullopt;
}

template <>
std::optional<LevelMap> ParamValues::get<LevelMap>(const ParamSpec& spec) const {
    param_binding::check_kind<LevelMap>(spec);
    const Value* v = find(spec);
    return v ? std::optional<LevelMap>(v->levels) : std::nullopt;
}

ParamValues parse_params(const Params& params, const std::vector<ParamSpec>& schema) {
    ParamValues out;
    for (const ParamSpec& s : schema) {
        const Param* given = params.get(s.key);
        if (!given) continue;
        ParamValues::Value v;
        switch (s.kind) {
            case ParamSpec::Kind::integer:
                v.integer = *param_integer(params, s.key, s.int_low, s.int_high);
                v.number = static_cast<double>(v.integer);
                break;
            case ParamSpec::Kind::number: v.number = *param_number(params, s.key, s.low, s.high); break;
            case ParamSpec::Kind::number_above: v.number = read_number_above(params, s); break;
            case ParamSpec::Kind::any_number: v.number = read_any_number(params, s); break;
            case ParamSpec::Kind::boolean: v.boolean = *param_bool(params, s.key); break;
            case ParamSpec::Kind::choice: v.string = *param_string(params, s.key, s.choices); break;
            case ParamSpec::Kind::string: v.string = *param_string(params, s.key); break;
            case ParamSpec::Kind::string_list: v.strings = *param_string_array(params, s.key); break;
            case ParamSpec::Kind::string_map: v.map = read_string_map(*given, s); break;
            case ParamSpec::Kind::level_map: v.levels = read_level_map(*given, s); break;
        }
        out.values_.emplace_back(s.key, std::move(v));
    }
    return out;
}

void throw_options_mismatch() {
    throw Error(ErrorKind::internal, "typed options unpacked by an entry that did not parse them");
}

const ParamSpec* first_missing(const ParamValues& values, const std::vector<ParamSpec>& schema) {
    for (const ParamSpec& s : schema)
        if (s.required && !values.given(s)) return &s;
    return nullptr;
}

Params params_named_by(const Params& params, const std::vector<ParamSpec>& schema) {
    Params out = Param::of_object();
    for (const ParamSpec& s : schema)
        if (const Param* given = params.get(s.key)) out.set(s.key, *given);
    return out;
}

}  // namespace anon
