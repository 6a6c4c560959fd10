#include "release_names.hpp"

#include "catalog_tables.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

std::string OutputName::qualified() const { return quote_ident(schema) + "." + quote_ident(name); }

OutputName resolve_output(const std::string& output) {
    if (output.empty()) bad_argument("output", "a relation name", "an empty string");
    OutputName out;
    char* nsp = nullptr;
    char* rel = nullptr;
    List* names = qualified_name_list(output, "output", "a relation name");
    pg_call([&] {
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
        .scalar(
            "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) "
            "c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname OPERATOR(pg_catalog.=) $2",
            {out.schema, out.name})
        .has_value();
}

bool is_release(Spi& spi, const OutputName& out) { return is_release(spi, out.schema, out.name); }

PublishForm publish_form(const PublicationOptions& publication) {
    const auto form = publication.publish;
    return {form != PublicationOptions::Publish::bucketized, form != PublicationOptions::Publish::generalized};
}

std::vector<OutputName> release_relations(const OutputName& out, const PublishForm& form) {
    std::vector<OutputName> rels;
    if (form.generalized) rels.push_back(out);
    if (form.bucketized) {
        rels.push_back({out.schema, out.name + "_qit"});
        rels.push_back({out.schema, out.name + "_st"});
    }
    return rels;
}

}  // namespace anon::pg
