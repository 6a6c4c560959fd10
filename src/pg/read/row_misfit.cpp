// anon._row_misfit: the per-row test of the source's checks before the read (source_precheck.cpp), in one call per
// row instead of an expression per column (a NULL test, a text cast and a hashed `= ANY` each): on Adult's rows 33
// times its scan took 0.40-0.45 s with eight columns checked, as long as the grouped read it precedes.
#include "infra/infra.hpp"

extern "C" {
#include "common/hashfn.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
}

namespace {

// One column's leaves: an open-addressing table of their canonical texts, slots holding a leaf's index + 1.
struct LeafTable {
    uint32 mask;
    uint32* slots;
    uint32* hashes;
    const char** data;
    int* length;
};

// How a column's value becomes its canonical text.
enum class ValueText : uint8 {
    as_is,    // text, varchar and their domains: the value's own bytes
    integer,  // int2, int4, int8: printed here (the same digits as their output functions)
    cast,     // any other type: its text cast under the canonical output settings
};

struct MisfitColumn {
    ValueText kind;
    Oid base_type;  // the argument's type, under its domains
    bool refuse_null;
    bool has_leaves;
    anon::pg::TextCast cast;
    LeafTable leaves;
};

struct MisfitCheck {
    int columns;
    bool any_cast;
    MisfitColumn* column;
};

// Whether `table` holds the text (data, length).
bool holds(const LeafTable& table, const char* data, int length) {
    const uint32 hash = hash_bytes(reinterpret_cast<const unsigned char*>(data), length);
    for (uint32 at = hash & table.mask;; at = (at + 1) & table.mask) {
        const uint32 slot = table.slots[at];
        if (slot == 0) return false;
        const uint32 leaf = slot - 1;
        if (table.hashes[leaf] == hash && table.length[leaf] == length && memcmp(table.data[leaf], data, length) == 0)
            return true;
    }
}

// Fills `table` with the texts elements[first, last) (palloc'd in the current context, as the elements are).
void build_leaf_table(LeafTable& table, const Datum* elements, const bool* nulls, int first, int last) {
    const int n = last - first;
    uint32 size = 16;
    while (size < static_cast<uint32>(2 * n)) size <<= 1;
    table.mask = size - 1;
    table.slots = static_cast<uint32*>(palloc0(size * sizeof(uint32)));
    table.hashes = static_cast<uint32*>(palloc(Max(n, 1) * sizeof(uint32)));
    table.data = static_cast<const char**>(palloc(Max(n, 1) * sizeof(const char*)));
    table.length = static_cast<int*>(palloc(Max(n, 1) * sizeof(int)));
    for (int i = 0; i < n; ++i) {
        if (nulls[first + i]) continue;
        text* t = pg_detoast_datum_packed(reinterpret_cast<struct varlena*>(DatumGetPointer(elements[first + i])));
        table.data[i] = VARDATA_ANY(t);
        table.length[i] = static_cast<int>(VARSIZE_ANY_EXHDR(t));
        table.hashes[i] = hash_bytes(reinterpret_cast<const unsigned char*>(table.data[i]), table.length[i]);
        uint32 at = table.hashes[i] & table.mask;
        while (table.slots[at] != 0) at = (at + 1) & table.mask;
        table.slots[at] = static_cast<uint32>(i) + 1;
    }
}

// Refuses an argument of the fixed three that is NULL or not a constant of the query (they are read once).
void check_fixed_argument(FunctionCallInfo fcinfo, int argument, const char* name) {
    if (PG_ARGISNULL(argument) || !get_fn_expr_arg_stable(fcinfo->flinfo, argument))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("anon._row_misfit: argument %s must be a constant array, found %s", name,
                               PG_ARGISNULL(argument) ? "NULL" : "an expression")));
}

