-- anon 0.5: the current install script. `CREATE EXTENSION anon` runs this file alone (PostgreSQL runs the install
-- script of the target version when there is one, and replays anon--0.1.sql and the upgrade scripts only for a
-- version without one); `ALTER EXTENSION anon UPDATE` runs the upgrade scripts. Each object is created once, with
-- its current definition, in the order: the catalog tables, their privileges, the helpers the catalog's views and
-- guards use, the views, the triggers and event triggers, then the API by subject (taxonomies, declarations,
-- publishing, auditing, maintenance).
--
-- The rule: a change to the current version goes into both this script and the upgrade script from the previous
-- release (anon--0.4--0.5.sql), so that a fresh install and an upgraded one have the same schema, objects,
-- signatures, bodies, owners, privileges and comments. tests/scripts/install_upgrade_test.sh enforces it. When 0.5
-- is released, this file is renamed for the next version (anon--0.6.sql) beside a new anon--0.5--0.6.sql; released
-- versions stay installable through anon--0.1.sql and the upgrade scripts.
--
-- Owners: this script (like the upgrade scripts) runs as the superuser that runs CREATE EXTENSION, or for this
-- trusted extension run by another role, as the bootstrap superuser; that superuser owns every object here (the
-- upgrade script gives the catalog tables back to it with ALTER TABLE ... OWNER TO CURRENT_USER). The schema anon,
-- made by CREATE EXTENSION from anon.control, belongs to the role that ran it.
\echo Use "CREATE EXTENSION anon" to load this file. \quit

-- ==== Catalog tables ===========================================================================================
-- The catalog belongs to the superuser running this script, so no other role can attach code to it (a trigger,
-- a rule, a policy, a default) that the extension's SECURITY DEFINER functions would run with its rights. No role
-- writes it directly: every write goes through the API, whose C code switches to the catalog's owner for the one
-- statement, under SECURITY_RESTRICTED_OPERATION, after checking the caller's right (src/pg/catalog_rights.cpp).
-- Roles read their own rows through the views below (docs/security.md, "Rights and the catalog"). Column order is
-- that of an upgraded installation (SELECT * and the tables' row types depend on it).

-- One row per taxonomy: a tree of nodes ('tree'); nested intervals over a numeric column ('interval', with its
-- bounds and widths); explicit "[a,b)" nodes under "*" ('ranges': anon.quantile_taxonomy; lower and upper hold the
-- outer bounds, and a column's numbers become leaves under their finest interval when a job reads them); or days in
-- ISO form under coarser levels ('date': anon.date_taxonomy; a timestamp's value becomes a leaf under its day, a
-- timestamptz's under its UTC day). coded: bottom and top coding of an interval taxonomy (values below lower go under
-- '<lower', values from upper on under '>=upper', and at every coarser level the first and last intervals are open).
-- built_from and built_column: the table and (NULL for a whole table) the column a taxonomy was built from.
CREATE TABLE anon.taxonomy (
    name         text PRIMARY KEY,
    kind         text NOT NULL DEFAULT 'tree' CHECK (kind IN ('tree', 'interval', 'ranges', 'date')),
    lower        numeric,
    upper        numeric,
    widths       numeric[],
    created_by   name NOT NULL DEFAULT current_user,
    created_at   timestamptz NOT NULL DEFAULT pg_catalog.now(),
    coded        boolean NOT NULL DEFAULT false,
    built_from   regclass,
    built_column text,
    CHECK ((kind = 'interval') = (lower IS NOT NULL AND upper IS NOT NULL AND widths IS NOT NULL))
);

-- One row per node: its value, its parent (NULL for the root), a weight for sensitive values, and the consecutive
-- levels it fills (more than 1 for a label a levels table repeats at consecutive levels: a single-child chain).
CREATE TABLE anon.taxonomy_node (
    taxonomy text NOT NULL REFERENCES anon.taxonomy (name) ON DELETE CASCADE ON UPDATE CASCADE,
    value    text NOT NULL,
    parent   text,
    weight   double precision NOT NULL DEFAULT 1 CHECK (weight >= 0),
    ord      bigserial,
    span     integer NOT NULL DEFAULT 1 CHECK (span >= 1),
    PRIMARY KEY (taxonomy, value)
);

-- The configuration of every release, so it can be refreshed and re-verified, its last report, and the fingerprint
-- of the input it was last computed from (its frequency set by value, with the taxonomies), stored by every
-- computation of the release.
CREATE TABLE anon.release (
    output_schema      name NOT NULL,
    output_name        name NOT NULL,
    source             regclass NOT NULL,
    quasi_identifiers  text[] NOT NULL,
    sensitive          text[] NOT NULL,
    model              text NOT NULL,
    params             jsonb NOT NULL DEFAULT '{}',
    algorithm          text NOT NULL,
    created_by         name NOT NULL DEFAULT current_user,
    created_at         timestamptz NOT NULL DEFAULT pg_catalog.now(),
    refreshed_at       timestamptz,
    report             jsonb,
    source_fingerprint text,
    PRIMARY KEY (output_schema, output_name)
);

-- Declared columns (docs/declarations.md): the roles of a table's columns and the taxonomy each uses, declared once
-- per table and role, so calls may pass NULL for quasi_identifiers and sensitive. Column names are the truth (a
-- dump keeps them readable and a restore resolves them against the restored table); attnums holds the same
-- columns' numbers (quasi-identifiers, sensitive, kept, in order), kept by the trigger number_columns, so that the
-- event trigger anon_follow_declared_renames can follow ALTER TABLE ... RENAME COLUMN.
CREATE TABLE anon.declaration (
    source            regclass NOT NULL,
    quasi_identifiers text[] NOT NULL,
    sensitive         text[] NOT NULL DEFAULT '{}',
    keep              text[] NOT NULL DEFAULT '{}',
    taxonomies        jsonb NOT NULL DEFAULT '{}' CHECK (pg_catalog.jsonb_typeof(taxonomies) = 'object'),
    attnums           int2[],
    created_by        name NOT NULL DEFAULT current_user,
    created_at        timestamptz NOT NULL DEFAULT pg_catalog.now(),
    PRIMARY KEY (source, created_by)
);

-- What a release's published versions leave for judging its next one (docs/republication.md): the version history
-- as the core serializes it (64-bit hashes of persons and of values, never their text), how many versions it
-- records and when the last was recorded. One row per release, deleted with the release's row
-- (anon._forget_release_history); readable only by the catalog's owner and, for its dumps, the database owner.
CREATE TABLE anon.release_history (
    output_schema name NOT NULL,
    output_name   name NOT NULL,
    versions      integer NOT NULL CHECK (versions > 0),
    history       bytea NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT pg_catalog.now(),
    PRIMARY KEY (output_schema, output_name)
);

-- The history is compressed with lz4 where the server has it: a release of a million tuples records about 26 MB,
-- which pglz compresses in about 200 ms and lz4 in about 40 ms to nearly the same size (4.1 and 4.4 MB). A server
-- built without lz4 keeps PostgreSQL's default.
DO $lz4$
BEGIN
    ALTER TABLE anon.release_history ALTER COLUMN history SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    NULL;
END
$lz4$;

-- pg_dump keeps the catalog's rows (releases themselves are materialized views of their owners, dumped as such).
SELECT pg_catalog.pg_extension_config_dump('anon.taxonomy', '');
SELECT pg_catalog.pg_extension_config_dump('anon.taxonomy_node', '');
SELECT pg_catalog.pg_extension_config_dump('anon.release', '');
SELECT pg_catalog.pg_extension_config_dump('anon.declaration', '');
SELECT pg_catalog.pg_extension_config_dump('anon.release_history', '');

-- ==== Privileges ===============================================================================================
-- Every role may use the schema. The database owner (pg_database_owner) reads the catalog tables whole, for its
-- pg_dump, and may INSERT rows as a restore does (COPY), under the check of anon._check_direct_write; nobody else
-- has a privilege on them (the REVOKEs grant and take nothing: they write the owner's privileges out, as an
-- upgraded installation has them). The initial privileges pg_dump compares with (pg_init_privs) are these ACLs, so
-- a dump grants nothing on the catalog, whoever owns the database it is restored into.
GRANT USAGE ON SCHEMA anon TO PUBLIC;
REVOKE ALL ON anon.taxonomy, anon.taxonomy_node, anon.release, anon.declaration, anon.release_history FROM PUBLIC;
REVOKE ALL ON SEQUENCE anon.taxonomy_node_ord_seq FROM PUBLIC;
GRANT SELECT, INSERT ON anon.taxonomy, anon.taxonomy_node, anon.release, anon.declaration, anon.release_history
    TO pg_database_owner;

-- ==== Internal helpers of the catalog ==========================================================================
-- SECURITY DEFINER functions and the catalog's triggers run with search_path = pg_catalog, pg_temp: they run as the
-- superuser (SECURITY DEFINER) or as the catalog's owner (the triggers, during the API's writes), so nothing they
-- name may resolve to an object another role made: the schema anon (which the database owner may create in) is not
-- on their path, and every object of it is named with its schema and exact argument types.

-- Whether the current role holds `role`'s privileges (false for a role that no longer exists). This helper and the
-- next are PL/pgSQL, not SQL: a SQL function that cannot be inlined (SET search_path) is parsed and planned anew on
-- every call from another function's plan (anon.covers, the catalog's views), PL/pgSQL keeps its plans for the
-- session (anon.covers ran 3.5x slower).
CREATE FUNCTION anon._holds(role name)
RETURNS boolean
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN EXISTS (SELECT 1 FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) role
                   AND pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER'));
