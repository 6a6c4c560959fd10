-- anon 0.4 -> 0.5. Versions 0.1 to 0.4 are released and their scripts are never edited again; `ALTER EXTENSION anon
-- UPDATE` runs the upgrade scripts in turn and brings an installed earlier version, with its taxonomies and releases,
-- here. A fresh `CREATE EXTENSION anon` runs the current install script anon--0.5.sql alone.
--
-- The rule: a change to the current version goes into both this script and anon--0.5.sql, so that a fresh install
-- and an upgraded one have the same schema; tests/scripts/install_upgrade_test.sh enforces it.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.5'" to load this file. \quit

-- ==== Rights and the catalog (issue 40; docs/security.md, "Rights and the catalog") ==========================
-- Until 0.4 the database owner owned the catalog tables (for its pg_dump), so it could put a trigger, a rule, a
-- policy or a default on them, which the extension's SECURITY DEFINER functions (owned by the superuser that ran
-- this script) then ran with the superuser's rights. From 0.5:
--   * the catalog tables belong to the superuser that runs this script (for a trusted extension, the bootstrap
--     superuser), so no other role can attach code to them;
--   * no role writes them directly: every write goes through the API, whose C code switches to the catalog's owner
--     for the one statement, under SECURITY_RESTRICTED_OPERATION, with search_path = pg_catalog, pg_temp, after
--     checking the caller's right explicitly (src/pg/catalog_rights.cpp);
--   * the database owner (pg_database_owner) reads the tables whole, and may INSERT rows as a restore does (COPY),
--     under the check of anon._check_direct_write; it updates and deletes nothing;
--   * every other role reads its own rows through the views anon.releases, anon.declarations, anon.taxonomies and
--     anon.taxonomy_nodes (the nodes of a taxonomy built from data only when it may read the column they came from);
--   * the schema anon (owned by the role that ran CREATE EXTENSION) cannot be renamed, so that no other schema
--     can take its name under the extension's SECURITY DEFINER functions.

-- The schema keeps its name (event trigger, below the catalog changes).
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

-- Taxonomies built from data remember where from: the table and (NULL for a whole table) the column.
ALTER TABLE anon.taxonomy ADD COLUMN built_from regclass;
ALTER TABLE anon.taxonomy ADD COLUMN built_column text;

