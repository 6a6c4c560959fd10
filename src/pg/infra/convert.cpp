#include <memory>

#include "base/base.hpp"
#include "boundary.hpp"
#include "convert.hpp"

namespace anon::pg {

namespace {

[[noreturn]] void null_argument(const char* name) {
    throw Error(ErrorKind::invalid_parameter, std::string("argument ") + name + " must not be NULL");
}

// Converts a jsonb scalar to a Param. A number beyond double precision becomes an infinity, which the parameter
// checks refuse naming the parameter (numeric_float8 would raise an error naming no argument).
Param scalar_param(const JsonbValue& v) {
    switch (v.type) {
        case jbvNull: return Param{};
        case jbvBool: return Param::of_bool(v.val.boolean);
        case jbvString: return Param::of_string(std::string(v.val.string.val, v.val.string.len));
        case jbvNumeric: {
            double d = 0;
            pg_call([&] {
                d = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, NumericGetDatum(v.val.numeric)));
            });
            return Param::of_number(d);
        }
        default: return Param{};
    }
}

// Walks a jsonb container with its iterator and builds the Param tree.
Param container_param(JsonbContainer* container) {
    // Collect the iterator's tokens in one guarded call, then build the tree in C++.
    struct Token {
        JsonbIteratorToken kind;
        JsonbValue value;
    };
    std::vector<Token> tokens;
    pg_call([&] {
        JsonbIterator* it = JsonbIteratorInit(container);
        JsonbValue v;
        JsonbIteratorToken t;
        while ((t = JsonbIteratorNext(&it, &v, false)) != WJB_DONE) tokens.push_back({t, v});
    });
    std::vector<Param> stack;
    std::vector<std::string> keys;
    Param root;
    auto attach = [&](Param p) {
        if (stack.empty()) {
            root = std::move(p);
        } else if (stack.back().kind == Param::Kind::array) {
            stack.back().items.push_back(std::move(p));
        } else {
            stack.back().fields.emplace_back(keys.back(), std::move(p));
            keys.pop_back();
        }
    };
    for (const auto& tok : tokens) {
        switch (tok.kind) {
            case WJB_BEGIN_OBJECT: stack.push_back(Param::of_object()); break;
            case WJB_BEGIN_ARRAY: {
                Param a;
                a.kind = Param::Kind::array;
                stack.push_back(a);
                break;
            }
            case WJB_END_OBJECT:
            case WJB_END_ARRAY: {
                Param done = std::move(stack.back());
                stack.pop_back();
                attach(std::move(done));
                break;
            }
            case WJB_KEY: keys.emplace_back(tok.value.val.string.val, tok.value.val.string.len); break;
            case WJB_VALUE:
            case WJB_ELEM: attach(scalar_param(tok.value)); break;
            default: break;
        }
    }
    // A raw scalar is stored as a one-element array.
    if (root.kind == Param::Kind::array && JsonContainerIsScalar(container)) return root.items.at(0);
    return root;
}

// How to quote a name that is not valid SQL, shown with the caller's own name when it holds no quotes and is not
// longer than a name can be.
std::string quoting_hint(const std::string& text) {
    const bool own = text.find('"') == std::string::npos && text.size() < NAMEDATALEN;
    const std::string example = own ? "'\"" + text + "\"'" : "'\"Patients 2024\"'";
    return "Quote names that hold capitals, spaces or dots as SQL does: " + example + " (or 'schema.\"Name\"').";
}

constexpr const char* lookup_hint =
    "Unquoted names fold to lower case ('Patients' names patients, '\"Patients\"' names Patients); a name without a "
    "schema is looked up on the search_path.";

// The relation a name given as text designates, found as a regclass literal would be (the search_path for an
// unqualified name), with errors that name the argument and explain quoting instead of the cast's bare "invalid name
// syntax" or "relation does not exist".
Oid relation_named(const std::string& text, const char* name) {
    const std::string found = "\"" + text + "\"";
    if (text.empty()) bad_argument(name, "a relation name", "an empty string");
    List* names = qualified_name_list(text, name, "a relation name");
    Oid relation = InvalidOid;
    pg_call([&] { relation = RangeVarGetRelid(makeRangeVarFromNameList(names), NoLock, true); });
    if (!OidIsValid(relation))
        throw Error(ErrorKind::undefined_object,
                    std::string("invalid ") + name + ": expected an existing table or view, found " +
                        abbreviated_found(found) + ", which does not exist",
                    {}, lookup_hint);
    return relation;
}

}  // namespace

List* qualified_name_list(const std::string& text, const char* argument, const char* what) {
    List* names = nullptr;
    try {
        pg_call([&] { names = stringToQualifiedNameList(text.c_str()); });
    } catch (const PgError&) {
        throw Error(ErrorKind::invalid_parameter,
                    std::string("invalid ") + argument + ": expected " + what +
                        ", optionally schema-qualified, with double quotes around names that need them, found " +
                        abbreviated_found("\"" + text + "\""),
                    {}, quoting_hint(text));
    }
    return names;
}

