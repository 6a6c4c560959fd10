#include <algorithm>
#include <exception>

#include "base/base.hpp"
#include "boundary.hpp"
#include "canonical_text.hpp"
#include "spi.hpp"

extern "C" {
#include "utils/snapmgr.h"
}

namespace anon::pg {

namespace {

// The snapshot of the innermost live SnapshotScope, or nullptr (SPI then takes a new snapshot per statement).
Snapshot g_snapshot = nullptr;

// Plain C arrays of parameter values for SPI, built from the arguments: text, or bytea for those at `bytea_args` (the
// same varlena of their bytes).
struct SpiArgs {
    std::vector<Oid> types;
    std::vector<Datum> values;
    std::vector<char> nulls;
};

SpiArgs make_args(const std::vector<SqlArg>& args, const std::vector<std::size_t>& bytea_args) {
    SpiArgs a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const SqlArg& arg = args[i];
        const bool bytea = std::find(bytea_args.begin(), bytea_args.end(), i) != bytea_args.end();
        a.types.push_back(bytea ? BYTEAOID : TEXTOID);
        a.nulls.push_back(arg ? ' ' : 'n');
        a.values.push_back(0);
    }
    for (std::size_t i = 0; i < args.size(); ++i)
        if (args[i]) {
            const std::string& s = *args[i];
            Datum d = 0;
            pg_call([&] { d = PointerGetDatum(cstring_to_text_with_len(s.data(), static_cast<int>(s.size()))); });
            a.values[i] = d;
        }
    return a;
}

[[noreturn]] void spi_failed(const std::string& sql, int code) {
    throw Error(ErrorKind::internal, "SPI returned " + std::string(SPI_result_code_string(code)) + " for: " + sql);
}

}  // namespace

Spi::Spi() {
    int rc = 0;
    pg_call([&] { rc = SPI_connect(); });
    if (rc != SPI_OK_CONNECT) throw Error(ErrorKind::internal, "SPI_connect failed");
    connected_ = true;
}

Spi::~Spi() {
    // During unwinding the error ends the transaction, whose abort releases SPI; calling into PostgreSQL from a
    // destructor then would risk a longjmp through C++ frames.
    if (connected_ && std::uncaught_exceptions() == 0) pg_call([] { SPI_finish(); });
}

SnapshotScope::SnapshotScope(SnapshotOf which) : saved_(g_snapshot) {
    pg_call([&] {
        const bool statement = which == SnapshotOf::statement && ActiveSnapshotSet();
        registered_ = RegisterSnapshot(statement ? GetActiveSnapshot() : GetTransactionSnapshot());
    });
    g_snapshot = registered_;
}

SnapshotScope::~SnapshotScope() {
    g_snapshot = saved_;
    // On an error the transaction's abort releases the registration; PostgreSQL is not called while unwinding.
    if (std::uncaught_exceptions() == 0) pg_call([&] { UnregisterSnapshot(registered_); });
}

SPITupleTable* Spi::run(const std::string& sql, const std::vector<SqlArg>& args, int expected,
                        const std::vector<std::size_t>& bytea_args) {
    SpiArgs a = make_args(args, bytea_args);
    int rc = 0;
    pg_call([&] {
        if (g_snapshot == nullptr) {
            rc = SPI_execute_with_args(sql.c_str(), static_cast<int>(a.types.size()), a.types.data(), a.values.data(),
                                       a.nulls.data(), false, 0);
            return;
        }
        // Parallel workers allowed, as SPI_execute_with_args allows them (SPI_prepare would not).
        SPIPlanPtr plan =
            SPI_prepare_cursor(sql.c_str(), static_cast<int>(a.types.size()), a.types.data(), CURSOR_OPT_PARALLEL_OK);
        if (plan == nullptr) {
            rc = SPI_result;
            return;
        }
        rc = SPI_execute_snapshot(plan, a.values.data(), a.nulls.data(), g_snapshot, InvalidSnapshot, false, true, 0);
        SPI_freeplan(plan);
    });
    if (rc != expected) spi_failed(sql, rc);
    return SPI_tuptable;
}