-- A node fills one level or, for a label a levels table repeats at consecutive levels (a single-child chain, as
-- ARX's hierarchy files write one), each of them.
ALTER TABLE anon.taxonomy_node ADD COLUMN span integer NOT NULL DEFAULT 1 CHECK (span >= 1);

-- The owner of the catalog: the superuser running this script. The sequence follows its table.
ALTER TABLE anon.release OWNER TO CURRENT_USER;
ALTER TABLE anon.taxonomy OWNER TO CURRENT_USER;
ALTER TABLE anon.taxonomy_node OWNER TO CURRENT_USER;
ALTER TABLE anon.declaration OWNER TO CURRENT_USER;
DROP FUNCTION anon.adopt_catalog();

-- Row-level security is replaced by the views below: pg_dump reads with row_security = off and refuses a table
-- whose rows row-level security would filter, so the dumping database owner must see the tables whole.
DROP POLICY taxonomy_read ON anon.taxonomy;
DROP POLICY taxonomy_create ON anon.taxonomy;
DROP POLICY taxonomy_change ON anon.taxonomy;
DROP POLICY taxonomy_drop ON anon.taxonomy;
DROP POLICY taxonomy_node_read ON anon.taxonomy_node;
DROP POLICY taxonomy_node_change ON anon.taxonomy_node;
DROP POLICY release_owner ON anon.release;
DROP POLICY declaration_owner ON anon.declaration;
ALTER TABLE anon.taxonomy DISABLE ROW LEVEL SECURITY;
ALTER TABLE anon.taxonomy_node DISABLE ROW LEVEL SECURITY;
ALTER TABLE anon.release DISABLE ROW LEVEL SECURITY;
ALTER TABLE anon.declaration DISABLE ROW LEVEL SECURITY;

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
SELECT pg_catalog.pg_extension_config_dump('anon.release_history', '');
REVOKE ALL ON anon.taxonomy, anon.taxonomy_node, anon.release, anon.declaration, anon.release_history FROM PUBLIC;
REVOKE ALL ON SEQUENCE anon.taxonomy_node_ord_seq FROM PUBLIC;
GRANT SELECT, INSERT ON anon.taxonomy, anon.taxonomy_node, anon.release, anon.declaration, anon.release_history
    TO pg_database_owner;

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
DROP TRIGGER check_write ON anon.release;
DROP TRIGGER check_write ON anon.taxonomy;
DROP TRIGGER check_write ON anon.declaration;
DROP FUNCTION anon._check_catalog_write();
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

-- The initial privileges of the catalog (what pg_dump compares the ACLs with) are its ACLs now: a dump grants
-- nothing on it, whoever owns the database it is restored into.
UPDATE pg_catalog.pg_init_privs i SET initprivs = c.relacl
FROM pg_catalog.pg_class c
WHERE i.objoid OPERATOR(pg_catalog.=) c.oid AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
  AND i.objsubid OPERATOR(pg_catalog.=) 0 AND c.relacl IS NOT NULL
  AND c.oid OPERATOR(pg_catalog.=) ANY (ARRAY['anon.taxonomy', 'anon.taxonomy_node', 'anon.taxonomy_node_ord_seq',
                                              'anon.release', 'anon.declaration']::pg_catalog.regclass[]);

-- ---- SECURITY DEFINER functions and the catalog's triggers: search_path = pg_catalog, pg_temp --------------------
-- They run as the superuser (SECURITY DEFINER) or as the catalog's owner (the triggers, during the API's writes), so
-- nothing they name may resolve to an object another role made: the schema anon (which the database owner may create
-- in) is not on their path, and every object of it is named with its schema and exact argument types.

CREATE OR REPLACE FUNCTION anon._release_owner(output_schema text, output_name text)
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

CREATE OR REPLACE FUNCTION anon._taxonomy_use_count(taxonomy text)
RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT pg_catalog.count(*) FROM anon.release r
    WHERE anon._uses_taxonomy(r.quasi_identifiers, r.sensitive, r.params, $1)
$$;

-- The trigger that keeps a taxonomy in use from being dropped or renamed. anon.drop_taxonomy checks first and names
-- the releases the caller sees; this last guard runs as the catalog's owner and only counts.
CREATE OR REPLACE FUNCTION anon._refuse_taxonomy_in_use()
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

CREATE OR REPLACE FUNCTION anon._forget_dropped_releases()
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

CREATE OR REPLACE FUNCTION anon._forget_dropped_declarations()
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

CREATE OR REPLACE FUNCTION anon._follow_declared_renames()
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

-- ---- Declarations: written through the API -------------------------------------------------------------------

