#include "release_report.hpp"

#include "base/base.hpp"

namespace anon::pg {

std::string build_report(const ComputedRelease& computed, double ms) {
    JsonWriter w;
    w.begin_object();
    write_report(w, computed.source.schema, computed.result);
    w.field("source", computed.source.relation);
    if (!computed.output.name.empty())
        w.field("release", computed.output.qualified());
    else
        w.key("release").null();
    w.field("ms", ms).field("check_ms", computed.check_ms).field("read_ms", computed.read_ms);
    w.field("search_ms", computed.search_ms);
    w.field("peak_bytes", static_cast<long long>(computed.peak_bytes));
    if (!computed.kept_in.empty()) w.field("kept_in", computed.kept_in);
    if (computed.version.number > 0) {
        w.field("version", static_cast<long long>(computed.version.number));
        w.key("republication").raw(computed.version.republication_json);
        w.field("republication_ms", computed.version.ms);
    }
    if (!computed.source.taxonomies.empty()) {
        // What the release was computed with, so that a refresh notices a taxonomy changed under it.
        w.key("taxonomies").begin_array();
        for (const UsedTaxonomy& t : computed.source.taxonomies)
            w.begin_object()
                .field("column", t.column)
                .field("taxonomy", t.taxonomy)
                .field("owner", t.owner)
                .field("fingerprint", t.fingerprint)
                .end_object();
        w.end_array();
    }
    if (!computed.source.read_at_day.empty()) {
        // Read at their day (day_read.hpp): what its refreshes and the checks of its versions read the same way.
        w.key("read_at_day").begin_array();
        for (const DayColumn& d : computed.source.read_at_day) w.value(d.column);
        w.end_array();
    }
    if (!computed.typed.empty()) {
        w.key("typed_columns").begin_object();
        for (std::size_t j = 0; j < computed.typed.size(); ++j)
            w.field(computed.source.schema.qi_names[j], published_type_name(computed.typed[j].type));
        w.end_object();
    }
    w.end_object();
    return w.str();
}

}  // namespace anon::pg
