-- anon 0.2 -> 0.3: releases that cannot be linked back (issue 16). Versions 0.1 and 0.2 are released and their
-- scripts are never edited again; `CREATE EXTENSION anon` runs anon--0.1.sql, anon--0.1--0.2.sql and this script,
-- and `ALTER EXTENSION anon UPDATE` brings an installed 0.1 or 0.2, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.3'" to load this file. \quit

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

-- ==== Catalog integrity and maintenance status words (issue 16, branch issue16-maint) =========================
-- Taxonomies in use cannot be dropped or renamed; dropping a release's objects cleans or flags its catalog row;
-- CALL anon.refresh_all() refuses transaction blocks at once; refresh_report, refresh_if_changed, refresh_all and
-- anon-maintain report one status word per release. User documentation: docs/catalog-integrity.md.

-- The relations a release publishes, by its params->>'publish': <output> (generalized), <output>_qit and
-- <output>_st (bucketized), all three for 'both'.
CREATE FUNCTION anon._release_relations(output_schema name, output_name name, params jsonb)
RETURNS TABLE (schema_name name, relation_name name)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog
AS $$
    SELECT $1, r.name::name
    FROM (VALUES (1, $2::text, 'generalized'), (2, $2 || '_qit', 'bucketized'), (3, $2 || '_st', 'bucketized'))
         AS r(o, name, form)
    WHERE coalesce($3->>'publish', 'generalized') IN (r.form, 'both')
    ORDER BY r.o
$$;

-- What is gone of a release: its source (by OID; named as its last report names it) and any of its materialized
-- views (by name). NULL when nothing is missing; otherwise the release is "orphaned".
CREATE FUNCTION anon._release_missing(r anon.release)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon
AS $$
    SELECT array_agg(m.what ORDER BY m.o) FROM (
        SELECT 0::bigint AS o, 'its source ' || coalesce(r.report->>'source', 'with OID ' || r.source::oid::text) AS what
        WHERE NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.oid = r.source::oid)
        UNION ALL
        SELECT x.o, format('%I.%I', x.schema_name, x.relation_name)
        FROM anon._release_relations(r.output_schema, r.output_name, r.params)
             WITH ORDINALITY AS x(schema_name, relation_name, o)
        WHERE NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                          WHERE n.nspname = x.schema_name AND c.relname = x.relation_name AND c.relkind = 'm')
    ) m
$$;

-- Event trigger: after any DROP (of a table, a view, a schema, DROP OWNED, ...), removes the catalog rows of the
-- releases that lost an object in it (their source or one of their views) and have none of their views left. A
-- release that keeps some views stays, and every maintenance path reports it as orphaned until anon.drop_release
-- removes it. SECURITY DEFINER (owned by the superuser that ran the extension script, so row-level security does
-- not hide the rows of other roles, whose views a DROP ... CASCADE may take), with pg_temp last on its search_path
-- and catalog names qualified, so no temporary object can stand in for them. A failure here never blocks the
-- user's DROP: it is reported as a WARNING and the rows are then reported as orphaned.
CREATE FUNCTION anon._forget_dropped_releases()
RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, anon, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_event_trigger_dropped_objects() d
                   WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objsubid = 0) THEN
        RETURN;
    END IF;
    BEGIN
        WITH dropped AS MATERIALIZED (
            SELECT d.objid, d.schema_name, d.object_name FROM pg_catalog.pg_event_trigger_dropped_objects() d
            WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objsubid = 0)
        DELETE FROM anon.release r
        WHERE EXISTS (SELECT 1 FROM dropped d
                      WHERE d.objid = r.source::oid
                         OR (d.schema_name, d.object_name) IN
                            (SELECT x.schema_name, x.relation_name
                             FROM anon._release_relations(r.output_schema, r.output_name, r.params) x))
          AND NOT EXISTS (SELECT 1 FROM anon._release_relations(r.output_schema, r.output_name, r.params) x
                          JOIN pg_catalog.pg_namespace n ON n.nspname = x.schema_name
                          JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = x.relation_name);
    EXCEPTION WHEN query_canceled THEN
        RAISE;
    WHEN OTHERS THEN
        RAISE WARNING 'anon: could not remove the catalog rows of dropped releases: %', SQLERRM
            USING HINT = 'anon.refresh_report() reports them as orphaned; remove them with anon.drop_release.';
    END;
