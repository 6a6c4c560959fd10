// anon._canonical_text(anyelement) and the canonical output settings it shares with the SPI reads (spi.cpp).
#include <string>

#include "boundary.hpp"
#include "canonical_text.hpp"

extern "C" {
#include "parser/parse_func.h"
#include "utils/bytea.h"
#include "utils/float.h"
}

namespace anon::pg {

namespace {

// The UTC zone, loaded once per backend (pg_tzset caches zones; UTC is always available).
pg_tz* utc_zone() {
    static pg_tz* utc = nullptr;
    if (utc == nullptr) utc = pg_tzset("UTC");
    return utc;
}

}  // namespace

OutputSettings set_canonical_output() {
    pg_tz* const utc = utc_zone();  // first: the only step that may raise an error
    const OutputSettings saved{DateStyle, DateOrder, IntervalStyle, extra_float_digits, bytea_output, session_timezone};
    DateStyle = USE_ISO_DATES;
    DateOrder = DATEORDER_MDY;
    IntervalStyle = INTSTYLE_POSTGRES;
    extra_float_digits = 1;
    bytea_output = BYTEA_OUTPUT_HEX;
    if (utc != nullptr) session_timezone = utc;
    return saved;
}

CanonicalOutputScope::CanonicalOutputScope() {
    pg_call([this] { saved_ = set_canonical_output(); });
}

void restore_output_settings(const OutputSettings& saved) {
    DateStyle = saved.date_style;
    DateOrder = saved.date_order;
    IntervalStyle = saved.interval_style;
    extra_float_digits = saved.extra_float_digits;
    bytea_output = saved.bytea_output;
    session_timezone = saved.timezone;
}

bool canonical_text_installed() {
    bool installed = false;
    pg_call([&] {
        Oid argument = ANYELEMENTOID;
        installed = OidIsValid(LookupFuncName(
            list_make2(makeString(pstrdup("anon")), makeString(pstrdup("_canonical_text"))), 1, &argument, true));
    });
    return installed;
}

std::string canonical_text_sql(const std::string& expression) {
    return canonical_text_installed() ? "anon._canonical_text(" + expression + ")" : expression + "::pg_catalog.text";
}

}  // namespace anon::pg

namespace {

// Refuses money (also in arrays and domains): its text and its numeric value depend on lc_monetary, so no form
// of it is session-independent.
void refuse_money(Oid type) {
    Oid base = getBaseType(type);
    Oid element = get_element_type(base);
    if (OidIsValid(element)) base = getBaseType(element);
    if (base == CASHOID)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("anon cannot read values of type %s: expected a type whose text does not depend on "
                               "the session's settings, found money (its text depends on lc_monetary)",
                               format_type_be(type)),
                        errhint("Publish a view over the table that casts the column to numeric.")));
}

}  // namespace

namespace anon::pg {

void init_text_cast(TextCast& cast, Oid type, MemoryContext context) {
    refuse_money(type);
    Oid function = InvalidOid;
    cast.type = type;
    cast.nargs = 0;
    cast.path = find_coercion_pathway(TEXTOID, getBaseType(type), COERCION_EXPLICIT, &function);
    if (cast.path == COERCION_PATH_FUNC) {
        cast.nargs = get_func_nargs(function);
    } else if (cast.path != COERCION_PATH_RELABELTYPE) {
        cast.path = COERCION_PATH_COERCEVIAIO;
        bool varlena = false;
        getTypeOutputInfo(type, &function, &varlena);
    }
    if (OidIsValid(function)) fmgr_info_cxt(function, &cast.function, context);
}

Datum cast_to_text(const TextCast& cast, Datum value) {
    switch (cast.path) {
        case COERCION_PATH_RELABELTYPE: return value;
        case COERCION_PATH_COERCEVIAIO:
            return CStringGetTextDatum(OutputFunctionCall(const_cast<FmgrInfo*>(&cast.function), value));
        default:
            if (cast.nargs == 1) return FunctionCall1(const_cast<FmgrInfo*>(&cast.function), value);
            // a length-coercing cast (value, typmod, explicit)
            return FunctionCall3(const_cast<FmgrInfo*>(&cast.function), value, Int32GetDatum(-1), BoolGetDatum(true));
    }
}

std::string_view value_text(const TextCast* cast, Datum value) {
    text* t = pg_detoast_datum_packed(
        reinterpret_cast<struct varlena*>(DatumGetPointer(cast ? cast_to_text(*cast, value) : value)));
    return std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

}  // namespace anon::pg

namespace {

// The text cast of the function's argument type, built on the first call of an expression (fn_extra). Kept out of
// line, so that its locals are not in the frame of the caller's PG_TRY (setjmp).
pg_noinline anon::pg::TextCast* text_cast_of(FunctionCallInfo fcinfo) {
    const Oid type = get_fn_expr_argtype(fcinfo->flinfo, 0);
    if (!OidIsValid(type))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("anon._canonical_text: could not determine the argument's type")));
    auto* const cached = static_cast<anon::pg::TextCast*>(fcinfo->flinfo->fn_extra);
    if (cached != nullptr && cached->type == type) return cached;
    auto* const cast =
        static_cast<anon::pg::TextCast*>(MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(anon::pg::TextCast)));
    anon::pg::init_text_cast(*cast, type, fcinfo->flinfo->fn_mcxt);
    fcinfo->flinfo->fn_extra = cast;
    return cast;
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(anon_canonical_text);

// anon._canonical_text(anyelement) RETURNS text: the value's `::text` under the canonical output settings, so that
// release views, taxonomy leaves and the job's reads agree whatever DateStyle, TimeZone, IntervalStyle,
// extra_float_digits and bytea_output the session has. A plain C function (no C++ objects live in it): it runs
// once per row of a release's view.
Datum anon_canonical_text(PG_FUNCTION_ARGS) {
    anon::pg::TextCast* const cast = text_cast_of(fcinfo);
    if (cast->path == COERCION_PATH_RELABELTYPE) PG_RETURN_DATUM(PG_GETARG_DATUM(0));
    const anon::pg::OutputSettings saved = anon::pg::set_canonical_output();
    volatile Datum result = 0;
    PG_TRY();
    { result = anon::pg::cast_to_text(*cast, PG_GETARG_DATUM(0)); }
    PG_FINALLY();
    { anon::pg::restore_output_settings(saved); }
    PG_END_TRY();
    PG_RETURN_DATUM(result);
}

}  // extern "C"
