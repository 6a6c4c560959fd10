-- anon 0.2 -> 0.3: releases that cannot be linked back (issue 16). Versions 0.1 and 0.2 are released and their
-- scripts are never edited again; `CREATE EXTENSION anon` runs anon--0.1.sql, anon--0.1--0.2.sql and this script,
-- and `ALTER EXTENSION anon UPDATE` brings an installed 0.1 or 0.2, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.3'" to load this file. \quit

-- ==== Non-superuser operations: the database owner dumps, restores and maintains every release (issue 16) ======
-- The database owner is anon's admin. It owns the catalog tables, so row-level security does not apply to it (nor
-- to the roles that have its privileges): it sees every taxonomy and release, anon.refresh_all, refresh_report and
-- anon-maintain run by it cover every release, and its pg_dump and pg_restore read and write every catalog row
-- (pg_dump refuses a table whose rows row-level security would filter, and COPY FROM refuses a table under
-- row-level security). Refreshing another role's release still needs that role's privileges, as PostgreSQL
-- refreshes a materialized view only for its owner: anon.refresh and anon._source_fingerprint say which role to
-- GRANT. docs/admin-and-dumps.md describes the role setup and the commands.

-- Gives the catalog tables (and taxonomy_node's sequence, which follows its table) to the current database owner;
-- returns that owner. Run by this script (so by CREATE EXTENSION, ALTER EXTENSION UPDATE and every restore), and
-- by the new owner after ALTER DATABASE ... OWNER TO. SECURITY DEFINER (owned by the superuser that runs this
-- script) so a non-superuser owner can take the catalog over from the previous one; any role may call it, as it
-- only ever hands the catalog to the database's own owner. The extension's initial privileges (pg_init_privs)
-- follow the new ACLs, as PostgreSQL 17 does itself on ALTER OWNER: otherwise pg_dump would emit GRANT ALL on the
-- catalog to this database's owner, which a restore into a database of another owner would apply.
CREATE FUNCTION anon.adopt_catalog()
RETURNS name
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    owner name := (SELECT pg_catalog.pg_get_userbyid(d.datdba) FROM pg_catalog.pg_database d
                   WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database());
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['anon.taxonomy', 'anon.taxonomy_node', 'anon.release'] LOOP
        EXECUTE pg_catalog.format('ALTER TABLE %s OWNER TO %I', t, owner);
    END LOOP;
    UPDATE pg_catalog.pg_init_privs i SET initprivs = c.relacl
    FROM pg_catalog.pg_class c
    WHERE i.objoid OPERATOR(pg_catalog.=) c.oid AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::regclass
      AND i.objsubid OPERATOR(pg_catalog.=) 0 AND c.relacl IS NOT NULL
      AND c.oid OPERATOR(pg_catalog.=) ANY (ARRAY['anon.taxonomy', 'anon.taxonomy_node', 'anon.taxonomy_node_ord_seq',
                                                  'anon.release']::regclass[]);
    RETURN owner;
END
$$;
SELECT anon.adopt_catalog();

-- Row-level security does not apply to the catalog's owner, so this trigger keeps the rule of the 0.1 policies for
-- it too: a release or taxonomy row is inserted or changed only by its creator's role and the roles that have
-- been granted it (and superusers). The admin sees every release but rewrites no configuration that another role
-- would publish with its own privileges at its next refresh. Deleting stays open to the admin (a deleted row
-- publishes nothing), as does taxonomy_node, whose cascades from anon.taxonomy run as the catalog's owner.
CREATE FUNCTION anon._check_catalog_write()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    creator name;
    what text;
BEGIN
    IF TG_TABLE_NAME OPERATOR(pg_catalog.=) 'release' THEN
        what := pg_catalog.format('the release %I.%I', NEW.output_schema, NEW.output_name);
    ELSE
        what := pg_catalog.format('the taxonomy %I', NEW.name);
    END IF;
    FOREACH creator IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW.created_by]
                                        ELSE ARRAY[OLD.created_by, NEW.created_by] END LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) creator
                       AND pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER'))
           AND NOT (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user)
        THEN
            RAISE EXCEPTION 'cannot % % of role %: only that role and the roles granted it write its catalog row',
                pg_catalog.lower(TG_OP), what, creator
                USING ERRCODE = 'insufficient_privilege',
                      HINT = pg_catalog.format('GRANT %I TO %I; (restoring a dump needs it for every role that '
                                               'made a release or taxonomy)', creator, current_user);
        END IF;
    END LOOP;
    RETURN NEW;
END
$$;
CREATE TRIGGER check_write BEFORE INSERT OR UPDATE ON anon.release
    FOR EACH ROW EXECUTE FUNCTION anon._check_catalog_write();
CREATE TRIGGER check_write BEFORE INSERT OR UPDATE ON anon.taxonomy
    FOR EACH ROW EXECUTE FUNCTION anon._check_catalog_write();

-- The role that made the release `output_schema`.`output_name`, or NULL when there is no such release or no
-- relation of its name (or its _qit table) exists: how anon.refresh, drop_release, metrics and the others tell a
-- caller that the name it gave is a release row-level security hides from it. SECURITY DEFINER, to look past
-- row-level security; it reveals only who made the release, as pg_class already shows who owns its relations.
CREATE FUNCTION anon._release_owner(output_schema text, output_name text)
RETURNS name
LANGUAGE sql STABLE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT r.created_by FROM anon.release r
    WHERE r.output_schema OPERATOR(pg_catalog.=) $1 AND r.output_name OPERATOR(pg_catalog.=) $2
      AND EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n
                  ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
                  WHERE n.nspname OPERATOR(pg_catalog.=) $1
                    AND c.relname OPERATOR(pg_catalog.=) ANY (ARRAY[$2, $2 OPERATOR(pg_catalog.||) '_qit']))
$$;

-- pg_restore runs with row_security = off, under which a query that row-level security would filter fails rather
-- than filters. The REFRESH MATERIALIZED VIEW at the end of a restore runs _release_map as the view's owner, which
-- reads its own catalog row through row-level security: on for this function, so a restore by the database owner
-- repopulates every role's views.
ALTER FUNCTION anon._release_map(text, text) SET row_security = on;
