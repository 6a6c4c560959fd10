// anon._canonical_text(anyelement) and the canonical output settings it shares with the SPI reads (spi.cpp).
#include <string>

#include "canonical_text.hpp"

extern "C" {
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
    const OutputSettings saved{DateStyle, DateOrder, IntervalStyle, extra_float_digits, bytea_output, session_timezone};
    DateStyle = USE_ISO_DATES;
    DateOrder = DATEORDER_MDY;
    IntervalStyle = INTSTYLE_POSTGRES;
    extra_float_digits = 1;
    bytea_output = BYTEA_OUTPUT_HEX;
    if (pg_tz* utc = utc_zone()) session_timezone = utc;
    return saved;
}

void restore_output_settings(const OutputSettings& saved) {
    DateStyle = saved.date_style;
    DateOrder = saved.date_order;
    IntervalStyle = saved.interval_style;
    extra_float_digits = saved.extra_float_digits;
    bytea_output = saved.bytea_output;
    session_timezone = saved.timezone;
}

std::string canonical_text_sql(const std::string& expression) { return "anon._canonical_text(" + expression + ")"; }

}  // namespace anon::pg

namespace {

// The output function of one argument type, cached in fn_extra for the calls of one expression.
struct OutputCache {
    Oid type;
    FmgrInfo output;
};

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

extern "C" {

PG_FUNCTION_INFO_V1(anon_canonical_text);

// anon._canonical_text(anyelement) RETURNS text: the value's text under the canonical output settings, so that
// release views, taxonomy leaves and the job's reads agree whatever DateStyle, TimeZone, IntervalStyle,
// extra_float_digits and bytea_output the session has. A plain C function (no C++ objects live in it): it runs
// once per row of a release's view.
Datum anon_canonical_text(PG_FUNCTION_ARGS) {
    auto* cache = static_cast<OutputCache*>(fcinfo->flinfo->fn_extra);
    const Oid type = get_fn_expr_argtype(fcinfo->flinfo, 0);
    if (!OidIsValid(type))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("anon._canonical_text: could not determine the argument's type")));
    if (cache == nullptr || cache->type != type) {
        refuse_money(type);
        cache = static_cast<OutputCache*>(MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(OutputCache)));
        Oid output = InvalidOid;
        bool varlena = false;
        getTypeOutputInfo(type, &output, &varlena);
        fmgr_info_cxt(output, &cache->output, fcinfo->flinfo->fn_mcxt);
        cache->type = type;
        fcinfo->flinfo->fn_extra = cache;
    }
    const anon::pg::OutputSettings saved = anon::pg::set_canonical_output();
    char* volatile text = nullptr;
    PG_TRY();
    {
        text = OutputFunctionCall(&cache->output, PG_GETARG_DATUM(0));
    }
    PG_FINALLY();
    {
        anon::pg::restore_output_settings(saved);
    }
    PG_END_TRY();
    PG_RETURN_TEXT_P(cstring_to_text(text));
}

}  // extern "C"
