-- anon 0.3 -> 0.4. Versions 0.1 to 0.3 are released and their scripts are never edited again; `CREATE EXTENSION
-- anon` runs anon--0.1.sql and the upgrade scripts in turn, and `ALTER EXTENSION anon UPDATE` brings an installed
-- earlier version, with its taxonomies and releases, here.
\echo Use "ALTER EXTENSION anon UPDATE TO '0.4'" to load this file. \quit

-- Random calls (issue 14) ----------------------------------------------------------------------------------------

-- A NULL release row has nothing missing (it raised "null values cannot be formatted as an SQL identifier").
ALTER FUNCTION anon._release_missing(anon.release) STRICT;

-- Hierarchy builders and typed ranges (issue 15) ---------------------------------------------------------------

-- Two more kinds of taxonomy: 'ranges', explicit "[a,b)" nodes under "*" (anon.quantile_taxonomy; lower and upper
-- hold the outer bounds, and a column's numbers become leaves under their finest interval when a job reads them),
-- and 'date', days in ISO form under coarser levels (anon.date_taxonomy; a timestamp's value becomes a leaf under
-- its day, a timestamptz's under its UTC day, when a job reads it).
ALTER TABLE anon.taxonomy DROP CONSTRAINT taxonomy_kind_check;
ALTER TABLE anon.taxonomy ADD CONSTRAINT taxonomy_kind_check CHECK (kind IN ('tree', 'interval', 'ranges', 'date'));
-- Bottom and top coding of an interval taxonomy: values below lower go under '<lower', values from upper on under
-- '>=upper', and at every coarser level the first and last intervals are open ('<10', '>=90').
ALTER TABLE anon.taxonomy ADD COLUMN coded boolean NOT NULL DEFAULT false;

-- Every builder takes `replace boolean DEFAULT false`: true rewrites an existing taxonomy of the caller's in place
-- (the releases that use it keep it, and use the new nodes at their next refresh).
DROP FUNCTION anon.taxonomy_from_levels(text, regclass);
CREATE FUNCTION anon.taxonomy_from_levels(name text, levels regclass, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_levels'
LANGUAGE C VOLATILE;

-- Nested intervals for a numeric column: widths {5,10,20} gives 5-, 10- and 20-wide ranges and a root '*'; widths
-- may be fractional ({0.5,1}), each a whole multiple (at least twice) of the previous one. coding => true: values
-- outside [lower, upper) are generalized into '<lower' / '>=upper' instead of stopping a job.
DROP FUNCTION anon.interval_taxonomy(text, numeric, numeric, int[]);
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
-- (12345 -> 1234* -> 123** -> ... -> *).
CREATE FUNCTION anon.prefix_taxonomy(name text, source regclass, column_name text, step int DEFAULT 1,
                                     replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_prefix_taxonomy'
LANGUAGE C VOLATILE;

-- Nested intervals whose bounds are a numeric column's quantiles: bins[1] intervals of about equal row counts,
-- merged into bins[2], ... (finest first, decreasing), and '*'.
CREATE FUNCTION anon.quantile_taxonomy(name text, source regclass, column_name text, bins int[] DEFAULT '{16,8,4,2}',
                                       replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_quantile_taxonomy'
LANGUAGE C VOLATILE;

-- A taxonomy from (value, parent) rows: the first two columns of `pairs`; a NULL parent, or a parent never listed
-- as a value, is the root.
CREATE FUNCTION anon.taxonomy_from_pairs(name text, pairs regclass, replace boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'anon_taxonomy_from_pairs'
LANGUAGE C VOLATILE;

-- ---- anon.covers: also for 'ranges' taxonomies (like interval ones), coded intervals and 'date' taxonomies -------
-- True when `general` is `value` or one of its ancestors in the taxonomy (for interval and ranges taxonomies: when
-- the numeric value lies in the interval, '<x' and '>=x' being open intervals and the root "*" standing for
-- [lower, upper), or for every number when the taxonomy is coded; for date taxonomies a value
-- that is no node is looked up by its first ten characters, its day). Written in SQL on purpose: tests use it to
-- check releases independently of the C++ code that made them.
CREATE OR REPLACE FUNCTION anon.covers(taxonomy text, general text, value text)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon
AS $$
    WITH RECURSIVE t AS (SELECT kind, lower, upper, coded FROM anon.taxonomy WHERE name = $1),
    up(v) AS (
        SELECT CASE WHEN (SELECT kind FROM t) = 'date' AND length($3) > 10 AND $3 !~ ' BC$'
                         AND NOT EXISTS (SELECT 1 FROM anon.taxonomy_node n WHERE n.taxonomy = $1 AND n.value = $3)
                    THEN left($3, 10) ELSE $3 END
        UNION
        SELECT n.parent FROM up JOIN anon.taxonomy_node n ON n.taxonomy = $1 AND n.value = up.v
        WHERE n.parent IS NOT NULL
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
        ELSE EXISTS (SELECT 1 FROM up WHERE up.v = $2)
    END
$$;

-- anon.covers for releases with params->>'ranges' = 'typed' (docs/taxonomies.md): a published numrange covers a number,
-- a daterange a date or a timestamp (by the day its canonical text starts with), when the range holds it; NULL covers
-- NULL. Checked on the values alone, in SQL, independently of the C++ code that chose the range.
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
            $3 ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' AND $3 !~ ' BC$' AND $2::text::daterange @> left($3, 10)::date
        ELSE false
    END
$$;

-- Declared columns, risk figures and the solution space (issue 15) -----------------------------------------------

-- Declared columns (docs/declarations.md): the roles of a table's columns and the taxonomy each uses, declared once
-- per table and role, so calls may pass NULL for quasi_identifiers and sensitive. Column names are the truth (a
-- dump keeps them readable and a restore resolves them against the restored table); attnums holds the same
-- columns' numbers (quasi-identifiers, sensitive, kept, in order), kept by the trigger below, so that the event
-- trigger anon_follow_declared_renames can follow ALTER TABLE ... RENAME COLUMN.
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
SELECT pg_catalog.pg_extension_config_dump('anon.declaration', '');

-- Row-level security as for releases: a role sees and changes only its own declarations (or those of roles it is
-- a member of); the database owner, which owns the catalog, sees them all (docs/admin-and-dumps.md).
ALTER TABLE anon.declaration ENABLE ROW LEVEL SECURITY;
CREATE POLICY declaration_owner ON anon.declaration FOR ALL
    USING (pg_catalog.pg_has_role(current_user, created_by, 'MEMBER'))
    WITH CHECK (pg_catalog.pg_has_role(current_user, created_by, 'MEMBER'));
GRANT SELECT, INSERT, UPDATE, DELETE ON anon.declaration TO PUBLIC;

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

-- The write check of the other catalog tables (0.3), now also naming a declaration.
CREATE OR REPLACE FUNCTION anon._check_catalog_write()
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
    ELSIF TG_TABLE_NAME OPERATOR(pg_catalog.=) 'declaration' THEN
        what := pg_catalog.format('the declaration of %s', NEW.source);
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
                                               'made a release, taxonomy or declaration)', creator, current_user);
        END IF;
    END LOOP;
    RETURN NEW;
END
$$;
CREATE TRIGGER check_write BEFORE INSERT OR UPDATE ON anon.declaration
    FOR EACH ROW EXECUTE FUNCTION anon._check_catalog_write();

-- The catalog's owner takes anon.declaration too (0.3's adopt_catalog, with the new table).
CREATE OR REPLACE FUNCTION anon.adopt_catalog()
RETURNS name
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    owner name := (SELECT pg_catalog.pg_get_userbyid(d.datdba) FROM pg_catalog.pg_database d
                   WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database());
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['anon.taxonomy', 'anon.taxonomy_node', 'anon.release', 'anon.declaration'] LOOP
        EXECUTE pg_catalog.format('ALTER TABLE %s OWNER TO %I', t, owner);
    END LOOP;
    UPDATE pg_catalog.pg_init_privs i SET initprivs = c.relacl
    FROM pg_catalog.pg_class c
    WHERE i.objoid OPERATOR(pg_catalog.=) c.oid AND i.classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::regclass
      AND i.objsubid OPERATOR(pg_catalog.=) 0 AND c.relacl IS NOT NULL
      AND c.oid OPERATOR(pg_catalog.=) ANY (ARRAY['anon.taxonomy', 'anon.taxonomy_node', 'anon.taxonomy_node_ord_seq',
                                                  'anon.release', 'anon.declaration']::regclass[]);
    RETURN owner;
END
$$;
SELECT anon.adopt_catalog();

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
        IF NOT EXISTS (SELECT 1 FROM anon.taxonomy t WHERE t.name OPERATOR(pg_catalog.=) (tax.value #>> '{}')) THEN
            RAISE EXCEPTION 'invalid taxonomies->''%'': taxonomy "%" does not exist', tax.key, tax.value #>> '{}'
                USING ERRCODE = 'undefined_object';
        END IF;
    END LOOP;
    INSERT INTO anon.declaration AS d (source, quasi_identifiers, sensitive, keep, taxonomies)
    VALUES (source, quasi_identifiers, sensitive, keep, taxonomies)
    ON CONFLICT ON CONSTRAINT declaration_pkey DO UPDATE
        SET quasi_identifiers = EXCLUDED.quasi_identifiers, sensitive = EXCLUDED.sensitive, keep = EXCLUDED.keep,
            taxonomies = EXCLUDED.taxonomies, created_at = pg_catalog.now();
    RETURN pg_catalog.jsonb_build_object('source', source::text, 'quasi_identifiers', quasi_identifiers,
                                         'sensitive', sensitive, 'keep', keep, 'taxonomies', taxonomies);
END
$$;

-- The declaration a call uses for `source`: the calling role's own, else that of a role it is a member of (the
-- first by role name). NULL when there is none.
CREATE FUNCTION anon._declaration_of(source regclass)
RETURNS anon.declaration
LANGUAGE sql STABLE
SET search_path = pg_catalog, anon, pg_temp
AS $$
    SELECT d FROM anon.declaration d WHERE d.source OPERATOR(pg_catalog.=) $1
    ORDER BY d.created_by OPERATOR(pg_catalog.=) current_user DESC, d.created_by LIMIT 1
$$;

-- Event trigger: after ALTER TABLE (VIEW, MATERIALIZED VIEW, FOREIGN TABLE) ... RENAME COLUMN, a declaration of
-- that relation follows the rename: its column lists and taxonomies keys take the new name of each column it
-- numbered. SECURITY DEFINER for the declarations of other roles (as anon._forget_dropped_releases); a failure
-- never blocks the user's command: it is reported as a WARNING, and the declaration then names the old column,
-- which calls refuse as an unknown declared column.
CREATE FUNCTION anon._follow_declared_renames()
RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, anon, pg_temp
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
                                                    WHERE c.classid = 'pg_catalog.pg_class'::pg_catalog.regclass) LOOP
            names := d.quasi_identifiers || d.sensitive || d.keep;
            renamed := names;
            FOR i IN 1 .. pg_catalog.cardinality(names) LOOP
                renamed[i] := coalesce((SELECT a.attname FROM pg_catalog.pg_attribute a
                                        WHERE a.attrelid OPERATOR(pg_catalog.=) d.source::pg_catalog.oid
                                          AND a.attnum OPERATOR(pg_catalog.=) d.attnums[i] AND NOT a.attisdropped),
                                       names[i]);
            END LOOP;
            CONTINUE WHEN renamed = names;
            n_qi := pg_catalog.cardinality(d.quasi_identifiers);
            n_sa := pg_catalog.cardinality(d.sensitive);
            UPDATE anon.declaration x
            SET quasi_identifiers = renamed[1:n_qi],
                sensitive = coalesce(renamed[n_qi + 1:n_qi + n_sa], '{}'),
                keep = coalesce(renamed[n_qi + n_sa + 1:], '{}'),
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

-- Event trigger: a declaration goes with its table (DROP TABLE, DROP SCHEMA ... CASCADE, DROP OWNED, ...). As
-- anon._forget_dropped_releases: SECURITY DEFINER, and a failure is a WARNING, never a blocked DROP.
CREATE FUNCTION anon._forget_dropped_declarations()
RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, anon, pg_temp
AS $$
BEGIN
    BEGIN
        DELETE FROM anon.declaration x
        WHERE x.source::pg_catalog.oid IN (SELECT d.objid FROM pg_catalog.pg_event_trigger_dropped_objects() d
                                           WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
                                             AND d.objsubid = 0);
    EXCEPTION WHEN query_canceled THEN
        RAISE;
    WHEN OTHERS THEN
        RAISE WARNING 'anon: could not remove the declarations of dropped tables: %', SQLERRM;
    END;
END
$$;
CREATE EVENT TRIGGER anon_forget_dropped_declarations ON sql_drop
    EXECUTE FUNCTION anon._forget_dropped_declarations();

-- Risk figures (docs/risk.md): prosecutor risk (highest and average 1 / class size, the share of records above
-- `threshold`), marketer risk, sample uniques and the estimated population uniqueness (Dankar et al.'s rule between
-- Pitman's, Zayatz's and the SNB model, named in the result) of any table, view or release. quasi_identifiers NULL: the
-- relation's declaration, or for a release its quasi-identifiers. population: the size of the population the
-- table samples (NULL: the table is the whole population).
CREATE FUNCTION anon.risk(relation regclass, quasi_identifiers text[] DEFAULT NULL, threshold float8 DEFAULT 0.2,
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


-- Publishing (issue 19) -------------------------------------------------------------------------------------------

-- The rows of the release objects published from 0.4 on (docs/architecture.md). _release_tuples gives an object
-- without kept columns its rows: each piece of the computed release once per tuple, in the object's order, typed as
-- the caller's column definition list says, so the object neither reads the source again nor sorts. _release_rows
-- gives the pieces as anon._release_map does, for objects that publish kept columns (they join the source). The
-- source argument, a constant of the objects' queries, makes them depend on the source. Row-level security on, as
-- for _release_map (the REFRESH at the end of a restore reads the catalog row through its policies). Releases
-- published before 0.4 keep their views, which still call anon._release_map. The objects' queries read
-- _release_tuples through anon's release scan, which streams its rows to the object's insert instead of a
-- function scan's tuplestore (docs/architecture.md); its planner support function only loads the library while
-- the planner sizes the call, so that a REFRESH MATERIALIZED VIEW in a new session gets the release scan too.
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
-- once per shard that some of its tuples go to, with how many (count) and a value of the object's distribution
-- column that Citus places on that shard (anon_bucket, taken from `buckets`, one per shard). Each tuple's shard is
-- drawn uniformly and independently, as a random bucket per row would place it; the workers repeat each row count
-- times into the object's shard on the same node.
CREATE FUNCTION anon._release_shard_rows(output_schema text, output_name text, source regclass, object text,
                                         buckets int4[])
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'anon_release_shard_rows'
LANGUAGE C VOLATILE STRICT
SET row_security = on;


-- Citus (issue 17) ------------------------------------------------------------------------------------------------

-- A release of a Citus distributed table is published as distributed tables instead of materialized views
-- (release_citus.hpp): what is missing of a release counts such a table as present.
CREATE OR REPLACE FUNCTION anon._release_missing(r anon.release)
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

-- Event trigger: REFRESH MATERIALIZED VIEW of a release object that is a distributed table errors saying to use
-- anon.refresh (PostgreSQL's own error would only say it is not a materialized view). Anything else passes.
CREATE FUNCTION anon._refuse_release_table_refresh()
RETURNS event_trigger
AS 'MODULE_PATHNAME', 'anon_refuse_release_table_refresh'
LANGUAGE C;

CREATE EVENT TRIGGER anon_refuse_release_table_refresh ON ddl_command_start
    WHEN TAG IN ('REFRESH MATERIALIZED VIEW')
    EXECUTE FUNCTION anon._refuse_release_table_refresh();