END
$$;

CREATE EVENT TRIGGER anon_forget_dropped_releases ON sql_drop
    EXECUTE FUNCTION anon._forget_dropped_releases();

-- Whether a release with these columns and params uses a taxonomy: for each quasi-identifier and sensitive
-- column, params->'taxonomies'->>column, or else the column's own name.
CREATE FUNCTION anon._uses_taxonomy(quasi_identifiers text[], sensitive text[], params jsonb, taxonomy text)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog
AS $$
    SELECT EXISTS (SELECT 1 FROM unnest($1 || $2) AS c(name) WHERE coalesce($3->'taxonomies'->>c.name, c.name) = $4)
$$;

-- How many releases, of every role, use a taxonomy. SECURITY DEFINER so that releases hidden from the caller by
-- row-level security are counted (only counted: their names stay hidden).
CREATE FUNCTION anon._taxonomy_use_count(taxonomy text)
RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, anon, pg_temp
AS $$
    SELECT count(*) FROM anon.release r WHERE anon._uses_taxonomy(r.quasi_identifiers, r.sensitive, r.params, $1)
$$;

-- Trigger: refuses to delete (anon.drop_taxonomy, or DELETE FROM anon.taxonomy) or rename a taxonomy that a
-- release uses, naming the releases the caller sees and counting those of other roles.
CREATE FUNCTION anon._refuse_taxonomy_in_use()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, anon
AS $$
DECLARE
    total bigint;
    visible text[];
    hidden bigint;
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.name = OLD.name THEN
        RETURN NEW;
    END IF;
    total := anon._taxonomy_use_count(OLD.name);
    IF total > 0 THEN
        SELECT array_agg(format('%I.%I', r.output_schema, r.output_name) ORDER BY r.output_schema, r.output_name)
        INTO visible FROM anon.release r
        WHERE anon._uses_taxonomy(r.quasi_identifiers, r.sensitive, r.params, OLD.name);
        hidden := total - coalesce(cardinality(visible), 0);
        RAISE EXCEPTION 'cannot % taxonomy "%": it is used by %', CASE TG_OP WHEN 'DELETE' THEN 'drop' ELSE 'rename' END,
            OLD.name, concat_ws(' and ',
                CASE WHEN cardinality(visible) = 1 THEN 'release ' || visible[1]
                     WHEN cardinality(visible) > 1 THEN 'releases ' || array_to_string(visible, ', ') END,
                CASE WHEN hidden = 1 THEN '1 release of another role'
                     WHEN hidden > 1 THEN hidden || ' releases of other roles' END)
            USING ERRCODE = 'dependent_objects_still_exist',
                  HINT = 'Drop those releases first (anon.drop_release), or publish them again with another taxonomy.';
    END IF;
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;

CREATE TRIGGER refuse_taxonomy_in_use BEFORE DELETE OR UPDATE OF name ON anon.taxonomy
    FOR EACH ROW EXECUTE FUNCTION anon._refuse_taxonomy_in_use();

-- NULL when the calling procedure may commit, else where it runs (see src/pg/fn_transaction.cpp).
CREATE FUNCTION anon._commit_blocker()
RETURNS text
AS 'MODULE_PATHNAME', 'anon_commit_blocker'
LANGUAGE C VOLATILE;

-- The refresh functions gain a status column (their result type changes, so they are dropped and recreated).
DROP PROCEDURE anon.refresh_all(integer, text[]);
DROP FUNCTION anon.refresh_report();
DROP FUNCTION anon.refresh_if_changed(text);
DROP FUNCTION anon._refresh_release(text);

