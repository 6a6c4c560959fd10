#!/usr/bin/env bash
# tests/scripts/install_upgrade_test.sh: a fresh install and an upgrade from 0.1 give the same schema (issue 37).
# `CREATE EXTENSION anon` runs the current install script sql/anon--<default_version>.sql alone; `CREATE EXTENSION
# anon VERSION '0.1'` then `ALTER EXTENSION anon UPDATE` runs anon--0.1.sql and every upgrade script. A change to the
# current version must go into both; this test enforces it. For a superuser and for a non-superuser database owner
# (the extension is trusted: its scripts then run as the bootstrap superuser), it installs both ways into two
# databases and compares a canonical, sorted description of everything the extension owns: every member object
# (pg_depend deptype 'e'), functions by pg_get_functiondef (signature, defaults, result, language, volatility,
# strictness, SECURITY DEFINER, SET clauses, support function, body), relations with their columns (types, defaults,
# not-null), constraints, indexes, view definitions, triggers, policies, rules, sequence parameters and ownership,
# row-level security, the types in the schema, event triggers, the owner, ACL and comment of every object (and of the
# schema), the initial privileges pg_dump compares ACLs with (pg_init_privs), and the tables registered with
# pg_extension_config_dump. Differences are printed as a unified diff (fresh install: -, upgrade: +).
# Checks, each counted as one pass or failure: the install script of the default version is installed (else CREATE
# EXTENSION would replay the chain and the comparison would prove nothing); each way reaches the default version;
# the two descriptions are equal, for each role; and the description sees a changed function body.
# Needs the extension installed and a server in PGHOST/PGPORT/PGUSER (a superuser); without PGHOST it starts a
# throwaway cluster with scripts/cluster.sh. The last line is "install/upgrade: N passed, M failed"; the exit status
# is non-zero when a check failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if [ -z "${PGHOST:-}" ]; then
    # shellcheck source=scripts/cluster.sh
    source scripts/cluster.sh
    cluster_start >/dev/null || { echo "install/upgrade: 0 passed, 1 failed"; exit 1; }