// The checks of the call's expression, built on its first call from the constant arrays (in fn_mcxt, fn_extra).
// Kept out of line, so that its locals are not in the frame of the caller's PG_TRY (setjmp).
pg_noinline MisfitCheck* build_misfit_check(FunctionCallInfo fcinfo) {
    check_fixed_argument(fcinfo, 0, "leaves");
    check_fixed_argument(fcinfo, 1, "starts");
    check_fixed_argument(fcinfo, 2, "refuse_null");
    const MemoryContext saved = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
    ArrayType* leaves = PG_GETARG_ARRAYTYPE_P_COPY(0);
    ArrayType* starts = PG_GETARG_ARRAYTYPE_P_COPY(1);
    ArrayType* refuse_null = PG_GETARG_ARRAYTYPE_P_COPY(2);
    Datum *leaf_values, *start_values, *refuse_values;
    bool *leaf_nulls, *start_nulls, *refuse_nulls;
    int leaf_count, start_count, refuse_count;
    deconstruct_array(leaves, TEXTOID, -1, false, TYPALIGN_INT, &leaf_values, &leaf_nulls, &leaf_count);
    deconstruct_array(starts, INT4OID, 4, true, TYPALIGN_INT, &start_values, &start_nulls, &start_count);
    deconstruct_array(refuse_null, BOOLOID, 1, true, TYPALIGN_CHAR, &refuse_values, &refuse_nulls, &refuse_count);
    const int columns = PG_NARGS() - 3;
    if (start_count != columns + 1 || refuse_count != columns)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("anon._row_misfit: expected %d starts and %d refuse_null flags for %d values, found "
                               "%d and %d",
                               columns + 1, columns, columns, start_count, refuse_count)));
    auto* check = static_cast<MisfitCheck*>(palloc0(sizeof(MisfitCheck)));
    check->columns = columns;
    check->column = static_cast<MisfitColumn*>(palloc0(Max(columns, 1) * sizeof(MisfitColumn)));
    for (int c = 0; c < columns; ++c) {
        MisfitColumn& column = check->column[c];
        const Oid type = get_fn_expr_argtype(fcinfo->flinfo, 3 + c);
        const Oid base = getBaseType(type);
        anon::pg::init_text_cast(column.cast, type, fcinfo->flinfo->fn_mcxt);
        column.base_type = base;
        column.kind = column.cast.path == COERCION_PATH_RELABELTYPE           ? ValueText::as_is
                      : base == INT2OID || base == INT4OID || base == INT8OID ? ValueText::integer
                                                                              : ValueText::cast;
        column.refuse_null = !refuse_nulls[c] && DatumGetBool(refuse_values[c]);
        const int first = DatumGetInt32(start_values[c]), last = DatumGetInt32(start_values[c + 1]);
        if (start_nulls[c] || start_nulls[c + 1] || first < 0 || last < first || last > leaf_count)
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("anon._row_misfit: starts[%d..%d] must be a range of the %d leaves", c + 1, c + 2,
                                   leaf_count)));
        column.has_leaves = last > first;
        if (column.has_leaves) build_leaf_table(column.leaves, leaf_values, leaf_nulls, first, last);
        check->any_cast |= column.has_leaves && column.kind == ValueText::cast;
    }
    MemoryContextSwitchTo(saved);
    fcinfo->flinfo->fn_extra = check;
    return check;
}

// Whether the value of column c (not NULL) is outside its leaves, for the kinds printed without output settings.
bool outside_plain(const MisfitColumn& column, Datum value) {
    if (column.kind == ValueText::as_is) {
        text* t = pg_detoast_datum_packed(reinterpret_cast<struct varlena*>(DatumGetPointer(value)));
        return !holds(column.leaves, VARDATA_ANY(t), static_cast<int>(VARSIZE_ANY_EXHDR(t)));
    }
    char digits[MAXINT8LEN + 1];
    const int64 n = column.base_type == INT2OID   ? DatumGetInt16(value)
                    : column.base_type == INT4OID ? DatumGetInt32(value)
                                                  : DatumGetInt64(value);
    const int length = pg_lltoa(n, digits);
    return !holds(column.leaves, digits, length);
}

// Whether some value of a column of kind `cast` is outside its leaves; its text made under the canonical output
// settings, set once for the row. Out of line for the same reason as build_misfit_check.
pg_noinline bool cast_values_outside(FunctionCallInfo fcinfo, const MisfitCheck& check) {
    const anon::pg::OutputSettings saved = anon::pg::set_canonical_output();
    volatile bool outside = false;
    PG_TRY();
    {
        for (int c = 0; c < check.columns && !outside; ++c) {
            const MisfitColumn& column = check.column[c];
            if (column.kind != ValueText::cast || !column.has_leaves || PG_ARGISNULL(3 + c)) continue;
            const std::string_view text = anon::pg::value_text(&column.cast, PG_GETARG_DATUM(3 + c));
            outside = !holds(column.leaves, text.data(), static_cast<int>(text.size()));
        }
    }
    PG_FINALLY();
    { anon::pg::restore_output_settings(saved); }
    PG_END_TRY();
    return outside;
}

}  // namespace

extern "C" {

PG_FUNCTION_INFO_V1(anon_row_misfit);

// anon._row_misfit(leaves text[], starts int4[], refuse_null bool[], VARIADIC "any") RETURNS bool: whether the row's
// values (the variadic arguments, one per column) hold a NULL where refuse_null[c] or, for a column whose leaves are
// leaves[starts[c] + 1 .. starts[c + 1]] (none when equal), a value whose canonical text is not among them. A plain
// C function (no C++ objects live in it): it runs once per row of the source.
Datum anon_row_misfit(PG_FUNCTION_ARGS) {
    auto* check = static_cast<MisfitCheck*>(fcinfo->flinfo->fn_extra);
    if (check == nullptr) check = build_misfit_check(fcinfo);
    for (int c = 0; c < check->columns; ++c) {
        const MisfitColumn& column = check->column[c];
        if (PG_ARGISNULL(3 + c)) {
            if (column.refuse_null) PG_RETURN_BOOL(true);
            continue;
        }
        if (!column.has_leaves || column.kind == ValueText::cast) continue;
        if (outside_plain(column, PG_GETARG_DATUM(3 + c))) PG_RETURN_BOOL(true);
    }
    PG_RETURN_BOOL(check->any_cast && cast_values_outside(fcinfo, *check));
}

}  // extern "C"
