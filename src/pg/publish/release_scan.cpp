#include "release_scan.hpp"

#include <string>

#include "infra/infra.hpp"
#include "release_object_rows.hpp"

extern "C" {
#include "catalog/objectaccess.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "executor/executor.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/syscache.h"
}

namespace anon::pg {

namespace {

constexpr const char* kScanName = "anon release rows";

// The executor state of a release scan. `rows` is made at the first row asked for (EXPLAIN alone makes none).
struct ReleaseScanState {
    CustomScanState css;
    FuncExpr* call;                // the call of anon._release_tuples, constant arguments
    MemoryContext values_context;  // the converted values; deleting it deletes `rows` too
    ReleaseObjectRows* rows;
    RowFormer* former;
    std::size_t next_run;
    std::size_t held;    // the run whose row `values` / `nulls` hold (ReleaseObjectRows::no_run: none)
    std::uint64_t left;  // times the current run's row is still to be returned
    HeapTuple repeated;  // the current run's row when it is returned more than once (in values_context)
    Datum* values;
    bool* nulls;
};

set_rel_pathlist_hook_type g_previous_hook = nullptr;
CustomPathMethods g_path_methods;
CustomScanMethods g_scan_methods;
CustomExecMethods g_exec_methods;

// True when `funcid` is anon._release_tuples, recognized by what it runs (the C symbol of this library), so that no
// other function is ever replaced.
bool is_release_tuples(Oid funcid) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
    if (!HeapTupleIsValid(tuple)) return false;
    bool found = false;
    if (reinterpret_cast<Form_pg_proc>(GETSTRUCT(tuple))->prolang == ClanguageId) {
        bool src_null = true, bin_null = true;
        const Datum src = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc, &src_null);
        const Datum bin = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_probin, &bin_null);
        if (!src_null && !bin_null) {
            const char* symbol = TextDatumGetCString(src);
            const char* library = TextDatumGetCString(bin);
            const char* base = std::strrchr(library, '/');
            base = base ? base + 1 : library;
            found = std::strcmp(symbol, "anon_release_tuples") == 0 &&
                    (std::strcmp(base, "anon") == 0 || std::strcmp(base, "anon.so") == 0);
        }
    }
    ReleaseSysCache(tuple);
    return found;
}

// The call of anon._release_tuples that a function relation can be scanned by the release scan for: one function,
// no ordinality, a column definition list, constant non-null arguments (STRICT: NULL ones return nothing, which
// the function scan does), no lateral reference, only columns referenced. nullptr otherwise.
FuncExpr* release_call(const RelOptInfo* rel, const RangeTblEntry* rte) {
    if (rte->rtekind != RTE_FUNCTION || rte->funcordinality || list_length(rte->functions) != 1) return nullptr;
    if (rel->reloptkind != RELOPT_BASEREL || !bms_is_empty(rel->lateral_relids)) return nullptr;
    const auto* function = static_cast<const RangeTblFunction*>(linitial(rte->functions));
    if (function->funccoltypes == NIL || !IsA(function->funcexpr, FuncExpr)) return nullptr;
    auto* call = reinterpret_cast<FuncExpr*>(function->funcexpr);
    if (call->funcretset == false || list_length(call->args) != 4) return nullptr;
    ListCell* cell;
    // The scan tuple has the call's columns, not a whole-row value (m::text) or a placeholder.
    foreach (cell, rel->reltarget->exprs) {
        const Node* expr = static_cast<const Node*>(lfirst(cell));
        if (!IsA(expr, Var) || reinterpret_cast<const Var*>(expr)->varattno <= 0) return nullptr;
    }
    foreach (cell, call->args) {
        const Node* arg = static_cast<const Node*>(lfirst(cell));
        if (!IsA(arg, Const) || reinterpret_cast<const Const*>(arg)->constisnull) return nullptr;
    }
    return is_release_tuples(call->funcid) ? call : nullptr;
}

// The planner hook: a relation of such a call gets the release scan as its only path.
void offer_release_scan(PlannerInfo* root, RelOptInfo* rel, Index rti, RangeTblEntry* rte) {
    if (g_previous_hook) g_previous_hook(root, rel, rti, rte);
    if (release_call(rel, rte) == nullptr) return;
    auto* path = reinterpret_cast<CustomPath*>(palloc0(sizeof(CustomPath)));
    path->path.type = T_CustomPath;
    path->path.pathtype = T_CustomScan;
    path->path.parent = rel;
    path->path.pathtarget = rel->reltarget;
    path->path.rows = rel->rows;
    path->path.startup_cost = 0;
    path->path.total_cost = rel->rows * cpu_tuple_cost;
    path->methods = &g_path_methods;
    rel->pathlist = NIL;
    rel->partial_pathlist = NIL;
    add_path(rel, &path->path);
}