END
$$;

-- Whether the current role may read a taxonomy's nodes: a hand-made taxonomy (built_from NULL) is shared
-- vocabulary; one built from data only for its creator's roles and roles that may read what it was built from.
CREATE FUNCTION anon._may_read_taxonomy(built_from regclass, built_column text, created_by name)
RETURNS boolean
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN built_from IS NULL OR anon._holds(created_by) OR
           CASE WHEN built_column IS NULL
                THEN coalesce(pg_catalog.has_table_privilege(built_from::pg_catalog.oid, 'SELECT'), false)
                ELSE EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
                             WHERE a.attrelid OPERATOR(pg_catalog.=) built_from::pg_catalog.oid
                               AND a.attname OPERATOR(pg_catalog.=) built_column AND NOT a.attisdropped
                               AND pg_catalog.has_column_privilege(built_from::pg_catalog.oid, a.attnum, 'SELECT'))
           END;
END
$$;

-- Whether a release with these columns and params uses a taxonomy: for each quasi-identifier and sensitive
-- column, params->'taxonomies'->>column, or else the column's own name.
CREATE FUNCTION anon._uses_taxonomy(quasi_identifiers text[], sensitive text[], params jsonb, taxonomy text)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog
AS $$
    SELECT EXISTS (SELECT 1 FROM unnest($1 || $2) AS c(name) WHERE coalesce($3->'taxonomies'->>c.name, c.name) = $4)
$$;

-- How many releases, of every role, use a taxonomy. SECURITY DEFINER so that the releases of other roles are
-- counted (only counted: their names stay hidden).
CREATE FUNCTION anon._taxonomy_use_count(taxonomy text)
RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT pg_catalog.count(*) FROM anon.release r
    WHERE anon._uses_taxonomy(r.quasi_identifiers, r.sensitive, r.params, $1)
$$;

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

-- The role that made the release `output_schema`.`output_name`, or NULL when there is no such release or no
-- relation of its name (or its _qit table) exists: how anon.refresh, drop_release, metrics and the others tell a
-- caller that the name it gave is a release of another role, hidden from it. SECURITY DEFINER, to read every row;
-- it reveals only who made the release, as pg_class already shows who owns its relations.
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

-- What is gone of a release: its source (by OID; named as its last report names it) and any of its materialized
-- views (by name), a release of a Citus distributed table counting its distributed tables (release_citus.hpp) as
-- present. NULL when nothing is missing (and for a NULL row); otherwise the release is "orphaned".
CREATE FUNCTION anon._release_missing(r anon.release)
RETURNS text[]
LANGUAGE sql STABLE STRICT
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
                          WHERE n.nspname = x.schema_name AND c.relname = x.relation_name
                            AND c.relkind IN ('m', 'r'))
    ) m
$$;

-- ==== Views: what each role reads of the catalog ===============================================================
-- Row-level security would not do: pg_dump reads with row_security = off and refuses a table whose rows row-level
-- security would filter, so the dumping database owner must see the tables whole.

-- The releases the current role sees: its own and those of the roles it holds; the database owner sees them all.
CREATE VIEW anon.releases WITH (security_barrier) AS
    SELECT r.* FROM anon.release r
    WHERE anon._holds(r.created_by) OR pg_catalog.pg_has_role(current_user, 'pg_database_owner', 'MEMBER');

-- The declarations the current role sees, likewise.
CREATE VIEW anon.declarations WITH (security_barrier) AS
    SELECT d.* FROM anon.declaration d
    WHERE anon._holds(d.created_by) OR pg_catalog.pg_has_role(current_user, 'pg_database_owner', 'MEMBER');

-- Every taxonomy, with its outer bounds only for roles that may read its nodes.
CREATE VIEW anon.taxonomies WITH (security_barrier) AS
    SELECT t.name, t.kind,
           CASE WHEN v.readable THEN t.lower END AS lower, CASE WHEN v.readable THEN t.upper END AS upper,
           CASE WHEN v.readable THEN t.widths END AS widths, t.coded, t.created_by, t.created_at, t.built_from,
           t.built_column, v.readable
    FROM anon.taxonomy t, LATERAL (SELECT anon._may_read_taxonomy(t.built_from, t.built_column, t.created_by)) v(readable);

-- The nodes of the taxonomies the current role may read.
CREATE VIEW anon.taxonomy_nodes WITH (security_barrier) AS
    SELECT n.* FROM anon.taxonomy_node n JOIN anon.taxonomy t ON t.name OPERATOR(pg_catalog.=) n.taxonomy
    WHERE anon._may_read_taxonomy(t.built_from, t.built_column, t.created_by);

GRANT SELECT ON anon.releases, anon.declarations, anon.taxonomies, anon.taxonomy_nodes TO PUBLIC;

-- ==== Triggers on the catalog ==================================================================================

-- Direct writes. The API's writes run as the catalog's owner (or a superuser) and pass. Any other role may only
-- INSERT, as a restore's COPY does (only the database owner has the privilege), and only rows it could have made
-- through the API itself: a row of a role it holds; a release row only for that role's existing, not yet
-- populated objects of that name (the restore creates them WITH NO DATA before copying the catalog), so no name
-- can be squatted and no populated release rewritten; a taxonomy node only of a taxonomy of a role it holds
-- (checked once per statement: anon._check_direct_node_insert).
-- Whether the current role writes as the catalog's owner (the API's writes) or is a superuser: its writes to the
-- catalog table `relation` are not checked.
CREATE FUNCTION anon._writes_as_catalog_owner(relation oid)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) relation)
               OPERATOR(pg_catalog.=) (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user)
           OR (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user)
$$;

-- Refuses a direct insert of a catalog row (`what`) of a role the current one does not hold.
CREATE FUNCTION anon._refuse_foreign_insert(what text, creator name)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION 'cannot insert % of role %: only that role and the roles granted it write its catalog row',
        what, coalesce(creator, '?')
        USING ERRCODE = 'insufficient_privilege',
              HINT = pg_catalog.format('GRANT %I TO %I; (restoring a dump needs it for every role that made a '
                                       'release, taxonomy or declaration)', creator, current_user);
END
$$;

CREATE FUNCTION anon._check_direct_write()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    creator name;
    what text;
    objects bigint;
    foreign_objects bigint;  -- of another owner, or already populated