-- Refreshes one release if its input changed since it was last computed (new, changed or deleted rows in the
-- QI, sensitive or individual columns, or a changed taxonomy), then re-verifies its generalized view with
-- anon.verify against its model, class by class (gid). Failures are reported, not raised, as one status:
--   unchanged       input unchanged, verified: satisfies its model
--   refreshed       input changed, recomputed, verified: satisfies its model
--   unsatisfied     verified: some classes violate the model (detail counts them)
--   refresh_failed  the input could not be read or the release could not be recomputed (e.g. the new data cannot
--                   satisfy the model); the previous release is kept
--   verify_failed   the verification itself failed; any refresh in this call is undone, the previous release kept
--   orphaned        the source or some of the release's views were dropped; nothing is read (anon.drop_release)
--   not_permitted   the caller may not read the source or refresh the views (insufficient privilege)
-- `output` is the quoted, schema-qualified name (anon.refresh_if_changed resolves other spellings).
CREATE FUNCTION anon._refresh_release(output text)
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text, status text)
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, anon
AS $$
DECLARE
    r anon.release;
    missing text[];
    checked_model text;
    v jsonb;
    step text;
    error_code text;
    parts text[];
    hidden_schema text;
    hidden_owner name;
BEGIN
    SELECT * INTO r FROM anon.release x WHERE pg_catalog.format('%I.%I', x.output_schema, x.output_name) = output;
    IF NOT FOUND THEN
        -- A release row-level security hides from the caller is named as anon.refresh names it: whose it is.
        BEGIN
            parts := pg_catalog.parse_ident(output);
        EXCEPTION WHEN OTHERS THEN
            parts := ARRAY[output];
        END;
        SELECT p.nsp, anon._release_owner(p.nsp, parts[pg_catalog.cardinality(parts)]) INTO hidden_schema, hidden_owner
        FROM pg_catalog.unnest(CASE WHEN pg_catalog.cardinality(parts) = 2 THEN ARRAY[parts[1]]
                                    ELSE pg_catalog.current_schemas(false)::text[] END) WITH ORDINALITY AS p(nsp, o)
        WHERE pg_catalog.cardinality(parts) <= 2
          AND anon._release_owner(p.nsp, parts[pg_catalog.cardinality(parts)]) IS NOT NULL
        ORDER BY p.o LIMIT 1;
        IF hidden_owner IS NOT NULL THEN
            RAISE EXCEPTION 'invalid output: expected a release you can see, found "%", a release of role "%" in schema "%" that is hidden from you: only that role, the roles granted it and the database owner see it, and only that role and the roles granted it maintain it',
                output, hidden_owner, hidden_schema
                USING ERRCODE = 'insufficient_privilege',
                      HINT = pg_catalog.format('Ask "%s" or the database owner, or have "%s" granted to you.',
                                               hidden_owner, hidden_owner);
        END IF;
        RAISE EXCEPTION 'invalid output: expected the name of a release made by anon.anonymize, found "%"', output
            USING ERRCODE = 'undefined_object';
    END IF;
    release := pg_catalog.format('%I.%I', r.output_schema, r.output_name);
    refreshed := false;
    satisfied := false;
    missing := anon._release_missing(r);
    IF missing IS NOT NULL THEN
        status := 'orphaned';
        detail := pg_catalog.format('dropped: %s; remove the release with anon.drop_release(%L)',
                                    array_to_string(missing, ', '), release);
        RETURN NEXT;
        RETURN;
    END IF;
    BEGIN
        step := 'refresh';
        changed := r.source_fingerprint IS DISTINCT FROM anon._source_fingerprint(release);
        IF changed THEN
            PERFORM anon.refresh(release);
            refreshed := true;
            SELECT * INTO r FROM anon.release x WHERE (x.output_schema, x.output_name) = (r.output_schema, r.output_name);
        END IF;
        step := 'verify';
        IF coalesce(r.params->>'publish', 'generalized') = 'bucketized' THEN
            -- No generalized view to audit: the refresh's own checks passed (it would have failed otherwise).
            satisfied := r.report IS NOT NULL;
            detail := 'bucketized release: checked by its last computation';
        ELSE
            -- Groups of BSGI that took residual tuples are checked as distinct l-diversity, as the job does.
            checked_model := CASE WHEN r.model = 'unique-distinct-l-diversity'
                                       AND coalesce((r.report->>'residuals')::bigint, 0) > 0
                                  THEN 'distinct-l-diversity' ELSE r.model END;
            -- The published classes are the gid values (local recoding may publish equal QI values in two
            -- classes); the QI taxonomies do not matter then, the sensitive ones do (value sets, tau).
            v := anon.verify(release::regclass, '{gid}', r.sensitive, checked_model,
                             (r.params - 'taxonomies') || jsonb_build_object('taxonomies',
                                 (SELECT coalesce(jsonb_object_agg(t.key, t.value), '{}') FROM
                                  jsonb_each(coalesce(r.params->'taxonomies', '{}')) t WHERE t.key = ANY (r.sensitive))));
            satisfied := (v->>'satisfied')::boolean;
            detail := pg_catalog.format('%s of %s classes (%s rows) violate %s', v->>'violating_classes',
                                        v->>'classes', v->>'violating_rows', checked_model);
        END IF;
        status := CASE WHEN NOT satisfied THEN 'unsatisfied' WHEN refreshed THEN 'refreshed' ELSE 'unchanged' END;
    EXCEPTION WHEN query_canceled THEN
        RAISE;
    WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS detail = MESSAGE_TEXT, error_code = RETURNED_SQLSTATE;
        satisfied := false;
        refreshed := false;
        status := CASE WHEN error_code = '42501' THEN 'not_permitted'
                       WHEN step = 'verify' THEN 'verify_failed' ELSE 'refresh_failed' END;
    END;
    RETURN NEXT;
