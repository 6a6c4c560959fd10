#include "release_upgrade.hpp"

#include <cstring>

#include "base/base.hpp"
#include "computed_release.hpp"
#include "infra/infra.hpp"
#include "release_objects.hpp"

extern "C" {
#include "pgtime.h"
#include "utils/bytea.h"
#include "utils/float.h"
}

namespace anon::pg {

namespace {

// The relation of a release whose definition joins the source: the generalized view, else the QIT table.
OutputName joining_relation(const ReleaseConfig& config) {
    const PublishForm form = publish_form(config.publication);
    return form.generalized ? OutputName{config.schema, config.name} : OutputName{config.schema, config.name + "_qit"};
}

// True when this session's output settings are the canonical ones.
bool session_output_canonical() {
    const char* zone = session_timezone ? pg_get_timezone_name(session_timezone) : nullptr;
    const bool utc = zone && (std::strcmp(zone, "UTC") == 0 || std::strcmp(zone, "Etc/UTC") == 0);
    return DateStyle == USE_ISO_DATES && IntervalStyle == INTSTYLE_POSTGRES && extra_float_digits > 0 &&
           bytea_output == BYTEA_OUTPUT_HEX && utc;
}

}  // namespace

bool has_text_key(Spi& spi, const ReleaseConfig& config) {
    const OutputName rel = joining_relation(config);
    if (!relation_exists(spi, rel)) return false;
    return !spi.scalar(
                   "SELECT 1 FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_depend d ON d.classid "
                   "OPERATOR(pg_catalog.=) 'pg_catalog.pg_rewrite'::pg_catalog.regclass AND d.objid "
                   "OPERATOR(pg_catalog.=) r.oid WHERE r.ev_class OPERATOR(pg_catalog.=) $1::pg_catalog.regclass "
                   "AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass AND "
                   "d.refobjid OPERATOR(pg_catalog.=) ANY (ARRAY[pg_catalog.to_regprocedure("
                   "'anon._canonical_text(anyelement)'), pg_catalog.to_regprocedure("
                   "'anon._release_rows(text,text,regclass)'), pg_catalog.to_regprocedure("
                   "'anon._release_tuples(text,text,regclass,text)')])",
                   {rel.qualified()})
                .has_value();
}

int begin_canonical_settings() {
    return begin_local_settings({{"DateStyle", "ISO, MDY"},
                                 {"IntervalStyle", "postgres"},
                                 {"TimeZone", "UTC"},
                                 {"extra_float_digits", "1"},
                                 {"bytea_output", "hex"}});
}

void check_text_key_refreshable(Spi& spi, const ReleaseConfig& config) {
    // Before the SQL update, the job reads the session's text too, as the view does.
    if (session_output_canonical() || !canonical_text_installed() || !has_text_key(spi, config)) return;
    std::vector<std::optional<std::string>> key(config.quasi_identifiers.begin(), config.quasi_identifiers.end());
    key.insert(key.end(), config.sensitive.begin(), config.sensitive.end());
    if (auto individual = config.publication.string("individual")) key.push_back(*individual);
    // Types whose text no output setting changes (domains are read through their base type).
    auto dependent = spi.scalar(
        "SELECT a.attname::pg_catalog.text FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid AND a.attname OPERATOR(pg_catalog.=) ANY ($2::pg_catalog.text[]) AND NOT "
        "a.attisdropped AND pg_catalog.format_type(COALESCE(NULLIF((SELECT t.typbasetype FROM pg_catalog.pg_type t "
        "WHERE t.oid OPERATOR(pg_catalog.=) a.atttypid), 0), a.atttypid), NULL) OPERATOR(pg_catalog.<>) ALL "
        "('{smallint,integer,bigint,numeric,text,\"character varying\",character,boolean,name,uuid,\"\\\"char\\\"\"}'"
        "::pg_catalog.text[]) ORDER BY a.attnum LIMIT 1",
        {std::to_string(config.source), array_literal(key)});
    if (!dependent) return;
    const std::string name = OutputName{config.schema, config.name}.qualified();
    throw Error(ErrorKind::invalid_parameter,
                "release " + name + " was published before anon 0.3: its view matches column \"" + *dependent +
                    "\" by its text under this session's DateStyle, TimeZone, IntervalStyle, extra_float_digits "
                    "and bytea_output, which are not the canonical ones, so refreshing it here would lose rows",
                {},
                "Refresh it with anon.refresh('" + name +
                    "'), which uses the canonical settings, or republish "
                    "it (params->>'replace' = 'true') to give its view the session-independent key.");
}

}  // namespace anon::pg
