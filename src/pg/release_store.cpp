#include "release_store.hpp"

#include <algorithm>
#include <chrono>

#include "error.hpp"
#include "json_writer.hpp"
#include "boundary.hpp"
#include "convert.hpp"

extern "C" {
#include "nodes/makefuncs.h"
#include "utils/guc.h"
#include "storage/proc.h"
}

namespace anon::pg {

namespace {

std::unique_ptr<ComputedRelease> g_handed_over;
LocalTransactionId g_handed_over_xact = InvalidLocalTransactionId;

}  // namespace

std::string OutputName::qualified() const { return quote_ident(schema) + "." + quote_ident(name); }

OutputName resolve_output(const std::string& output) {
    if (output.empty()) bad_argument("output", "a relation name", "an empty string");
    OutputName out;
    char* nsp = nullptr;
    char* rel = nullptr;
    pg_call([&] {
        List* names = stringToQualifiedNameList(output.c_str());
        RangeVar* rv = makeRangeVarFromNameList(names);
        Oid nspid = RangeVarGetCreationNamespace(rv);
        nsp = get_namespace_name(nspid);
        rel = pstrdup(rv->relname);
    });
    out.schema = nsp;
    out.name = rel;
    if (out.name.size() >= NAMEDATALEN - 4)
        bad_argument("output", "a name shorter than " + std::to_string(NAMEDATALEN - 4) + " bytes",
                     std::to_string(out.name.size()) + " bytes");
    return out;
}

bool relation_exists(Spi& spi, const OutputName& out) {
    return spi
        .scalar("SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) "
                "c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname OPERATOR(pg_catalog.=) $2",
                {out.schema, out.name})
        .has_value();
}

bool is_release(Spi& spi, const OutputName& out) {
    return spi
        .scalar("SELECT 1 FROM anon.release WHERE output_schema OPERATOR(pg_catalog.=) $1 AND output_name "
                "OPERATOR(pg_catalog.=) $2",
                {out.schema, out.name})
        .has_value();
}

void hand_over(std::unique_ptr<ComputedRelease> computed) {
    g_handed_over = std::move(computed);
    g_handed_over_xact = MyProc->lxid;
}

std::unique_ptr<ComputedRelease> take_handed_over(const OutputName& output) {
    std::unique_ptr<ComputedRelease> taken = std::move(g_handed_over);
    const bool same_xact = g_handed_over_xact == MyProc->lxid;
    g_handed_over_xact = InvalidLocalTransactionId;
    if (taken && same_xact && taken->output.schema == output.schema && taken->output.name == output.name) return taken;
    return nullptr;
}

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::unique_ptr<ComputedRelease> compute(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                         const std::vector<std::string>& sensitive, const std::string& model,
                                         const Params& params, const std::string& algorithm) {
    auto computed = std::make_unique<ComputedRelease>();
    auto start = std::chrono::steady_clock::now();
    computed->source = read_source(spi, source, qi, sensitive, params, TaxonomySource::catalog);
    computed->read_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    computed->result = run_job(computed->source.schema, computed->source.fs, model, params, algorithm);
    computed->search_ms = ms_since(start);
    return computed;
}

std::string build_report(const ComputedRelease& computed, double ms) {
    JsonWriter w;
    w.begin_object();
    write_report(w, computed.source.schema, computed.result);
    w.field("source", computed.source.relation);
    if (!computed.output.name.empty()) w.field("release", computed.output.qualified());
    else w.key("release").null();
    w.field("ms", ms).field("read_ms", computed.read_ms).field("search_ms", computed.search_ms);
    w.end_object();
    return w.str();
}

std::unique_ptr<ComputedRelease> compute_release(Spi& spi, const ReleaseConfig& config) {
    const auto start = std::chrono::steady_clock::now();
    auto computed = compute(spi, config.source, config.quasi_identifiers, config.sensitive, config.model,
                            config.params, config.algorithm);
    computed->output = {config.schema, config.name};
    computed->report_json = build_report(*computed, ms_since(start));
    return computed;
}

void populate_release(Spi& spi, const std::string& sql) {
    int nest_level = 0;
    pg_call([&] {
        nest_level = NewGUCNestLevel();
        (void)set_config_option("enable_mergejoin", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
    });
    spi.execute(sql, {}, SPI_OK_UTILITY);
    pg_call([&] { AtEOXact_GUC(true, nest_level); });
}

std::vector<std::string> keep_columns(Spi& spi, Oid source, const Params& params, const std::vector<std::string>& qi,
                                      const std::vector<std::string>& sensitive) {
    auto keep = param_string_array(params, "keep").value_or(std::vector<std::string>{});
    for (const auto& k : keep) {
        if (std::find(qi.begin(), qi.end(), k) != qi.end() || std::find(sensitive.begin(), sensitive.end(), k) != sensitive.end())
            bad_argument("params->'keep'", "columns that are neither quasi-identifiers nor sensitive",
                         "\"" + k + "\", which would publish its original values");
        if (k == "gid") bad_argument("params->'keep'", "columns other than gid (the class id column)", "\"gid\"");
        if (!spi.scalar("SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) $1::pg_catalog.oid "
                        "AND attname OPERATOR(pg_catalog.=) $2 AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped",
                        {std::to_string(source), k}))
            throw Error(ErrorKind::undefined_object, "invalid params->'keep': column \"" + k + "\" does not exist in " +
                                                         qualified_name(source));
    }
    return keep;
}

void create_release_view(Spi& spi, const OutputName& out, Oid source, const std::vector<std::string>& qi,
                         const std::vector<std::string>& sensitive, const std::vector<std::string>& keep,
                         bool global_recoding) {
    std::vector<std::string> cols(qi);
    cols.insert(cols.end(), sensitive.begin(), sensitive.end());
    std::string select = "m.gid", key;
    for (std::size_t i = 0; i < cols.size(); ++i) {
        select += ", m.label[" + std::to_string(i + 1) + "] AS " + quote_ident(cols[i]);
        key += (i ? ", " : "") + std::string("s.") + quote_ident(cols[i]) + "::pg_catalog.text";
    }
    for (const auto& k : keep) select += ", s." + quote_ident(k);
    const std::string map = "anon._release_map(" + quote_literal(out.schema) + ", " + quote_literal(out.name) + ")";
    std::string from;
    if (global_recoding) {
        from = qualified_name(source) + " s JOIN " + map + " m ON m.key OPERATOR(pg_catalog.=) ARRAY[" + key + "]";
    } else {
        // Tuples of one combination may go to several classes: number them and join on rank ranges.
        from = "(SELECT s.*, pg_catalog.row_number() OVER (PARTITION BY " + key + ") AS anon_rank FROM " +
               qualified_name(source) + " s) s JOIN " + map + " m ON m.key OPERATOR(pg_catalog.=) ARRAY[" + key +
               "] AND s.anon_rank OPERATOR(pg_catalog.>=) m.lo AND s.anon_rank OPERATOR(pg_catalog.<=) m.hi";
    }
    populate_release(spi, "CREATE MATERIALIZED VIEW " + out.qualified() + " AS SELECT " + select + " FROM " + from);
}

}  // namespace anon::pg