END
$$;

-- _refresh_release for the release named `output`: schema-qualified, or found on the caller's search_path like
-- anon.refresh finds it (hence no SET search_path here, and everything schema-qualified instead).
CREATE FUNCTION anon.refresh_if_changed(output text)
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text, status text)
LANGUAGE sql VOLATILE STRICT
AS $$
    SELECT f.* FROM anon._refresh_release(coalesce(
        (SELECT pg_catalog.format('%I.%I', r.output_schema, r.output_name)
         FROM anon.release r
         LEFT JOIN pg_catalog.unnest(pg_catalog.current_schemas(false)) WITH ORDINALITY AS p(nsp, pos)
                ON p.nsp OPERATOR(pg_catalog.=) r.output_schema
         WHERE pg_catalog.format('%I.%I', r.output_schema, r.output_name) OPERATOR(pg_catalog.=) output
            OR (pg_catalog.quote_ident(r.output_name) OPERATOR(pg_catalog.=) output AND p.pos IS NOT NULL)
         ORDER BY p.pos NULLS FIRST LIMIT 1),
        -- a release row-level security hides, found on the caller's search_path: _refresh_release says whose
        (SELECT pg_catalog.format('%I.%I', p.nsp, output)
         FROM pg_catalog.unnest(pg_catalog.current_schemas(false)) WITH ORDINALITY AS p(nsp, pos)
         WHERE anon._release_owner(p.nsp, output) IS NOT NULL ORDER BY p.pos LIMIT 1),
        output)) f
$$;

-- _refresh_release for every release the caller sees, in one transaction; one row per release.
CREATE FUNCTION anon.refresh_report()
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text, status text)
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, anon
AS $$
    SELECT f.* FROM anon.release r,
           LATERAL anon._refresh_release(pg_catalog.format('%I.%I', r.output_schema, r.output_name)) f
    ORDER BY r.output_schema, r.output_name