// The plan: the scan tuple is every column of the call (its column definition list), as Vars of the relation, which
// the planner's references of the target list and quals are matched to.
Plan* plan_release_scan(PlannerInfo* root, RelOptInfo* rel, CustomPath* best_path, List* tlist, List* clauses,
                        List* custom_plans) {
    (void)best_path;
    (void)custom_plans;
    const RangeTblEntry* rte = root->simple_rte_array[rel->relid];
    const auto* function = static_cast<const RangeTblFunction*>(linitial(rte->functions));
    auto* scan = reinterpret_cast<CustomScan*>(palloc0(sizeof(CustomScan)));
    scan->scan.plan.type = T_CustomScan;
    scan->scan.plan.targetlist = tlist;
    scan->scan.plan.qual = extract_actual_clauses(clauses, false);
    scan->scan.scanrelid = 0;
    List* scan_tlist = NIL;
    for (int i = 0; i < list_length(function->funccoltypes); ++i) {
        Var* var = makeVar(rel->relid, static_cast<AttrNumber>(i + 1), list_nth_oid(function->funccoltypes, i),
                           list_nth_int(function->funccoltypmods, i), list_nth_oid(function->funccolcollations, i), 0);
        scan_tlist = lappend(
            scan_tlist, makeTargetEntry(reinterpret_cast<Expr*>(var), static_cast<AttrNumber>(i + 1), nullptr, false));
    }
    scan->custom_scan_tlist = scan_tlist;
    scan->custom_private = lappend(NIL, copyObjectImpl(function->funcexpr));
    scan->methods = &g_scan_methods;
    return &scan->scan.plan;
}

Node* create_release_scan_state(CustomScan* scan) {
    auto* state = reinterpret_cast<ReleaseScanState*>(palloc0(sizeof(ReleaseScanState)));
    state->css.ss.ps.type = T_CustomScanState;
    state->css.methods = &g_exec_methods;
    state->call = static_cast<FuncExpr*>(linitial(scan->custom_private));
    state->held = ReleaseObjectRows::no_run;
    return reinterpret_cast<Node*>(state);
}

// Deletes the rows when their memory context goes: at the end of the scan, or with the query's memory when it
// fails.
void delete_rows(void* arg) {
    auto* state = static_cast<ReleaseScanState*>(arg);
    delete state->rows;
    state->rows = nullptr;
    delete state->former;
    state->former = nullptr;
}

// The function's EXECUTE privilege is checked as a function scan checks it.
void begin_release_scan(CustomScanState* node, EState* estate, int eflags) {
    (void)eflags;
    auto* state = reinterpret_cast<ReleaseScanState*>(node);
    const Oid funcid = state->call->funcid;
    const AclResult acl = pg_proc_aclcheck(funcid, GetUserId(), ACL_EXECUTE);
    if (acl != ACLCHECK_OK) aclcheck_error(acl, OBJECT_FUNCTION, get_func_name(funcid));
    InvokeFunctionExecuteHook(funcid);
    state->values_context =
        AllocSetContextCreate(estate->es_query_cxt, "anon release scan values", ALLOCSET_DEFAULT_SIZES);
    auto* callback =
        static_cast<MemoryContextCallback*>(MemoryContextAlloc(state->values_context, sizeof(MemoryContextCallback)));
    callback->func = delete_rows;
    callback->arg = state;
    MemoryContextRegisterResetCallback(state->values_context, callback);
    // Without a filter or a projection of its own, the scan returns its rows as heap tuples, which the insert of a
    // materialized view stores without copying them again. Set before the plan's parent compiles its expressions,
    // which read the slot kind from here.
    if (node->ss.ps.qual == nullptr && node->ss.ps.ps_ProjInfo == nullptr) {
        ExecInitScanTupleSlot(estate, &node->ss, node->ss.ss_ScanTupleSlot->tts_tupleDescriptor, &TTSOpsHeapTuple);
        node->ss.ps.resultops = &TTSOpsHeapTuple;
        node->ss.ps.resultopsfixed = true;
        node->ss.ps.resultopsset = true;
    }
    const int natts = node->ss.ss_ScanTupleSlot->tts_tupleDescriptor->natts;
    state->values = static_cast<Datum*>(palloc0(sizeof(Datum) * natts));
    state->nulls = static_cast<bool*>(palloc0(sizeof(bool) * natts));
}

