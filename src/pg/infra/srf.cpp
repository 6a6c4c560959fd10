#include "srf.hpp"

#include "base/base.hpp"
#include "boundary.hpp"

namespace anon::pg {

void require_column_definition_list(FunctionCallInfo fcinfo, const std::string& expected) {
    const auto* rsinfo = reinterpret_cast<const ReturnSetInfo*>(fcinfo->resultinfo);
    if (!rsinfo || !IsA(rsinfo, ReturnSetInfo) || !rsinfo->expectedDesc)
        bad_argument("column definition list", expected, "none");
}

MaterializedRows::MaterializedRows(FunctionCallInfo fcinfo)
    : rsinfo_(reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo)) {
    pg_call([&] { InitMaterializedSRF(fcinfo, 0); });
}

int MaterializedRows::columns() const { return rsinfo_->setDesc->natts; }

void MaterializedRows::put(Datum* values, bool* nulls) {
    pg_call([&] { tuplestore_putvalues(rsinfo_->setResult, rsinfo_->setDesc, values, nulls); });
    if ((++rows_ & 1023) == 0) check_pg_interrupts();
}

}  // namespace anon::pg