$$;

-- _refresh_release for every release the caller sees, committing after each one, with a NOTICE per release
-- ("anon.refresh_all: <release> <status>: <detail>"). Refuses to start inside a transaction block or a function,
-- where it could not commit. Returns how many releases were recomputed, the releases that are not known to satisfy
-- their model (every status but unchanged and refreshed), and those releases' statuses as a JSON object. A
-- procedure that commits cannot have a SET clause, so everything here is schema-qualified instead.
CREATE PROCEDURE anon.refresh_all(INOUT refreshed integer DEFAULT NULL, INOUT unsatisfied text[] DEFAULT NULL,
                                  INOUT failures jsonb DEFAULT NULL)
LANGUAGE plpgsql
AS $$
DECLARE
    blocker text;
    rel record;
    f record;
BEGIN
    blocker := anon._commit_blocker();
    IF blocker IS NOT NULL THEN
        RAISE EXCEPTION 'anon.refresh_all cannot run %: it commits after each release', blocker
            USING ERRCODE = 'active_sql_transaction',
                  HINT = 'CALL anon.refresh_all() on its own, or use SELECT * FROM anon.refresh_report(), which '
                         'refreshes every release in the current transaction.';
    END IF;
    refreshed := 0;
    unsatisfied := '{}';
    failures := '{}';
    FOR rel IN SELECT pg_catalog.format('%I.%I', output_schema, output_name) AS name FROM anon.release
               ORDER BY output_schema, output_name LOOP
        -- A release dropped since the loop started (by a concurrent session, committed) is skipped.
        CONTINUE WHEN NOT EXISTS (SELECT FROM anon.release x WHERE pg_catalog.format('%I.%I', x.output_schema,
                                  x.output_name) OPERATOR(pg_catalog.=) rel.name);
        SELECT * INTO f FROM anon._refresh_release(rel.name);
        IF f.refreshed THEN
            refreshed := refreshed OPERATOR(pg_catalog.+) 1;
        END IF;
        IF NOT f.satisfied THEN
            unsatisfied := pg_catalog.array_append(unsatisfied, f.release);
            failures := failures OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(f.release, f.status);
        END IF;
        RAISE NOTICE 'anon.refresh_all: % %: %', f.release, f.status, f.detail;
        COMMIT;
    END LOOP;
END
$$;

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

-- pg_restore runs with row_security = off, under which a query that row-level security would filter fails rather
-- than filters. The REFRESH MATERIALIZED VIEW at the end of a restore runs _release_map as the view's owner, which
-- reads its own catalog row through row-level security: on for this function, so a restore by the database owner
-- repopulates every role's views.
ALTER FUNCTION anon._release_map(text, text) SET row_security = on;

-- Issue 13: t-closeness measures its distances over the sensitive values the table holds, no longer over every
-- leaf of the taxonomy. anon.refresh_report re-verifies every release with a generalized view under the corrected
-- distances; a t-closeness release published only as QIT/ST tables has no such view (refresh_report trusts its
-- last computation), so its input fingerprint is cleared: the next refresh_report, refresh_all or anon-maintain
-- run recomputes it with the corrected distances.
UPDATE anon.release SET source_fingerprint = NULL
WHERE model = 't-closeness' AND params->>'publish' = 'bucketized';

-- Session-independent values (issue 16): every value anon reads, and the join key of every release view, is the
-- value's canonical text (ISO dates and timestamps, timestamptz in UTC, 'postgres' intervals, shortest-exact
-- floats, hex bytea), whatever DateStyle, TimeZone, IntervalStyle, extra_float_digits and bytea_output the
-- session has. STABLE, not IMMUTABLE: the output functions of some types read the catalog (enum labels, reg*).
CREATE FUNCTION anon._canonical_text(value anyelement)
RETURNS text
AS 'MODULE_PATHNAME', 'anon_canonical_text'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