fi
FIRST_VERSION=0.1  # anon--0.1.sql, the first released version
OWNER=anon_install_test_owner
FRESH=anon_install_fresh
UPGRADED=anon_install_upgraded
WORK=$(mktemp -d /tmp/anon-install-upgrade.XXXXXX)
# shellcheck source=tests/scripts/checks.sh
source tests/scripts/checks.sh
# as ROLE DB [psql args]: psql as that role (the superuser is $PGUSER), unaligned, stopping at the first error.
as() { local role=$1 db=$2; shift 2; psql -X -At -q -v ON_ERROR_STOP=1 -U "$role" -d "$db" "$@"; }
cleanup() {
    for db in $FRESH $UPGRADED; do psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; done
    psql -X -q -d postgres -c "DROP ROLE IF EXISTS $OWNER" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap 'cleanup; type cluster_stop >/dev/null 2>&1 && cluster_stop' EXIT
cleanup
mkdir -p "$WORK"

# Everything the extension owns, one block per object ("== key" then its description), sorted by key. ACL entries are
# sorted (their order means nothing); a NULL ACL (the default privileges) stays distinct from an explicit one.
DESCRIBE_SQL=$(cat <<'SQL'
WITH ext AS (SELECT e.* FROM pg_catalog.pg_extension e WHERE e.extname = 'anon'),
member AS (
    SELECT d.classid, d.objid, d.objsubid FROM pg_catalog.pg_depend d, ext
    WHERE d.refclassid = 'pg_catalog.pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
rel AS (
    SELECT c.* FROM pg_catalog.pg_class c JOIN member m
    ON m.classid = 'pg_catalog.pg_class'::regclass AND m.objid = c.oid),
-- ACLs (current, or initial: pg_init_privs) as sorted text: 'default' for NULL (the default privileges), 'none' for
-- an empty one.
acl(initial, classid, objid, objsubid, text) AS (
    SELECT o.initial, o.classid, o.objid, o.objsubid,
           CASE WHEN o.acl IS NULL THEN 'default'
                ELSE (SELECT coalesce(string_agg(a::text, ' ' ORDER BY a::text), 'none') FROM unnest(o.acl) a) END
    FROM (SELECT false, 'pg_catalog.pg_namespace'::regclass, n.oid, 0, n.nspacl FROM pg_catalog.pg_namespace n
          UNION ALL SELECT false, 'pg_catalog.pg_proc'::regclass, p.oid, 0, p.proacl FROM pg_catalog.pg_proc p
          UNION ALL SELECT false, 'pg_catalog.pg_class'::regclass, c.oid, 0, c.relacl FROM pg_catalog.pg_class c
          UNION ALL SELECT false, 'pg_catalog.pg_class'::regclass, a.attrelid, a.attnum, a.attacl
                    FROM pg_catalog.pg_attribute a
          UNION ALL SELECT false, 'pg_catalog.pg_type'::regclass, t.oid, 0, t.typacl FROM pg_catalog.pg_type t
          UNION ALL SELECT true, i.classoid, i.objoid, i.objsubid, i.initprivs FROM pg_catalog.pg_init_privs i)
         AS o(initial, classid, objid, objsubid, acl)),
item(key, body) AS (
    SELECT 'extension anon',
           format(E'version %s, owner %s, schema %s, relocatable %s\ndumped tables %s\nconditions %L\ncomment %L',
                  e.extversion, pg_get_userbyid(e.extowner), e.extnamespace::regnamespace, e.extrelocatable,
                  e.extconfig::regclass[], e.extcondition, obj_description(e.oid, 'pg_extension'))
    FROM ext e
    UNION ALL
    SELECT 'member ' || pg_describe_object(m.classid, m.objid, m.objsubid), '' FROM member m
    UNION ALL
    SELECT 'schema ' || n.nspname,
           format('owner %s, acl %s, comment %L', pg_get_userbyid(n.nspowner), a.text,
                  obj_description(n.oid, 'pg_namespace'))
    FROM pg_catalog.pg_namespace n JOIN ext ON n.oid = ext.extnamespace
    JOIN acl a ON NOT a.initial AND a.classid = 'pg_catalog.pg_namespace'::regclass AND a.objid = n.oid
    UNION ALL
    SELECT 'function ' || p.oid::regprocedure,
           format(E'owner %s, acl %s, comment %L\n%s', pg_get_userbyid(p.proowner), a.text,
                  obj_description(p.oid, 'pg_proc'), pg_get_functiondef(p.oid))
    FROM pg_catalog.pg_proc p JOIN member m ON m.classid = 'pg_catalog.pg_proc'::regclass AND m.objid = p.oid
    JOIN acl a ON NOT a.initial AND a.classid = 'pg_catalog.pg_proc'::regclass AND a.objid = p.oid
    UNION ALL
    SELECT 'relation ' || c.oid::regclass,
           format('kind %s, owner %s, acl %s, options %L, persistence %s, row security %s, forced %s, '
                  'replica identity %s, comment %L', c.relkind, pg_get_userbyid(c.relowner), a.text, c.reloptions,
                  c.relpersistence, c.relrowsecurity, c.relforcerowsecurity, c.relreplident,
                  obj_description(c.oid, 'pg_class'))
    FROM rel c
    JOIN acl a ON NOT a.initial AND a.classid = 'pg_catalog.pg_class'::regclass AND a.objid = c.oid AND a.objsubid = 0
    UNION ALL
    SELECT format('relation %s column %s %s', c.oid::regclass, lpad(t.attnum::text, 3, '0'), t.attname),
           format('type %s, not null %s, default %L, identity %s, generated %s, collation %s, acl %s, comment %L',
                  format_type(t.atttypid, t.atttypmod), t.attnotnull, pg_get_expr(d.adbin, d.adrelid), t.attidentity,
                  t.attgenerated, t.attcollation::regcollation, a.text, col_description(c.oid, t.attnum))
    FROM rel c JOIN pg_catalog.pg_attribute t ON t.attrelid = c.oid AND t.attnum > 0 AND NOT t.attisdropped
    JOIN acl a ON NOT a.initial AND a.classid = 'pg_catalog.pg_class'::regclass AND a.objid = c.oid
              AND a.objsubid = t.attnum
    LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = c.oid AND d.adnum = t.attnum
    UNION ALL
    SELECT format('relation %s constraint %s', c.oid::regclass, k.conname),
           format('%s, comment %L', pg_get_constraintdef(k.oid), obj_description(k.oid, 'pg_constraint'))
    FROM rel c JOIN pg_catalog.pg_constraint k ON k.conrelid = c.oid
    UNION ALL
    SELECT format('relation %s index %s', c.oid::regclass, i.indexrelid::regclass),
           format('%s, primary %s, comment %L', pg_get_indexdef(i.indexrelid), i.indisprimary,
                  obj_description(i.indexrelid, 'pg_class'))
    FROM rel c JOIN pg_catalog.pg_index i ON i.indrelid = c.oid
    UNION ALL
    SELECT format('relation %s trigger %s', c.oid::regclass, t.tgname),
           format('%s, enabled %s, comment %L', pg_get_triggerdef(t.oid), t.tgenabled,
                  obj_description(t.oid, 'pg_trigger'))
    FROM rel c JOIN pg_catalog.pg_trigger t ON t.tgrelid = c.oid AND NOT t.tgisinternal
    UNION ALL
    SELECT format('relation %s policy %s', c.oid::regclass, p.polname),
           format('command %s, permissive %s, roles %s, using %L, with check %L', p.polcmd, p.polpermissive,
                  ARRAY(SELECT CASE WHEN r = 0 THEN 'public' ELSE pg_get_userbyid(r)::text END
                        FROM unnest(p.polroles) r ORDER BY 1),
                  pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid))
    FROM rel c JOIN pg_catalog.pg_policy p ON p.polrelid = c.oid
    UNION ALL
    SELECT format('relation %s rule %s', c.oid::regclass, r.rulename),
           format('%s, enabled %s', pg_get_ruledef(r.oid), r.ev_enabled)
    FROM rel c JOIN pg_catalog.pg_rewrite r ON r.ev_class = c.oid
    UNION ALL
    SELECT format('relation %s sequence', c.oid::regclass),
           format('type %s, start %s, increment %s, min %s, max %s, cache %s, cycle %s, owned by %s',
                  s.seqtypid::regtype, s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle,
                  (SELECT string_agg(d.refobjid::regclass || '.' || t.attname, ' ') FROM pg_catalog.pg_depend d
                   JOIN pg_catalog.pg_attribute t ON t.attrelid = d.refobjid AND t.attnum = d.refobjsubid
                   WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'a'
                     AND d.refclassid = 'pg_catalog.pg_class'::regclass))
    FROM rel c JOIN pg_catalog.pg_sequence s ON s.seqrelid = c.oid
    UNION ALL
    SELECT 'type ' || t.oid::regtype,
           format('kind %s, relation %s, element %s, owner %s, acl %s, comment %L', t.typtype, t.typrelid::regclass,
                  t.typelem::regtype, pg_get_userbyid(t.typowner), a.text, obj_description(t.oid, 'pg_type'))
    FROM pg_catalog.pg_type t JOIN ext ON t.typnamespace = ext.extnamespace
    JOIN acl a ON NOT a.initial AND a.classid = 'pg_catalog.pg_type'::regclass AND a.objid = t.oid
    UNION ALL
    SELECT 'event trigger ' || v.evtname,
           format('on %s, tags %L, function %s, owner %s, enabled %s, comment %L', v.evtevent, v.evttags,
                  v.evtfoid::regprocedure, pg_get_userbyid(v.evtowner), v.evtenabled,
                  obj_description(v.oid, 'pg_event_trigger'))
    FROM pg_catalog.pg_event_trigger v JOIN member m
    ON m.classid = 'pg_catalog.pg_event_trigger'::regclass AND m.objid = v.oid
    UNION ALL
    SELECT 'initial privileges of ' || pg_describe_object(i.classoid, i.objoid, i.objsubid),
           format('type %s, %s', i.privtype, a.text)
    FROM pg_catalog.pg_init_privs i
    JOIN acl a ON a.initial AND (a.classid, a.objid, a.objsubid) = (i.classoid, i.objoid, i.objsubid)
    WHERE (i.classoid, i.objoid) IN (SELECT m.classid, m.objid FROM member m)
       OR (i.classoid, i.objoid) = ('pg_catalog.pg_namespace'::regclass, (SELECT extnamespace FROM ext))
)
SELECT '== ' || key || E'\n' || body FROM item ORDER BY key COLLATE "C", body COLLATE "C";
SQL
)

# describe DB FILE: the description of the extension in DB.
describe() { as "$PGUSER" "$1" -c "$DESCRIBE_SQL" >"$2"; }

# same_schema NAME FRESH_FILE UPGRADED_FILE: one check; prints the diff when the descriptions differ.
same_schema() {
    local diff_file=$3.diff
    # -F: each hunk's header names the object its lines belong to.
    if diff -u -F '^== ' --label "fresh CREATE EXTENSION anon" \
            --label "CREATE EXTENSION anon VERSION '$FIRST_VERSION' + UPDATE" "$2" "$3" >"$diff_file"; then
        check "$1" 0 ""
    else
        cat "$diff_file"
        check "$1" 1 "the descriptions differ: diff above (-: fresh install, +: upgrade)"
    fi
}

default_version=$(as "$PGUSER" postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'anon'")
sharedir=$(as "$PGUSER" postgres -c "SELECT setting FROM pg_config WHERE name = 'SHAREDIR'")
script=$sharedir/extension/anon--$default_version.sql
check "the install script of the default version ($default_version) is installed, so CREATE EXTENSION runs it alone" \
    "$([ -n "$default_version" ] && [ -f "$script" ]; echo $?)" "no $script"

as "$PGUSER" postgres -c "CREATE ROLE $OWNER LOGIN"
# install_both_ways ROLE: the two databases, owned by ROLE, each with the extension installed one way by ROLE.
install_both_ways() {
    local role=$1 db version
    for db in $FRESH $UPGRADED; do
        psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
        as "$PGUSER" postgres -c "CREATE DATABASE $db OWNER $role" || return 1
    done
    as "$role" "$FRESH" -c "CREATE EXTENSION anon" || return 1
    as "$role" "$UPGRADED" -c "CREATE EXTENSION anon VERSION '$FIRST_VERSION'" -c "ALTER EXTENSION anon UPDATE" ||
        return 1
    for db in $FRESH $UPGRADED; do
        version=$(as "$PGUSER" "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'anon'")
        [ "$version" = "$default_version" ] || { echo "$db: at version $version, not $default_version"; return 1; }
    done
}

for role in "$PGUSER" "$OWNER"; do
    who=$([ "$role" = "$PGUSER" ] && echo "a superuser" || echo "a non-superuser database owner")
    install_both_ways "$role"
    check "$who installs $default_version directly and from $FIRST_VERSION with ALTER EXTENSION anon UPDATE" $? \
        "see the errors above"
    describe "$FRESH" "$WORK/fresh-$role.txt"
    describe "$UPGRADED" "$WORK/upgraded-$role.txt"
    same_schema "for $who, a fresh install and an upgrade from $FIRST_VERSION have the same schema" \
        "$WORK/fresh-$role.txt" "$WORK/upgraded-$role.txt"
done

# The description is not blind: it covers every function, and a body changed after the install shows in it.
functions=$(grep -c '^== function ' "$WORK/fresh-$OWNER.txt")
members=$(as "$PGUSER" "$FRESH" -c "SELECT count(*) FROM pg_depend WHERE deptype = 'e' AND classid = 'pg_proc'::regclass
                                    AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'anon')")
as "$PGUSER" "$UPGRADED" -c "CREATE OR REPLACE FUNCTION anon._holds(role name) RETURNS boolean LANGUAGE sql STABLE
                             SET search_path = pg_catalog, pg_temp AS 'SELECT false'"
describe "$UPGRADED" "$WORK/changed.txt"
changed=$(diff -U 30 "$WORK/fresh-$OWNER.txt" "$WORK/changed.txt" | grep -c '^ == function anon._holds(name)$')
check "the description covers all $members functions and sees a changed function body" \
    "$([ "$members" -gt 0 ] && [ "$functions" -eq "$members" ] && [ "$changed" -eq 1 ]; echo $?)" \
    "$functions of $members functions described; the change of anon._holds seen: $changed"

report_checks "install/upgrade"