void Spi::stream(const std::string& sql, DestReceiver* receiver) {
    int rc = 0;
    pg_call([&] {
        // read_only: the query runs under the active snapshot, which is the scope's while it is pushed.
        const bool push = g_snapshot != nullptr;
        if (push) PushActiveSnapshot(g_snapshot);
        SPIExecuteOptions options;
        memset(&options, 0, sizeof(options));
        options.read_only = true;
        options.dest = receiver;
        rc = SPI_execute_extended(sql.c_str(), &options);
        if (push) PopActiveSnapshot();
    });
    // SPI reports a query whose rows went to a receiver tagged DestNone (as stream's callers tag theirs) as
    // SPI_OK_UTILITY, not SPI_OK_SELECT.
    if (rc != SPI_OK_UTILITY) spi_failed(sql, rc);
}

std::vector<SqlRow> Spi::query(const std::string& sql, const std::vector<SqlArg>& args, int expected) {
    SPITupleTable* tt = run(sql, args, expected);
    std::vector<SqlRow> rows;
    if (tt == nullptr) return rows;
    const int ncols = tt->tupdesc->natts;
    const uint64 n = tt->numvals;
    rows.resize(n);
    // Values come out in their canonical text (numbers of the catalog, dates, ...), whatever the session's settings.
    const CanonicalOutputScope canonical;
    for (uint64 r = 0; r < n; ++r) {
        rows[r].resize(ncols);
        for (int c = 0; c < ncols; ++c) {
            char* v = nullptr;
            pg_call([&] { v = SPI_getvalue(tt->vals[r], tt->tupdesc, c + 1); });
            if (v) rows[r][c] = std::string(v);
        }
    }
    free_tuptable(tt);
    return rows;
}

std::uint64_t Spi::execute(const std::string& sql, const std::vector<SqlArg>& args, int expected,
                           const std::vector<std::size_t>& bytea_args) {
    SPITupleTable* tt = run(sql, args, expected, bytea_args);
    std::uint64_t n = SPI_processed;
    if (tt) free_tuptable(tt);
    return n;
}

std::optional<std::string> Spi::scalar(const std::string& sql, const std::vector<SqlArg>& args) {
    auto rows = query(sql, args);
    if (rows.empty() || rows[0].empty()) return std::nullopt;
    return rows[0][0];
}

std::optional<std::string> Spi::bytea_scalar(const std::string& sql, const std::vector<SqlArg>& args) {
    SPITupleTable* tt = run(sql, args, SPI_OK_SELECT);
    const char* data = nullptr;
    std::size_t size = 0;
    bool found = false;
    pg_call([&] {
        if (tt == nullptr || tt->numvals == 0) return;
        bool isnull = true;
        const Datum value = SPI_getbinval(tt->vals[0], tt->tupdesc, 1, &isnull);
        if (isnull) return;
        bytea* bytes = DatumGetByteaPP(value);  // detoasted in SPI's memory, freed when SPI finishes
        data = VARDATA_ANY(bytes);
        size = VARSIZE_ANY_EXHDR(bytes);
        found = true;
    });
    std::optional<std::string> out;
    if (found) out.emplace(data, size);
    if (tt) free_tuptable(tt);
    return out;
}

void free_tuptable(SPITupleTable* tt) {
    pg_call([&] { SPI_freetuptable(tt); });
}

std::string quote_ident(const std::string& name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string quote_literal(const std::string& value) {
    char* q = nullptr;
    pg_call([&] { q = quote_literal_cstr(value.c_str()); });
    return q;
}

std::string qualified_name(Oid relid) {
    char* rel = nullptr;
    char* nsp = nullptr;
    pg_call([&] {
        rel = get_rel_name(relid);
        if (rel) nsp = get_namespace_name(get_rel_namespace(relid));
    });
    if (!rel || !nsp)
        throw Error(ErrorKind::undefined_object, "relation with OID " + std::to_string(relid) + " does not exist");
    return quote_ident(nsp) + "." + quote_ident(rel);
}

}  // namespace anon::pg