BEGIN
    IF anon._writes_as_catalog_owner(TG_RELID) THEN
        RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
    END IF;
    IF TG_OP OPERATOR(pg_catalog.<>) 'INSERT' THEN
        RAISE EXCEPTION 'cannot % anon.%: the catalog is written only through anon''s functions', pg_catalog.lower(TG_OP),
            TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_TABLE_NAME OPERATOR(pg_catalog.=) 'release' THEN
        creator := NEW.created_by;
        what := pg_catalog.format('the release %I.%I', NEW.output_schema, NEW.output_name);
    ELSIF TG_TABLE_NAME OPERATOR(pg_catalog.=) 'declaration' THEN
        creator := NEW.created_by;
        what := pg_catalog.format('the declaration of %s', NEW.source);
    ELSIF TG_TABLE_NAME OPERATOR(pg_catalog.=) 'release_history' THEN
        creator := (SELECT r.created_by FROM anon.release r WHERE r.output_schema OPERATOR(pg_catalog.=)
                    NEW.output_schema AND r.output_name OPERATOR(pg_catalog.=) NEW.output_name);
        what := pg_catalog.format('the version history of the release %I.%I', NEW.output_schema, NEW.output_name);
    ELSE
        creator := NEW.created_by;
        what := pg_catalog.format('the taxonomy %I', NEW.name);
    END IF;
    IF creator IS NULL OR NOT anon._holds(creator) THEN
        PERFORM anon._refuse_foreign_insert(what, creator);
    END IF;
    -- What follows reads release fields (plpgsql resolves every NEW field a statement names; only release rows have them).
    IF TG_TABLE_NAME OPERATOR(pg_catalog.<>) 'release' THEN
        RETURN NEW;
    END IF;
    SELECT pg_catalog.count(*), pg_catalog.count(*) FILTER (
               WHERE c.relowner OPERATOR(pg_catalog.<>) (SELECT r.oid FROM pg_catalog.pg_roles r
                                                          WHERE r.rolname OPERATOR(pg_catalog.=) creator)
                  OR (c.relkind OPERATOR(pg_catalog.=) 'm' AND c.relispopulated))
    INTO objects, foreign_objects
    FROM anon._release_relations(NEW.output_schema, NEW.output_name, NEW.params) x
    JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) x.schema_name
    JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid
                              AND c.relname OPERATOR(pg_catalog.=) x.relation_name;
    IF objects OPERATOR(pg_catalog.=) 0 OR foreign_objects OPERATOR(pg_catalog.>) 0 THEN
        RAISE EXCEPTION 'cannot insert %: a release row is written by anon.anonymize; restored directly only for its objects, owned by role % and not yet populated',
            what, creator USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
-- A taxonomy's nodes arrive by the thousand (a date taxonomy over 90 years has 34,000): a direct insert of nodes is
-- checked once per statement, over its new rows, as _check_direct_write checks one (each node of a taxonomy of a
-- role the writer holds), where a check per row took 0.6 s of such a taxonomy's 1 s.
CREATE FUNCTION anon._check_direct_node_insert()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    refused record;
BEGIN
    IF anon._writes_as_catalog_owner(TG_RELID) THEN
        RETURN NULL;
    END IF;
    SELECT n.taxonomy, t.created_by INTO refused
    FROM inserted n LEFT JOIN anon.taxonomy t ON t.name OPERATOR(pg_catalog.=) n.taxonomy
    WHERE t.created_by IS NULL OR NOT anon._holds(t.created_by)
    LIMIT 1;
    IF FOUND THEN
        PERFORM anon._refuse_foreign_insert(pg_catalog.format('a node of the taxonomy %I', refused.taxonomy),
                                            refused.created_by);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER check_direct_write BEFORE INSERT OR UPDATE OR DELETE ON anon.release
    FOR EACH ROW EXECUTE FUNCTION anon._check_direct_write();
CREATE TRIGGER check_direct_write BEFORE INSERT OR UPDATE OR DELETE ON anon.taxonomy
    FOR EACH ROW EXECUTE FUNCTION anon._check_direct_write();
CREATE TRIGGER check_direct_write BEFORE UPDATE OR DELETE ON anon.taxonomy_node
    FOR EACH ROW EXECUTE FUNCTION anon._check_direct_write();
CREATE TRIGGER check_direct_insert AFTER INSERT ON anon.taxonomy_node
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION anon._check_direct_node_insert();
CREATE TRIGGER check_direct_write BEFORE INSERT OR UPDATE OR DELETE ON anon.declaration
    FOR EACH ROW EXECUTE FUNCTION anon._check_direct_write();
CREATE TRIGGER check_direct_write BEFORE INSERT OR UPDATE OR DELETE ON anon.release_history
    FOR EACH ROW EXECUTE FUNCTION anon._check_direct_write();

-- A release's version history goes with its catalog row (anon.drop_release, a replacement, the drop of its
-- objects): publishing anew under the name starts a new history. Runs as whoever deleted the row: the catalog's
-- owner or the event trigger's superuser, who may delete the history too.
CREATE FUNCTION anon._forget_release_history()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    DELETE FROM anon.release_history h WHERE h.output_schema OPERATOR(pg_catalog.=) OLD.output_schema
                                         AND h.output_name OPERATOR(pg_catalog.=) OLD.output_name;
    RETURN OLD;
END
$$;
CREATE TRIGGER forget_history AFTER DELETE ON anon.release
    FOR EACH ROW EXECUTE FUNCTION anon._forget_release_history();

-- Refuses to delete (anon.drop_taxonomy) or rename a taxonomy that a release uses. anon.drop_taxonomy checks first
-- and names the releases the caller sees; this last guard runs as the catalog's owner and only counts.
CREATE FUNCTION anon._refuse_taxonomy_in_use()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    total bigint;
BEGIN
    IF TG_OP OPERATOR(pg_catalog.=) 'UPDATE' AND NEW.name OPERATOR(pg_catalog.=) OLD.name THEN
        RETURN NEW;
    END IF;
    total := anon._taxonomy_use_count(OLD.name);
    IF total OPERATOR(pg_catalog.>) 0 THEN
        RAISE EXCEPTION 'cannot % taxonomy "%": it is used by % release(s)',
            CASE TG_OP WHEN 'DELETE' THEN 'drop' ELSE 'rename' END, OLD.name, total
            USING ERRCODE = 'dependent_objects_still_exist',
                  HINT = 'Drop those releases first (anon.drop_release), or publish them again with another taxonomy.';
    END IF;
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER refuse_taxonomy_in_use BEFORE DELETE OR UPDATE OF name ON anon.taxonomy
    FOR EACH ROW EXECUTE FUNCTION anon._refuse_taxonomy_in_use();

-- The column numbers of a declaration's columns, from their names (NULL for a name the table does not have): on
-- every write, so a restored declaration numbers the restored table's columns.
CREATE FUNCTION anon._declaration_attnums()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    NEW.attnums := ARRAY(
        SELECT a.attnum FROM pg_catalog.unnest(NEW.quasi_identifiers || NEW.sensitive || NEW.keep)
                             WITH ORDINALITY AS c(name, o)
        LEFT JOIN pg_catalog.pg_attribute a
               ON a.attrelid OPERATOR(pg_catalog.=) NEW.source::pg_catalog.oid
              AND a.attname OPERATOR(pg_catalog.=) c.name AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped
        ORDER BY c.o);
    RETURN NEW;
END
$$;
CREATE TRIGGER number_columns BEFORE INSERT OR UPDATE ON anon.declaration
    FOR EACH ROW EXECUTE FUNCTION anon._declaration_attnums();

-- ==== Event triggers ===========================================================================================
-- Those that change the catalog are SECURITY DEFINER (owned by the superuser that ran this script, so they reach
-- the rows of every role, whose objects a DROP ... CASCADE may take), and a failure in them never blocks the user's
-- command: it is reported as a WARNING.

-- After any DROP (of a table, a view, a schema, DROP OWNED, ...), removes the catalog rows of the releases that lost
-- an object in it (their source or one of their views) and have none of their views left. A release that keeps
-- some views stays, and every maintenance path reports it as orphaned until anon.drop_release removes it.
CREATE FUNCTION anon._forget_dropped_releases()
RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_event_trigger_dropped_objects() d
                   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                     AND d.objsubid OPERATOR(pg_catalog.=) 0) THEN
        RETURN;
    END IF;
    BEGIN
        WITH dropped AS MATERIALIZED (
            SELECT d.objid, d.schema_name, d.object_name FROM pg_catalog.pg_event_trigger_dropped_objects() d
            WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
              AND d.objsubid OPERATOR(pg_catalog.=) 0)
        DELETE FROM anon.release r
        WHERE EXISTS (SELECT 1 FROM dropped d
                      WHERE d.objid OPERATOR(pg_catalog.=) r.source::pg_catalog.oid
                         OR (d.schema_name, d.object_name) IN
                            (SELECT x.schema_name::pg_catalog.text, x.relation_name::pg_catalog.text
                             FROM anon._release_relations(r.output_schema, r.output_name, r.params) x))
          AND NOT EXISTS (SELECT 1 FROM anon._release_relations(r.output_schema, r.output_name, r.params) x
                          JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) x.schema_name
                          JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid
                                                    AND c.relname OPERATOR(pg_catalog.=) x.relation_name);
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