std::string text_arg(FunctionCallInfo fcinfo, int n, const char* name) {
    if (PG_ARGISNULL(n)) null_argument(name);
    char* s = nullptr;
    pg_call([&] { s = text_to_cstring(PG_GETARG_TEXT_PP(n)); });
    return s;
}

Oid oid_arg(FunctionCallInfo fcinfo, int n, const char* name) {
    if (PG_ARGISNULL(n)) null_argument(name);
    if (get_fn_expr_argtype(fcinfo->flinfo, n) == TEXTOID) return relation_named(text_arg(fcinfo, n, name), name);
    return PG_GETARG_OID(n);
}

std::vector<std::string> text_array_arg(FunctionCallInfo fcinfo, int n, const char* name, bool allow_empty) {
    if (PG_ARGISNULL(n)) null_argument(name);
    Datum* elems = nullptr;
    bool* nulls = nullptr;
    int count = 0;
    pg_call([&] {
        ArrayType* arr = PG_GETARG_ARRAYTYPE_P(n);
        deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &count);
    });
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) {
        if (nulls[i]) bad_argument(name, "an array without NULL elements", "NULL at position " + std::to_string(i + 1));
        char* s = nullptr;
        pg_call([&] { s = TextDatumGetCString(elems[i]); });
        out.emplace_back(s);
    }
    if (out.empty() && !allow_empty) bad_argument(name, "a non-empty array", "an empty array");
    return out;
}

std::vector<double> number_array_arg(FunctionCallInfo fcinfo, int n, const char* name) {
    if (PG_ARGISNULL(n)) null_argument(name);
    Datum* elems = nullptr;
    bool* nulls = nullptr;
    int count = 0;
    Oid elem_type = InvalidOid;
    pg_call([&] {
        ArrayType* arr = PG_GETARG_ARRAYTYPE_P(n);
        elem_type = ARR_ELEMTYPE(arr);
        int16 len;
        bool byval;
        char align;
        get_typlenbyvalalign(elem_type, &len, &byval, &align);
        deconstruct_array(arr, elem_type, len, byval, align, &elems, &nulls, &count);
    });
    std::vector<double> out;
    for (int i = 0; i < count; ++i) {
        if (nulls[i]) bad_argument(name, "an array without NULL elements", "NULL at position " + std::to_string(i + 1));
        double d = 0;
        pg_call([&] {
            switch (elem_type) {
                case INT2OID: d = DatumGetInt16(elems[i]); break;
                case INT4OID: d = DatumGetInt32(elems[i]); break;
                case INT8OID: d = static_cast<double>(DatumGetInt64(elems[i])); break;
                case FLOAT4OID: d = DatumGetFloat4(elems[i]); break;
                case FLOAT8OID: d = DatumGetFloat8(elems[i]); break;
                default: d = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, elems[i])); break;
            }
        });
        out.push_back(d);
    }
    return out;
}

Params params_arg(FunctionCallInfo fcinfo, int n) {
    if (PG_ARGISNULL(n)) return Param::of_object();
    Jsonb* jb = nullptr;
    pg_call([&] { jb = PG_GETARG_JSONB_P(n); });
    Param p = container_param(&jb->root);
    if (p.kind != Param::Kind::object) bad_argument("params", "a JSON object", p.describe());
    return p;
}

Params params_from_json(const std::string& json) {
    Jsonb* jb = DatumGetJsonbP(jsonb_from_json(json));
    return container_param(&jb->root);
}

Datum jsonb_from_json(const std::string& json) {
    Datum d = 0;
    pg_call([&] {
        MemoryContext old = MemoryContextSwitchTo(entry_context());
        d = DirectFunctionCall1(jsonb_in, CStringGetDatum(json.c_str()));
        MemoryContextSwitchTo(old);
    });
    return d;
}

Datum text_array_datum(const std::vector<const char*>& items) {
    std::vector<Datum> elems(items.size());
    std::unique_ptr<bool[]> nulls(new bool[items.size() + 1]);
    Datum result = 0;
    for (std::size_t i = 0; i < items.size(); ++i) nulls[i] = items[i] == nullptr;
    pg_call([&] {
        for (std::size_t i = 0; i < items.size(); ++i)
            elems[i] = items[i] ? PointerGetDatum(cstring_to_text(items[i])) : 0;
        int dims[1] = {static_cast<int>(items.size())};
        int lbs[1] = {1};
        result = PointerGetDatum(
            construct_md_array(elems.data(), nulls.get(), 1, dims, lbs, TEXTOID, -1, false, TYPALIGN_INT));
    });
    return result;
}

}  // namespace anon::pg