-- Stores the calling role's declaration of `source` (replacing its previous one), as anon.declare checked it; the
-- role is the caller's, whatever the arguments (src/pg/fn_declare_store.cpp).
CREATE FUNCTION anon._store_declaration(source regclass, quasi_identifiers text[], sensitive text[], keep text[],
                                        taxonomies jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'anon_store_declaration'
LANGUAGE C VOLATILE STRICT;

CREATE OR REPLACE FUNCTION anon.declare(source regclass, quasi_identifiers text[], sensitive text[], keep text[] DEFAULT '{}',
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

-- The declaration a call uses for `source`: the calling role's own, else that of a role it holds (the first by
-- role name). NULL when there is none.
CREATE OR REPLACE FUNCTION anon._declaration_of(source regclass)
RETURNS anon.declaration
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon, pg_temp
AS $$
    SELECT ROW(d.*)::anon.declaration FROM anon.declarations d WHERE d.source OPERATOR(pg_catalog.=) $1
      AND anon._holds(d.created_by)
    ORDER BY d.created_by OPERATOR(pg_catalog.=) current_user DESC, d.created_by LIMIT 1
$$;

-- ---- anon.covers reads the taxonomies the caller may read -------------------------------------------------------
CREATE OR REPLACE FUNCTION anon.covers(taxonomy text, general text, value text)
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

-- ---- anon.covers: infinity and -infinity under a date taxonomy's open-ended nodes, and in typed dateranges -------
CREATE OR REPLACE FUNCTION anon.covers(taxonomy text, general anyrange, value text)
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

-- ---- Maintenance: the releases the caller sees, names folded as anon.refresh folds them, more status words ------

-- The model a release of `model` is verified as: with residual tuples in its groups, the model the registry says
-- such a release is checked as (unique distinct l-diversity: distinct l-diversity), as the job checks it.
CREATE FUNCTION anon._model_verified_as(model text, took_residuals boolean)
RETURNS text
AS 'MODULE_PATHNAME', 'anon_model_verified_as'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Refreshes one release if its input changed since it was last computed, then re-verifies its generalized view (as
-- in 0.3). The recomputation reads the source with the rights of the role that owns the release's objects, never the
-- caller's (src/pg/release_owner_rights.cpp). Status words added in 0.5:
--   not_permitted     the caller may not maintain the release, or its owner may no longer read what the job reads;
--                     the release is left as it was, detail says why
--   taxonomy_changed  a taxonomy the release was computed with was changed (or replaced) by a role other than the
--                     release's owner; the release is left as it was, detail names the taxonomy and its owner
--   reshaped          refreshed, but a full-domain release could not keep its node (detail: old and new levels)
--   withheld          the new version would single people out against the versions already published or the
--                     source's other live releases: the previous release is kept (docs/republication.md)
-- Column hint (0.5): the hint of the error behind a failure status (e.g. how to publish a withheld change), else NULL;
-- a new row type, so the three functions are made anew.
-- anon.refresh_if_changed reads the source once (0.5): the fingerprint is compared within the refresh's own read.
DROP FUNCTION anon._source_fingerprint(text);
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
DROP FUNCTION anon.refresh_report();
DROP FUNCTION anon.refresh_if_changed(text);
DROP FUNCTION anon._refresh_release(text);
CREATE OR REPLACE FUNCTION anon._refresh_release(output text)
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
CREATE OR REPLACE FUNCTION anon.refresh_if_changed(output text)
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

CREATE OR REPLACE FUNCTION anon.refresh_report()
RETURNS TABLE (release text, changed boolean, refreshed boolean, satisfied boolean, detail text, status text,
               hint text)
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, anon
AS $$
    SELECT f.* FROM anon.releases r,
           LATERAL anon._refresh_release(pg_catalog.format('%I.%I', r.output_schema, r.output_name)) f
    ORDER BY r.output_schema, r.output_name
$$;

CREATE OR REPLACE PROCEDURE anon.refresh_all(INOUT refreshed integer DEFAULT NULL, INOUT unsatisfied text[] DEFAULT NULL,
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

-- ---- Releases over time and across releases (issue 42) ----------------------------------------------------------

-- The composition of a source's live releases (docs/republication.md): an attacker who knows a person's
-- quasi-identifiers intersects the candidate sensitive values of the person's classes in every release of the source.
-- One row per sensitive column that releases share and per number of candidates left, with how many of the source's
-- rows are left with that many and how many releases were combined on that column. Every live release of the source
-- counts, whoever published it (only figures are returned); the source is read with the caller's rights.
CREATE FUNCTION anon.audit_composition(source regclass)
RETURNS TABLE (sensitive text, candidates int, persons bigint, releases int)
AS 'MODULE_PATHNAME', 'anon_audit_composition'
LANGUAGE C VOLATILE STRICT;

-- ---- Taxonomies of codes (issue 38) ------------------------------------------------------------------------------

-- A masking hierarchy over a column's distinct values: each level masks `step` more characters from the right
-- (12345 -> 1234* -> 123** -> ... -> *), a code's own characters only (I10 -> I1* -> I** -> *); with a separator,
-- a first level masks what follows it (E11.9 -> E11.* -> E1* -> E** -> *).
DROP FUNCTION anon.prefix_taxonomy(text, regclass, text, int, boolean);
CREATE FUNCTION anon.prefix_taxonomy(name text, source regclass, column_name text, step int DEFAULT 1,
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

-- Relation arguments given as text: overloads whose errors explain quoting (issue 38).
CREATE FUNCTION anon.taxonomy_from_levels(name text, levels text, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_levels'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.taxonomy_from_pairs(name text, pairs text, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_pairs'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.prefix_taxonomy(name text, source text, column_name text, step int DEFAULT 1,
                                     replace boolean DEFAULT false, separator text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_prefix_taxonomy'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.icd10_taxonomy(name text, source text, column_name text, blocks text DEFAULT NULL,
                                    replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_icd10_taxonomy'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.quantile_taxonomy(name text, source text, column_name text, bins int[] DEFAULT '{16,8,4,2}',
                                       replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_quantile_taxonomy'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.anonymize(source text, quasi_identifiers text[], sensitive text[], model text,
                               params jsonb DEFAULT '{}', algorithm text DEFAULT 'auto', output text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_anonymize'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.verify(relation text, quasi_identifiers text[], sensitive text[], model text,
                            params jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_verify'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.eligible_range(source text, sensitive text[])
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_eligible_range'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.equivalence_classes(relation text, quasi_identifiers text[], sensitive text[],
                                         params jsonb DEFAULT '{}')
RETURNS TABLE (qi text[], size bigint, distinct_sensitive int, entropy double precision, max_share double precision,
               induced_frequencies jsonb)
AS 'MODULE_PATHNAME', 'anon_equivalence_classes'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.risk(relation text, quasi_identifiers text[] DEFAULT NULL, threshold float8 DEFAULT 0.2,
                          population float8 DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_risk'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.explore(source text, quasi_identifiers text[], sensitive text[], model text,
                             params jsonb DEFAULT '{}')
RETURNS TABLE (levels jsonb, classes bigint, suppressed bigint, ncp double precision, discernibility double precision,
               kl double precision, prosecutor_risk double precision)
AS 'MODULE_PATHNAME', 'anon_explore'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.audit_minimality_table(source text, published text, key text, quasi_identifiers text[],
                                            sensitive text, sensitive_values text[], l int, m int DEFAULT NULL)
RETURNS TABLE (qi text[], class_size int, credibility double precision, violates bool)
AS 'MODULE_PATHNAME', 'anon_audit_minimality_table'
LANGUAGE C VOLATILE;

CREATE FUNCTION anon.audit_composition(source text)
RETURNS TABLE (sensitive text, candidates int, persons bigint, releases int)
AS 'MODULE_PATHNAME', 'anon_audit_composition'
LANGUAGE C VOLATILE STRICT;

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

-- Whether a source row holds a NULL where refuse_null[c] is set, or, for a column c with leaves (leaves[starts[c]+1 ..
-- starts[c+1]]), a value whose canonical text is not one of them: the per-row test of the source's checks made before
-- the read (one call per row instead of an expression per column). The three arrays must be constants of the query.
CREATE FUNCTION anon._row_misfit(leaves text[], starts int4[], refuse_null bool[], VARIADIC "any")
RETURNS bool
AS 'MODULE_PATHNAME', 'anon_row_misfit'
LANGUAGE C STABLE PARALLEL SAFE;

-- ==== Citus releases without a table of pieces (issue 39; docs/scale.md) =====================================
-- 0.4's rows per shard took a bucket value per shard and a count, stored in a table of pieces beside the object;
-- from 0.5 they go into the object itself with the count in anon_bucket's high bits, found from each shard's hash
-- range.
DROP FUNCTION anon._release_shard_rows(text, text, regclass, text, int4[]);
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