-- A declaration goes with its table (DROP TABLE, DROP SCHEMA ... CASCADE, DROP OWNED, ...).
CREATE FUNCTION anon._forget_dropped_declarations()
RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    BEGIN
        DELETE FROM anon.declaration x
        WHERE x.source::pg_catalog.oid IN (SELECT d.objid FROM pg_catalog.pg_event_trigger_dropped_objects() d
                                           WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                                             AND d.objsubid OPERATOR(pg_catalog.=) 0);
    EXCEPTION WHEN query_canceled THEN
        RAISE;
    WHEN OTHERS THEN
        RAISE WARNING 'anon: could not remove the declarations of dropped tables: %', SQLERRM;
    END;
END
$$;
CREATE EVENT TRIGGER anon_forget_dropped_declarations ON sql_drop
    EXECUTE FUNCTION anon._forget_dropped_declarations();

-- After ALTER TABLE (VIEW, MATERIALIZED VIEW, FOREIGN TABLE) ... RENAME COLUMN, a declaration of that relation
-- follows the rename: its column lists and taxonomies keys take the new name of each column it numbered. After a
-- failure the declaration names the old column, which calls refuse as an unknown declared column.
CREATE FUNCTION anon._follow_declared_renames()
RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d record;
    names text[];
    renamed text[];
    i int;
    n_qi int;
    n_sa int;
BEGIN
    BEGIN
        FOR d IN SELECT x.* FROM anon.declaration x
                 WHERE x.source::pg_catalog.oid IN (SELECT c.objid FROM pg_catalog.pg_event_trigger_ddl_commands() c
                                                    WHERE c.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass) LOOP
            names := d.quasi_identifiers OPERATOR(pg_catalog.||) d.sensitive OPERATOR(pg_catalog.||) d.keep;
            renamed := names;
            FOR i IN 1 .. pg_catalog.cardinality(names) LOOP
                renamed[i] := coalesce((SELECT a.attname FROM pg_catalog.pg_attribute a
                                        WHERE a.attrelid OPERATOR(pg_catalog.=) d.source::pg_catalog.oid
                                          AND a.attnum OPERATOR(pg_catalog.=) d.attnums[i] AND NOT a.attisdropped),
                                       names[i]);
            END LOOP;
            CONTINUE WHEN renamed OPERATOR(pg_catalog.=) names;
            n_qi := pg_catalog.cardinality(d.quasi_identifiers);
            n_sa := pg_catalog.cardinality(d.sensitive);
            UPDATE anon.declaration x
            SET quasi_identifiers = renamed[1:n_qi],
                sensitive = coalesce(renamed[n_qi OPERATOR(pg_catalog.+) 1:n_qi OPERATOR(pg_catalog.+) n_sa], '{}'),
                keep = coalesce(renamed[n_qi OPERATOR(pg_catalog.+) n_sa OPERATOR(pg_catalog.+) 1:], '{}'),
                taxonomies = (SELECT coalesce(pg_catalog.jsonb_object_agg(coalesce(renamed[pg_catalog.array_position(names, t.key)], t.key), t.value), '{}')
                              FROM pg_catalog.jsonb_each(d.taxonomies) t)
            WHERE x.source OPERATOR(pg_catalog.=) d.source AND x.created_by OPERATOR(pg_catalog.=) d.created_by;
        END LOOP;
    EXCEPTION WHEN query_canceled THEN
        RAISE;
    WHEN OTHERS THEN
        RAISE WARNING 'anon: could not follow a column rename in the declarations: %', SQLERRM;
    END;
END
$$;
CREATE EVENT TRIGGER anon_follow_declared_renames ON ddl_command_end
    WHEN TAG IN ('ALTER TABLE', 'ALTER VIEW', 'ALTER MATERIALIZED VIEW', 'ALTER FOREIGN TABLE')
    EXECUTE FUNCTION anon._follow_declared_renames();

-- REFRESH MATERIALIZED VIEW of a release object that is a Citus distributed table errors saying to use anon.refresh
-- (PostgreSQL's own error would only say it is not a materialized view). Anything else passes.
CREATE FUNCTION anon._refuse_release_table_refresh()
RETURNS event_trigger
AS 'MODULE_PATHNAME', 'anon_refuse_release_table_refresh'
LANGUAGE C;
CREATE EVENT TRIGGER anon_refuse_release_table_refresh ON ddl_command_start
    WHEN TAG IN ('REFRESH MATERIALIZED VIEW')
    EXECUTE FUNCTION anon._refuse_release_table_refresh();

-- The schema anon keeps its name, so that no other schema can take it under the extension's SECURITY DEFINER
-- functions, which find their catalog by that name.
CREATE FUNCTION anon._guard_schema_name()
RETURNS event_trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n
                   ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
                   WHERE e.extname OPERATOR(pg_catalog.=) 'anon' AND n.nspname OPERATOR(pg_catalog.=) 'anon') THEN
        RAISE EXCEPTION 'cannot rename the schema of extension anon: its functions find their catalog by the name "anon"'
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'DROP EXTENSION anon and create it again in another database if the name must go.';
    END IF;
END
$$;
CREATE EVENT TRIGGER anon_guard_schema_name ON ddl_command_end
    WHEN TAG IN ('ALTER SCHEMA')
    EXECUTE FUNCTION anon._guard_schema_name();

-- ==== Taxonomies ===============================================================================================
-- Every builder takes `replace boolean DEFAULT false`: true rewrites an existing taxonomy of the caller's in place
-- (the releases that use it keep it, and use the new nodes at their next refresh). docs/taxonomies.md.