// The function's settings (SET row_security = on) apply while the rows are prepared (the catalog reads), as they
// would during the function's call.
ArrayType* function_settings(Oid funcid) {
    HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
    if (!HeapTupleIsValid(tuple)) elog(ERROR, "cache lookup failed for function %u", funcid);
    bool is_null = true;
    const Datum config = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_proconfig, &is_null);
    ArrayType* settings = is_null ? nullptr : DatumGetArrayTypePCopy(config);
    ReleaseSysCache(tuple);
    return settings;
}

// Prepares the rows at the first row asked for, under the function's settings. PostgreSQL may raise here, so
// this frame holds only C data; the C++ objects live inside the guarded call.
void prepare_rows(ReleaseScanState* state) {
    const List* args = state->call->args;
    const char* schema = TextDatumGetCString(static_cast<Const*>(list_nth(args, 0))->constvalue);
    const char* name = TextDatumGetCString(static_cast<Const*>(list_nth(args, 1))->constvalue);
    const char* object = TextDatumGetCString(static_cast<Const*>(list_nth(args, 3))->constvalue);
    ArrayType* settings = function_settings(state->call->funcid);
    int nest_level = 0;
    if (settings) {
        nest_level = NewGUCNestLevel();
        ProcessGUCArray(settings, superuser() ? PGC_SUSET : PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE);
    }
    guarded_callback([&] {
        const TupleDesc desc = state->css.ss.ss_ScanTupleSlot->tts_tupleDescriptor;
        state->rows = new ReleaseObjectRows(OutputName{schema, name}, object, desc, state->values_context);
        state->former = new RowFormer(desc, state->values_context);
    });
    if (settings) AtEOXact_GUC(true, nest_level);
}

// The next row: the current run's row again, or the next run's, as a heap tuple (a virtual slot, under a filter or a
// projection, gets its values). A row returned once is handed to the slot to free; a row returned several times is
// formed once and freed when its run ends (the slot's consumer copies what it keeps).
TupleTableSlot* next_release_row(ScanState* node) {
    auto* state = reinterpret_cast<ReleaseScanState*>(node);
    TupleTableSlot* slot = node->ss_ScanTupleSlot;
    ExecClearTuple(slot);
    if (state->rows == nullptr) prepare_rows(state);
    if (state->left == 0) {
        if (state->repeated) {
            heap_freetuple(state->repeated);
            state->repeated = nullptr;
        }
        while (state->left == 0) {
            if (state->next_run >= state->rows->runs()) return slot;
            state->left = state->rows->fill(state->next_run, state->values, state->nulls, state->held);
            state->held = state->next_run++;
        }
        if (state->left == 1) {
            --state->left;
            ExecForceStoreHeapTuple(state->former->form(state->values, state->nulls), slot, true);
            return slot;
        }
        const MemoryContext saved = MemoryContextSwitchTo(state->values_context);
        state->repeated = state->former->form(state->values, state->nulls);
        MemoryContextSwitchTo(saved);
    }
    --state->left;
    ExecForceStoreHeapTuple(state->repeated, slot, false);
    return slot;
}

bool recheck_release_row(ScanState* node, TupleTableSlot* slot) {
    (void)node;
    (void)slot;
    return true;
}

TupleTableSlot* exec_release_scan(CustomScanState* node) {
    return ExecScan(&node->ss, next_release_row, recheck_release_row);
}

void end_release_scan(CustomScanState* node) {
    auto* state = reinterpret_cast<ReleaseScanState*>(node);
    MemoryContextDelete(state->values_context);
}

// A rescan returns the same rows from the first (the release is computed once per query).
void rescan_release_scan(CustomScanState* node) {
    auto* state = reinterpret_cast<ReleaseScanState*>(node);
    state->next_run = 0;
    state->held = ReleaseObjectRows::no_run;
    state->left = 0;
    ExecScanReScan(&node->ss);
}

}  // namespace

void install_release_scan() {
    g_path_methods.CustomName = kScanName;
    g_path_methods.PlanCustomPath = plan_release_scan;
    g_scan_methods.CustomName = kScanName;
    g_scan_methods.CreateCustomScanState = create_release_scan_state;
    g_exec_methods.CustomName = kScanName;
    g_exec_methods.BeginCustomScan = begin_release_scan;
    g_exec_methods.ExecCustomScan = exec_release_scan;
    g_exec_methods.EndCustomScan = end_release_scan;
    g_exec_methods.ReScanCustomScan = rescan_release_scan;
    RegisterCustomScanMethods(&g_scan_methods);
    g_previous_hook = set_rel_pathlist_hook;
    set_rel_pathlist_hook = offer_release_scan;
}

}  // namespace anon::pg