-- Builds a taxonomy from a table whose columns, in order, are leaf, level 1, ..., root.
CREATE FUNCTION anon.taxonomy_from_levels(name text, levels regclass, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_levels'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.taxonomy_from_levels(name text, levels text, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_levels'
LANGUAGE C VOLATILE;

-- A taxonomy from (value, parent) rows: the first two columns of `pairs`; a NULL parent, or a parent never listed
-- as a value, is the root.
CREATE FUNCTION anon.taxonomy_from_pairs(name text, pairs regclass, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_pairs'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.taxonomy_from_pairs(name text, pairs text, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_pairs'
LANGUAGE C VOLATILE;

-- Nested intervals for a numeric column: widths {5,10,20} gives 5-, 10- and 20-wide ranges and a root '*'; widths
-- may be fractional ({0.5,1}), each a whole multiple (at least twice) of the previous one. coding => true: values
-- outside [lower, upper) are generalized into '<lower' / '>=upper' instead of stopping a job.
CREATE FUNCTION anon.interval_taxonomy(name text, lower numeric, upper numeric, widths numeric[],
                                       replace boolean DEFAULT false, coding boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_interval_taxonomy'
LANGUAGE C VOLATILE;

-- Days from lower to upper in ISO form (2023-05-17, whatever the session's DateStyle) under the given levels, finest
-- first (week, month, quarter, year, decade, century), and '*'. For date, timestamp and timestamptz columns.
CREATE FUNCTION anon.date_taxonomy(name text, lower date, upper date, levels text[] DEFAULT '{month,year,decade}',
                                   replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_date_taxonomy'
LANGUAGE C VOLATILE;

-- A masking hierarchy over a column's distinct values: each level masks `step` more characters from the right
-- (12345 -> 1234* -> 123** -> ... -> *), a code's own characters only (I10 -> I1* -> I** -> *); with a separator,
-- a first level masks what follows it (E11.9 -> E11.* -> E1* -> E** -> *).
CREATE FUNCTION anon.prefix_taxonomy(name text, source regclass, column_name text, step int DEFAULT 1,
                                     replace boolean DEFAULT false, separator text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_prefix_taxonomy'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.prefix_taxonomy(name text, source text, column_name text, step int DEFAULT 1,
                                     replace boolean DEFAULT false, separator text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_prefix_taxonomy'
LANGUAGE C VOLATILE;

-- ICD-10 diagnosis codes (E11.9, E119, I10) under their 3-character category (E11), the blocks of `blocks` when
-- given (a table whose first two columns are a block's first and last categories: E10, E14), their chapter of
-- ICD-10 (WHO 2019: Chapter IV (E00-E90)) and '*'.
CREATE FUNCTION anon.icd10_taxonomy(name text, source regclass, column_name text, blocks regclass DEFAULT NULL,
                                    replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_icd10_taxonomy'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.icd10_taxonomy(name text, source text, column_name text, blocks text DEFAULT NULL,
                                    replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_icd10_taxonomy'
LANGUAGE C VOLATILE;

-- Nested intervals whose bounds are a numeric column's quantiles: bins[1] intervals of about equal row counts,
-- merged into bins[2], ... (finest first, decreasing), and '*'.
CREATE FUNCTION anon.quantile_taxonomy(name text, source regclass, column_name text, bins int[] DEFAULT '{16,8,4,2}',
                                       replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_quantile_taxonomy'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.quantile_taxonomy(name text, source text, column_name text, bins int[] DEFAULT '{16,8,4,2}',
                                       replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_quantile_taxonomy'
LANGUAGE C VOLATILE;

-- Removes a taxonomy and its nodes.
CREATE FUNCTION anon.drop_taxonomy(name text)
RETURNS void
AS 'MODULE_PATHNAME', 'anon_drop_taxonomy'
LANGUAGE C VOLATILE STRICT;

-- True when `general` is `value` or one of its ancestors in a taxonomy the caller may read (for interval and ranges
-- taxonomies: when the numeric value lies in the interval, '<x' and '>=x' being open intervals and the root "*"
-- standing for [lower, upper), or for every number when the taxonomy is coded; for date taxonomies a value that is no
-- node is looked up by its first ten characters, its day, and infinity and -infinity under the open-ended nodes
-- beyond the last and before the first day). Written in SQL on purpose: tests use it to check releases
-- independently of the C++ code that made them.
CREATE FUNCTION anon.covers(taxonomy text, general text, value text)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon
AS $$
    WITH RECURSIVE t AS (SELECT kind, lower, upper, coded FROM anon.taxonomies WHERE name = $1 AND readable),
    -- infinity (-infinity) that a date taxonomy's nodes do not list lies beyond its last (first) day, under
    -- open-ended nodes named after that day's ancestors: "after 2029" ("before 2020"), each holding it alone.
    beyond(prefix, day) AS (
        SELECT CASE $3 WHEN 'infinity' THEN 'after ' ELSE 'before ' END,
               (SELECT CASE $3 WHEN 'infinity' THEN max(n.value) ELSE min(n.value) END FROM anon.taxonomy_nodes n
                WHERE n.taxonomy = $1 AND n.value ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
        WHERE (SELECT kind FROM t) = 'date' AND $3 IN ('infinity', '-infinity')
          AND NOT EXISTS (SELECT 1 FROM anon.taxonomy_nodes n WHERE n.taxonomy = $1 AND n.value = $3)
    ),
    up(v) AS (
        SELECT CASE WHEN EXISTS (SELECT 1 FROM beyond) THEN (SELECT day FROM beyond)
                    WHEN (SELECT kind FROM t) = 'date' AND length($3) > 10 AND $3 !~ ' BC$'
                         AND NOT EXISTS (SELECT 1 FROM anon.taxonomy_nodes n WHERE n.taxonomy = $1 AND n.value = $3)
                    THEN left($3, 10) ELSE $3 END
        UNION
        -- One index lookup per step (OFFSET 0 keeps the lookup a subquery: as a join, the planner hashed every node
        -- of the taxonomy at each step, 4 ms a call for a taxonomy of 25,000 days).
        SELECT s.parent FROM up, LATERAL (SELECT n.parent FROM anon.taxonomy_nodes n
                                          WHERE n.taxonomy = $1 AND n.value = up.v OFFSET 0) s
        WHERE s.parent IS NOT NULL
    )
    SELECT CASE
        WHEN $2 IS NOT DISTINCT FROM $3 THEN true
        WHEN (SELECT kind FROM t) IN ('interval', 'ranges') THEN
            CASE WHEN $3 IS NULL THEN $2 = '*'
                 WHEN $3 !~ '^-?[0-9.eE+-]+$' THEN false
                 WHEN $2 = '*' THEN (SELECT coded FROM t) OR
                                    ($3::numeric >= (SELECT lower FROM t) AND $3::numeric < (SELECT upper FROM t))
                 WHEN $2 ~ '^<' THEN $3::numeric < substr($2, 2)::numeric
                 WHEN $2 ~ '^>=' THEN $3::numeric >= substr($2, 3)::numeric
                 ELSE $2 ~ '^\[[^,]+,[^)]+\)$' AND
                      $3::numeric >= split_part(substr($2, 2), ',', 1)::numeric AND
                      $3::numeric < rtrim(split_part($2, ',', 2), ')')::numeric
            END
        WHEN EXISTS (SELECT 1 FROM beyond) THEN
            EXISTS (SELECT 1 FROM up JOIN anon.taxonomy_nodes n ON n.taxonomy = $1 AND n.value = up.v
                    WHERE CASE WHEN n.parent IS NULL THEN up.v = $2
                               ELSE up.v <> (SELECT day FROM beyond) AND (SELECT prefix FROM beyond) || up.v = $2 END)
        ELSE EXISTS (SELECT 1 FROM up WHERE up.v = $2)
    END
$$;

-- anon.covers for releases with params->>'ranges' = 'typed' (docs/taxonomies.md): a published numrange covers a
-- number, a daterange a date or a timestamp (by the day its canonical text starts with, or infinity and -infinity),
-- when the range holds it;
-- NULL covers NULL. Checked on the values alone, in SQL, independently of the C++ code that chose the range.
CREATE FUNCTION anon.covers(taxonomy text, general anyrange, value text)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon
AS $$
    SELECT CASE
        WHEN $3 IS NULL OR $2 IS NULL THEN $2 IS NULL AND $3 IS NULL
        WHEN pg_typeof($2) = 'numrange'::regtype THEN
            $3 ~ '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$' AND $2::text::numrange @> $3::numeric
        WHEN pg_typeof($2) = 'daterange'::regtype THEN
            CASE WHEN $3 IN ('infinity', '-infinity') THEN $2::text::daterange @> $3::date
                 ELSE $3 ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' AND $3 !~ ' BC$' AND $2::text::daterange @> left($3, 10)::date
            END
        ELSE false
    END
$$;

-- ==== Declarations =============================================================================================

-- Declares the roles of `source`'s columns for the calling role, replacing its previous declaration of that
-- table: every column must exist and have one role; `taxonomies` maps a quasi-identifier or sensitive column to
-- an existing taxonomy (columns left out use the taxonomy named like them). Returns the declaration.
CREATE FUNCTION anon.declare(source regclass, quasi_identifiers text[], sensitive text[], keep text[] DEFAULT '{}',
                             taxonomies jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, anon, pg_temp
AS $$
DECLARE
    arg text;
    cols text[];
    col text;
    seen text[] := '{}';
    tax record;
BEGIN
    IF source IS NULL THEN
        RAISE EXCEPTION 'invalid source: expected a table or view, found NULL' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    sensitive := coalesce(sensitive, '{}');
    keep := coalesce(keep, '{}');
    taxonomies := coalesce(taxonomies, '{}');
    IF quasi_identifiers IS NULL OR pg_catalog.cardinality(quasi_identifiers) = 0 THEN
        RAISE EXCEPTION 'invalid quasi_identifiers: expected at least one column of %, found %', source,
            coalesce(quasi_identifiers::text, 'NULL') USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOREACH arg IN ARRAY ARRAY['quasi_identifiers', 'sensitive', 'keep'] LOOP
        cols := CASE arg WHEN 'quasi_identifiers' THEN quasi_identifiers WHEN 'sensitive' THEN sensitive ELSE keep END;
        FOREACH col IN ARRAY cols LOOP
            IF col IS NULL THEN
                RAISE EXCEPTION 'invalid %: expected column names, found a NULL element', arg
                    USING ERRCODE = 'invalid_parameter_value';
            END IF;
            IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a
                           WHERE a.attrelid OPERATOR(pg_catalog.=) source::pg_catalog.oid
                             AND a.attname OPERATOR(pg_catalog.=) col AND a.attnum OPERATOR(pg_catalog.>) 0
                             AND NOT a.attisdropped) THEN
                RAISE EXCEPTION 'invalid %: column "%" does not exist in %', arg, col, source
                    USING ERRCODE = 'undefined_column';
            END IF;
            IF col OPERATOR(pg_catalog.=) ANY (seen) THEN
                RAISE EXCEPTION 'invalid %: expected each column once across quasi_identifiers, sensitive and keep, found "%" twice',
                    arg, col USING ERRCODE = 'invalid_parameter_value';
            END IF;
            seen := seen || col;
        END LOOP;
    END LOOP;
    IF pg_catalog.jsonb_typeof(taxonomies) <> 'object' THEN
        RAISE EXCEPTION 'invalid taxonomies: expected an object mapping columns to taxonomy names, found %', taxonomies
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR tax IN SELECT t.key, t.value FROM pg_catalog.jsonb_each(taxonomies) t LOOP
        IF NOT tax.key OPERATOR(pg_catalog.=) ANY (quasi_identifiers || sensitive) THEN
            RAISE EXCEPTION 'invalid taxonomies: expected keys among the quasi-identifier and sensitive columns, found "%"',
                tax.key USING ERRCODE = 'invalid_parameter_value';
        END IF;
        IF pg_catalog.jsonb_typeof(tax.value) <> 'string' THEN
            RAISE EXCEPTION 'invalid taxonomies->''%'': expected a taxonomy name, found %', tax.key, tax.value
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM anon.taxonomies t WHERE t.name OPERATOR(pg_catalog.=) (tax.value #>> '{}')) THEN
            RAISE EXCEPTION 'invalid taxonomies->''%'': taxonomy "%" does not exist', tax.key, tax.value #>> '{}'
                USING ERRCODE = 'undefined_object';
        END IF;
    END LOOP;
    PERFORM anon._store_declaration(source, quasi_identifiers, sensitive, keep, taxonomies);
    RETURN pg_catalog.jsonb_build_object('source', source::text, 'quasi_identifiers', quasi_identifiers,
                                         'sensitive', sensitive, 'keep', keep, 'taxonomies', taxonomies);
END
$$;

-- The relation a name given as text designates, for anon.declare's text overload: refused as the C functions refuse
-- it (the argument named, quoting explained) instead of a cast's bare "invalid name syntax".
CREATE FUNCTION anon._relation_arg(relation text, argument text)
RETURNS regclass
AS 'MODULE_PATHNAME', 'anon_relation_arg'
LANGUAGE C STABLE STRICT;

-- anon.declare with the relation named as text (a literal resolves to this one), found on the caller's search_path
-- (so no SET search_path here; every name in the body is schema-qualified).
CREATE FUNCTION anon.declare(source text, quasi_identifiers text[], sensitive text[], keep text[] DEFAULT '{}',
                             taxonomies jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE sql VOLATILE
AS $$ SELECT anon.declare(anon._relation_arg(source, 'source'), quasi_identifiers, sensitive, keep, taxonomies) $$;

-- Stores the calling role's declaration of `source` (replacing its previous one), as anon.declare checked it; the
-- role is the caller's, whatever the arguments (src/pg/fn_declare_store.cpp).
CREATE FUNCTION anon._store_declaration(source regclass, quasi_identifiers text[], sensitive text[], keep text[],
                                        taxonomies jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'anon_store_declaration'
LANGUAGE C VOLATILE STRICT;

-- The declaration a call uses for `source`: the calling role's own, else that of a role it holds (the first by
-- role name). NULL when there is none.
CREATE FUNCTION anon._declaration_of(source regclass)
RETURNS anon.declaration
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon, pg_temp
AS $$
    SELECT ROW(d.*)::anon.declaration FROM anon.declarations d WHERE d.source OPERATOR(pg_catalog.=) $1
      AND anon._holds(d.created_by)
    ORDER BY d.created_by OPERATOR(pg_catalog.=) current_user DESC, d.created_by LIMIT 1
$$;

-- ==== Publishing ===============================================================================================

-- Publishes a release of `source` satisfying `model` as the materialized view `output` (NULL: report only).
CREATE FUNCTION anon.anonymize(source regclass, quasi_identifiers text[], sensitive text[], model text,
                               params jsonb DEFAULT '{}', algorithm text DEFAULT 'auto', output text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_anonymize'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.anonymize(source text, quasi_identifiers text[], sensitive text[], model text,
                               params jsonb DEFAULT '{}', algorithm text DEFAULT 'auto', output text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_anonymize'
LANGUAGE C VOLATILE;

-- Recomputes a release from the source's current data with its stored configuration; returns the new report. The
-- recomputation reads the source with the rights of the role that owns the release's objects.
CREATE FUNCTION anon.refresh(output text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_refresh'
LANGUAGE C VOLATILE STRICT;

-- Removes everything a release created.
CREATE FUNCTION anon.drop_release(output text)
RETURNS void
AS 'MODULE_PATHNAME', 'anon_drop_release'
LANGUAGE C VOLATILE STRICT;

-- Utility metrics of a release, as computed by the core from the release that last populated its view.
CREATE FUNCTION anon.metrics(output text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_metrics'
LANGUAGE C STABLE STRICT;

-- The rows of the release objects (docs/architecture.md). _release_tuples gives an object without kept columns its
-- rows: each piece of the computed release once per tuple, in the object's order, typed as the caller's column
-- definition list says, so the object neither reads the source again nor sorts. _release_rows gives the pieces as
-- anon._release_map does, for objects that publish kept columns (they join the source). The source argument, a
-- constant of the objects' queries, makes them depend on the source. Row-level security on (see _release_map). The
-- objects' queries read _release_tuples through anon's release scan, which streams its rows to the object's insert
-- instead of a function scan's tuplestore; its planner support function only loads the library while the planner
-- sizes the call, so that a REFRESH MATERIALIZED VIEW in a new session gets the release scan too.
CREATE FUNCTION anon._release_tuples_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'anon_release_tuples_support'
LANGUAGE C STRICT;

CREATE FUNCTION anon._release_tuples(output_schema text, output_name text, source regclass, object text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'anon_release_tuples'
LANGUAGE C VOLATILE STRICT
SUPPORT anon._release_tuples_support
SET row_security = on;

CREATE FUNCTION anon._release_rows(output_schema text, output_name text, source regclass)
RETURNS TABLE (gid int, key text[], label text[], lo bigint, hi bigint)
AS 'MODULE_PATHNAME', 'anon_release_rows'
LANGUAGE C VOLATILE STRICT
SET row_security = on;

-- The rows of a release object of a Citus distributed source (docs/scale.md): each row of _release_tuples's object
-- once per shard that some of its tuples go to, with a value of the object's distribution column (anon_bucket) that
-- Citus places on that shard (its hash within shard_low[i]..shard_high[i]) and whose high bits say how many of the
-- row's tuples the shard holds. The shards are drawn at random from the row's number of tuples alone; the workers
-- repeat each row that many times beside it.
CREATE FUNCTION anon._release_shard_rows(output_schema text, output_name text, source regclass, object text,
                                         shard_low int4[], shard_high int4[])
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'anon_release_shard_rows'
LANGUAGE C VOLATILE STRICT
SET row_security = on;

-- Populates the views of releases published before 0.4 (called by the view's query on creation and on REFRESH
-- MATERIALIZED VIEW). pg_restore runs with row_security = off, under which a query that row-level security would
-- filter fails rather than filters; row_security = on here lets the REFRESH at the end of a restore repopulate every
-- role's views.
CREATE FUNCTION anon._release_map(output_schema text, output_name text)
RETURNS TABLE (gid int, key text[], label text[], lo bigint, hi bigint)
AS 'MODULE_PATHNAME', 'anon_release_map'
LANGUAGE C VOLATILE STRICT
SET row_security = on;

-- Session-independent values (docs/session-settings.md): every value anon reads, and the join key of every release
-- view, is the value's canonical text (ISO dates and timestamps, timestamptz in UTC, 'postgres' intervals,
-- shortest-exact floats, hex bytea), whatever DateStyle, TimeZone, IntervalStyle, extra_float_digits and bytea_output
-- the session has. STABLE, not IMMUTABLE: the output functions of some types read the catalog (enum labels, reg*).
CREATE FUNCTION anon._canonical_text(value anyelement)
RETURNS text
AS 'MODULE_PATHNAME', 'anon_canonical_text'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Whether a source row holds a NULL where refuse_null[c] is set, or, for a column c with leaves (leaves[starts[c]+1 ..
-- starts[c+1]]), a value whose canonical text is not one of them: the per-row test of the source's checks made before
-- the read (one call per row instead of an expression per column). The three arrays must be constants of the query.
CREATE FUNCTION anon._row_misfit(leaves text[], starts int4[], refuse_null bool[], VARIADIC "any")
RETURNS bool
AS 'MODULE_PATHNAME', 'anon_row_misfit'
LANGUAGE C STABLE PARALLEL SAFE;

-- ==== Auditing =================================================================================================

-- Checks any table or view against a privacy model, treating each distinct QI combination as a class.
CREATE FUNCTION anon.verify(relation regclass, quasi_identifiers text[], sensitive text[], model text,
                            params jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_verify'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.verify(relation text, quasi_identifiers text[], sensitive text[], model text,
                            params jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_verify'
LANGUAGE C VOLATILE;

-- The eligible range of l (and c) for a table's sensitive columns, and BSGI's optimal l.
CREATE FUNCTION anon.eligible_range(source regclass, sensitive text[])
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_eligible_range'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.eligible_range(source text, sensitive text[])
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_eligible_range'
LANGUAGE C VOLATILE;

-- One row per equivalence class of a table or view: QI values, size, distinct sensitive values, entropy (natural
-- log), the most frequent sensitive value's share, and (one sensitive column) the induced frequencies of its base
-- values, dominant first: published general values of the sensitive taxonomy spread over the leaves under them.
CREATE FUNCTION anon.equivalence_classes(relation regclass, quasi_identifiers text[], sensitive text[],
                                         params jsonb DEFAULT '{}')
RETURNS TABLE (qi text[], size bigint, distinct_sensitive int, entropy double precision, max_share double precision,
               induced_frequencies jsonb)
AS 'MODULE_PATHNAME', 'anon_equivalence_classes'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.equivalence_classes(relation text, quasi_identifiers text[], sensitive text[],
                                         params jsonb DEFAULT '{}')
RETURNS TABLE (qi text[], size bigint, distinct_sensitive int, entropy double precision, max_share double precision,
               induced_frequencies jsonb)
AS 'MODULE_PATHNAME', 'anon_equivalence_classes'
LANGUAGE C VOLATILE;

-- Risk figures (docs/risk.md): prosecutor risk (highest and average 1 / class size, the share of records above
-- `threshold`), marketer risk, sample uniques and the estimated population uniqueness (Dankar et al.'s rule between
-- Pitman's, Zayatz's and the SNB model, named in the result) of any table, view or release. quasi_identifiers NULL:
-- the relation's declaration, or for a release its quasi-identifiers. population: the size of the population the
-- table samples (NULL: the table is the whole population).
CREATE FUNCTION anon.risk(relation regclass, quasi_identifiers text[] DEFAULT NULL, threshold float8 DEFAULT 0.2,
                          population float8 DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_risk'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.risk(relation text, quasi_identifiers text[] DEFAULT NULL, threshold float8 DEFAULT 0.2,
                          population float8 DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_risk'
LANGUAGE C VOLATILE;

-- The solution space (docs/explore.md): one row per minimal full-domain node that satisfies the model (levels
-- per quasi-identifier, classes, suppressed tuples, ncp, discernibility, kl, prosecutor risk), ordered by ncp.
-- Publish one with anon.anonymize(..., params => '{"levels": ...}').
CREATE FUNCTION anon.explore(source regclass, quasi_identifiers text[], sensitive text[], model text,
                             params jsonb DEFAULT '{}')
RETURNS TABLE (levels jsonb, classes bigint, suppressed bigint, ncp double precision, discernibility double precision,
               kl double precision, prosecutor_risk double precision)
AS 'MODULE_PATHNAME', 'anon_explore'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.explore(source text, quasi_identifiers text[], sensitive text[], model text,
                             params jsonb DEFAULT '{}')
RETURNS TABLE (levels jsonb, classes bigint, suppressed bigint, ncp double precision, discernibility double precision,
               kl double precision, prosecutor_risk double precision)
AS 'MODULE_PATHNAME', 'anon_explore'
LANGUAGE C VOLATILE;

-- Functional (tau, l)-diversity: the weakest simple l-diversity and (c,l)-diversity requirements that guarantee
-- (tau, l)-diversity over m values.
CREATE FUNCTION anon.weakest_stronger_requirement(tau double precision, l int, m int)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_weakest_stronger_requirement'
LANGUAGE C IMMUTABLE;

-- The average relative error of random count queries answered from a release, against the source.
CREATE FUNCTION anon.count_query_error(output text, queries int, dimensions int, seed int)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_count_query_error'
LANGUAGE C VOLATILE;

-- e(P) (Def. 35 of Tian & Zhang) of a release of this extension against a (tau, l)-diversity requirement, for
-- releases made by any model (e.g. incognito with the weakest stronger (c, l), compared with SWEEP).
CREATE FUNCTION anon.excessive_protection(output text, tau double precision, l int)
RETURNS double precision
AS 'MODULE_PATHNAME', 'anon_excessive_protection'
LANGUAGE C VOLATILE;

-- Minimality attacks: the adversary's credibility, per original QI class, that a member has a value of
-- `sensitive_values`, for a release of this extension, assuming the publisher followed the minimality principle for
-- l-diversity.
CREATE FUNCTION anon.audit_minimality(output text, sensitive_values text[], l int, m int DEFAULT NULL)
RETURNS TABLE (qi text[], class_size int, credibility double precision, violates bool)
AS 'MODULE_PATHNAME', 'anon_audit_minimality'
LANGUAGE C VOLATILE;

-- The same for a table published by another tool; `key` links a published row to its source row.
CREATE FUNCTION anon.audit_minimality_table(source regclass, published regclass, key text, quasi_identifiers text[],
                                            sensitive text, sensitive_values text[], l int, m int DEFAULT NULL)
RETURNS TABLE (qi text[], class_size int, credibility double precision, violates bool)
AS 'MODULE_PATHNAME', 'anon_audit_minimality_table'
LANGUAGE C VOLATILE;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.audit_minimality_table(source text, published text, key text, quasi_identifiers text[],
                                            sensitive text, sensitive_values text[], l int, m int DEFAULT NULL)
RETURNS TABLE (qi text[], class_size int, credibility double precision, violates bool)
AS 'MODULE_PATHNAME', 'anon_audit_minimality_table'
LANGUAGE C VOLATILE;

-- The composition of a source's live releases (docs/republication.md): an attacker who knows a person's
-- quasi-identifiers intersects the candidate sensitive values of the person's classes in every release of the source.
-- One row per sensitive column that releases share and per number of candidates left, with how many of the source's
-- rows are left with that many and how many releases were combined on that column. Every live release of the source
-- counts, whoever published it (only figures are returned); the source is read with the caller's rights.
CREATE FUNCTION anon.audit_composition(source regclass)
RETURNS TABLE (sensitive text, candidates int, persons bigint, releases int)
AS 'MODULE_PATHNAME', 'anon_audit_composition'
LANGUAGE C VOLATILE STRICT;

-- The same, the relation named as text (a literal resolves to this one): a name that is not valid SQL or does not
-- exist is refused naming the argument and explaining quoting (src/pg/infra/convert.cpp).
CREATE FUNCTION anon.audit_composition(source text)
RETURNS TABLE (sensitive text, candidates int, persons bigint, releases int)
AS 'MODULE_PATHNAME', 'anon_audit_composition'
LANGUAGE C VOLATILE STRICT;

-- ==== Maintenance: refreshing releases whose input changed =====================================================
-- docs/operations.md and docs/catalog-integrity.md.

-- anon.refresh_if_changed's refresh: reads the release's source as anon.refresh does and, when its input still has
-- `fingerprint` (the one stored with the last computation), returns false without running the job; else refreshes
-- the release from that one read and returns true. _input_changed says what it found, also after its refresh failed
-- (NULL when it did not get that far). Until 0.5 the fingerprint took a read of its own (_source_fingerprint).
CREATE FUNCTION anon._refresh_if_input_changed(output text, fingerprint text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'anon_refresh_if_input_changed'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon._input_changed(output text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'anon_input_changed'
LANGUAGE C VOLATILE STRICT;

-- The model a release of `model` is verified as: with residual tuples in its groups, the model the registry says
-- such a release is checked as (unique distinct l-diversity: distinct l-diversity), as the job checks it.
CREATE FUNCTION anon._model_verified_as(model text, took_residuals boolean)
RETURNS text
AS 'MODULE_PATHNAME', 'anon_model_verified_as'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- NULL when the calling procedure may commit, else where it runs (see src/pg/fn_transaction.cpp).
CREATE FUNCTION anon._commit_blocker()
RETURNS text
AS 'MODULE_PATHNAME', 'anon_commit_blocker'
LANGUAGE C VOLATILE;

-- Refreshes one release if its input changed since it was last computed (new, changed or deleted rows in the
-- QI, sensitive or individual columns, or a changed taxonomy), then re-verifies its generalized view with
-- anon.verify against its model, class by class (gid). The recomputation reads the source with the rights of the
-- role that owns the release's objects, never the caller's (src/pg/release_owner_rights.cpp). Groups of BSGI that
-- took residual tuples are checked as distinct l-diversity, as the job does; the published classes are the gid
-- values (local recoding may publish equal QI values in two classes), so the QI taxonomies do not matter then, the
-- sensitive ones do (value sets, tau). Failures are reported, not raised, as one status:
--   unchanged         input unchanged, verified: satisfies its model
--   refreshed         input changed, recomputed, verified: satisfies its model
--   reshaped          refreshed, but a full-domain release could not keep its node: its columns' levels changed
--                     (detail gives the old and the new levels)
--   withheld          input changed, but the new version would single people out against the versions already
--                     published (what changed between them, or what a person's versions leave together; detail has
--                     the figures) or against the source's other live releases: the previous release is kept
--                     (docs/republication.md)
--   unsatisfied       verified: some classes violate the model (detail counts them)
--   refresh_failed    the input could not be read or the release could not be recomputed (e.g. the new data
--                     cannot satisfy the model); the previous release is kept
--   verify_failed     the verification itself failed; any refresh in this call is undone, the previous release kept
--   orphaned          the source or some of the release's views were dropped; nothing is read (anon.drop_release)
--   not_permitted     the caller may not maintain the release, or its owner may no longer read what the job reads;
--                     the release is left as it was, detail says why
--   taxonomy_changed  a taxonomy the release was computed with was changed (or replaced) by a role other than the
--                     release's owner; the release is left as it was, detail names the taxonomy and its owner
-- `hint` is the hint of the error behind a failure status (e.g. how to publish a withheld change), else NULL.
-- `output` is the quoted, schema-qualified name (anon.refresh_if_changed resolves other spellings); a release of
-- another role, hidden from the caller, is named as anon.refresh names it: whose it is.
CREATE FUNCTION anon._refresh_release(output text)
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text, status text,
               hint text)
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
    old_levels jsonb;
BEGIN
    SELECT x.* INTO r FROM anon.releases x WHERE pg_catalog.format('%I.%I', x.output_schema, x.output_name) = output;
    IF NOT FOUND THEN
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
        old_levels := r.report->'levels';
        changed := anon._refresh_if_input_changed(release, r.source_fingerprint);
        IF changed THEN
            refreshed := true;
            SELECT x.* INTO r FROM anon.releases x
            WHERE (x.output_schema, x.output_name) = (r.output_schema, r.output_name);
        END IF;
        step := 'verify';
        IF coalesce(r.params->>'publish', 'generalized') = 'bucketized' THEN
            satisfied := r.report IS NOT NULL;
            detail := 'bucketized release: checked by its last computation';
        ELSE
            checked_model := anon._model_verified_as(r.model, coalesce((r.report->>'residuals')::bigint, 0) > 0);
            v := anon.verify(release::regclass, '{gid}', r.sensitive, checked_model,
                             (r.params - 'taxonomies') || jsonb_build_object('taxonomies',
                                 (SELECT coalesce(jsonb_object_agg(t.key, t.value), '{}') FROM
                                  jsonb_each(coalesce(r.params->'taxonomies', '{}')) t WHERE t.key = ANY (r.sensitive))));
            satisfied := (v->>'satisfied')::boolean;
            detail := pg_catalog.format('%s of %s classes (%s rows) violate %s', v->>'violating_classes',
                                        v->>'classes', v->>'violating_rows', checked_model);
        END IF;
        status := CASE WHEN NOT satisfied THEN 'unsatisfied'
                       WHEN refreshed AND old_levels IS DISTINCT FROM r.report->'levels' AND old_levels IS NOT NULL
                           THEN 'reshaped'
                       WHEN refreshed THEN 'refreshed' ELSE 'unchanged' END;
        IF status OPERATOR(pg_catalog.=) 'reshaped' THEN
            detail := pg_catalog.format('levels %s became %s (the old node no longer satisfies %s); %s', old_levels,
                                        r.report->'levels', r.model, detail);
        END IF;
    EXCEPTION WHEN query_canceled THEN
        RAISE;
    WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS detail = MESSAGE_TEXT, error_code = RETURNED_SQLSTATE, hint = PG_EXCEPTION_HINT;
        hint := NULLIF(hint, '');
        IF step = 'refresh' THEN
            changed := anon._input_changed(release);
        END IF;
        satisfied := false;
        refreshed := false;
        status := CASE WHEN error_code = '42501' THEN 'not_permitted'
                       WHEN error_code = '55000' THEN 'taxonomy_changed'
                       WHEN error_code = 'ZA001' THEN 'withheld'
                       WHEN step = 'verify' THEN 'verify_failed' ELSE 'refresh_failed' END;
    END;
    RETURN NEXT;
END
$$;

-- _refresh_release for the release named `output`, found as anon.refresh finds it: a schema-qualified name, or the
-- first schema of the caller's search_path holding a release of that name; unquoted names fold to lower case.
CREATE FUNCTION anon.refresh_if_changed(output text)
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text, status text,
               hint text)
LANGUAGE plpgsql VOLATILE STRICT
AS $$
DECLARE
    parts text[];
    found text;
BEGIN
    BEGIN
        parts := pg_catalog.parse_ident(output);
    EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION 'invalid output: expected a release name, optionally schema-qualified, found "%"', output
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Quote names that hold capitals, spaces or dots as SQL does: ''"My Release"''.';
    END;
    IF pg_catalog.cardinality(parts) OPERATOR(pg_catalog.=) 2 THEN
        found := pg_catalog.format('%I.%I', parts[1], parts[2]);
    ELSIF pg_catalog.cardinality(parts) OPERATOR(pg_catalog.=) 1 THEN
        found := coalesce(
            (SELECT pg_catalog.format('%I.%I', p.nsp, parts[1])
             FROM pg_catalog.unnest(pg_catalog.current_schemas(true)) WITH ORDINALITY AS p(nsp, pos)
             WHERE EXISTS (SELECT 1 FROM anon.releases r WHERE r.output_schema OPERATOR(pg_catalog.=) p.nsp
                           AND r.output_name OPERATOR(pg_catalog.=) parts[1])
                OR anon._release_owner(p.nsp, parts[1]) IS NOT NULL
             ORDER BY p.pos LIMIT 1),
            output);
    ELSE
        found := output;
    END IF;
    RETURN QUERY SELECT f.* FROM anon._refresh_release(found) f;
END
$$;

-- _refresh_release for every release the caller sees, in one transaction; one row per release.
CREATE FUNCTION anon.refresh_report()
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text, status text,
               hint text)
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, anon
AS $$
    SELECT f.* FROM anon.releases r,
           LATERAL anon._refresh_release(pg_catalog.format('%I.%I', r.output_schema, r.output_name)) f
    ORDER BY r.output_schema, r.output_name
$$;

-- _refresh_release for every release the caller sees, committing after each one, with a NOTICE per release
-- ("anon.refresh_all: <release> <status>: <detail>"). Refuses to start inside a transaction block or a function,
-- where it could not commit; a release dropped since the loop started (by a concurrent session, committed) is
-- skipped. Returns how many releases were recomputed, the releases that are not known to satisfy their model (every
-- status but unchanged and refreshed), and those releases' statuses as a JSON object. A procedure that commits
-- cannot have a SET clause, so everything here is schema-qualified instead.
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
    FOR rel IN SELECT pg_catalog.format('%I.%I', output_schema, output_name) AS name FROM anon.releases
               ORDER BY output_schema, output_name LOOP
        CONTINUE WHEN NOT EXISTS (SELECT FROM anon.releases x WHERE pg_catalog.format('%I.%I', x.output_schema,
                                  x.output_name) OPERATOR(pg_catalog.=) rel.name);
        SELECT * INTO f FROM anon._refresh_release(rel.name);
        IF f.refreshed THEN
            refreshed := refreshed OPERATOR(pg_catalog.+) 1;
        END IF;
        IF NOT f.satisfied THEN
            unsatisfied := pg_catalog.array_append(unsatisfied, f.release);
            failures := failures OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object(f.release, f.status);
        END IF;
        IF f.hint IS NULL THEN
            RAISE NOTICE 'anon.refresh_all: % %: %', f.release, f.status, f.detail;
        ELSE
            RAISE NOTICE 'anon.refresh_all: % %: %', f.release, f.status, f.detail USING HINT = f.hint;
        END IF;
        COMMIT;
    END LOOP;
END
$$;
