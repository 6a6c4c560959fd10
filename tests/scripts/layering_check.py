#!/usr/bin/env python3
"""tests/scripts/layering_check.py: the layering rules of docs/architecture.md, checked from the source.

Run by tests/scripts/layering_test.sh, which gives it the names the registries hold (build/registry_names). Every
#include of src/ is resolved to a file, as the compiler would find it: beside the including file, then in the
include roots (the Makefile's -I directories, src/core, src/pg and the repository root, which PGXS adds). Each
resolved include between two folders of src/core or src/pg is an edge, checked against the layers below. Prints one
"ok: NAME" or "FAILED: NAME" line per check (tests/scripts/checks.sh), each failure after the lines that break it,
then "layering: N passed, N failed"; the exit status is non-zero when a check failed.
"""

import argparse
import functools
import os
import re
import sys

# The subsystem folders of each half, lowest layer first: a file includes its own folder and lower layers only,
# and another folder only through that folder's interface header <folder>/<folder>.hpp. Sub-folders
# (algorithms/refine/) belong to their top folder.
CORE_LAYERS = ["base", "data", "models", "metrics", "audit", "algorithms", "job"]
PG_LAYERS = ["infra", "catalog", "read", "citus", "publish", "api"]
HALVES = {"src/core": CORE_LAYERS, "src/pg": PG_LAYERS}

SOURCE_SUFFIXES = (".cpp", ".hpp", ".cc", ".c", ".h")

# The registry entry files, the only C++ files that may compare model and algorithm names.
REGISTRY_FILES = re.compile(
    r"^src/core/(models/models_\w+|models/model_registry|algorithms/(.+/)?algo_\w+|algorithms/algorithm_registry)\.cpp$"
)

class Checks:
    """The checks' tally and their ok:/FAILED: lines."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, problems):
        """One check: passed when `problems` is empty; each problem is printed on its own line before a failure."""
        for problem in problems:
            print("  " + problem)
        if problems:
            print("FAILED: " + name)
            self.failed += 1
        else:
            print("ok: " + name)
            self.passed += 1


def source_files(root, tree):
    """The C/C++ source files under `tree` (relative to the repository root), sorted."""
    found = []
    for folder, _, files in os.walk(os.path.join(root, tree)):
        for file in files:
            if file.endswith(SOURCE_SUFFIXES):
                found.append(os.path.relpath(os.path.join(folder, file), root))
    return sorted(found)


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


_code = {}


def code(root, path):
    """A C/C++ file's text without its comments, read once."""
    if path not in _code:
        _code[path] = without_comments(read(root, path))
    return _code[path]


CPP_TOKENS = re.compile(
    r'R"(?P<delim>[^\s()\\]{0,16})\(.*?\)(?P=delim)"'  # raw string literal
    r'|"(?:\\.|[^"\\\n])*"'  # string literal
    r"|'(?:\\.|[^'\\\n])*'"  # character literal
    r"|//[^\n]*"  # line comment
    r"|/\*.*?\*/",  # block comment
    re.S,
)


def without_comments(text, tokens=CPP_TOKENS, comment_starts=("//", "/*")):
    """The text with its comments blanked out (line breaks kept, so offsets and line numbers stay), literals kept."""

    def blank(match):
        token = match.group(0)
        if token.startswith(comment_starts):
            return "\n".join(" " * len(part) for part in token.split("\n"))
        return token

    return tokens.sub(blank, text)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)


def includes(root, path):
    """(line, name, quoted) for each #include of a file, commented-out ones left aside."""
    text = code(root, path)
    return [(line_of(text, m.start()), m.group(2).strip(), m.group(1) == '"') for m in INCLUDE.finditer(text)]


def include_roots(root):
    """Where an include is looked for after the including file's folder: the Makefile's -I directories, src/core,
    src/pg, and the repository root (PGXS compiles with -I.)."""
    roots = []
    makefile = os.path.join(root, "Makefile")
    flags = re.findall(r"-I\s*([^\s$()]+)", read(root, "Makefile")) if os.path.isfile(makefile) else []
    for folder in flags + list(HALVES) + ["."]:
        folder = os.path.normpath(folder)
        if os.path.isdir(os.path.join(root, folder)) and folder not in roots:
            roots.append(folder)
    return roots


@functools.lru_cache(maxsize=None)
def is_file(root, path):
    return os.path.isfile(os.path.join(root, path))


def resolve(root, roots, including, name):
    """Every file of the repository an include may name, in the compiler's order (relative to the repository root)."""
    found = []
    for folder in [os.path.dirname(including)] + roots:
        candidate = os.path.normpath(os.path.join(folder, name))
        if not candidate.startswith("..") and is_file(root, candidate) and candidate not in found:
            found.append(candidate)
    return found


def place(path):
    """(half, folder) of a file of src/core or src/pg, folder None directly in the half; None outside both."""
    for half in HALVES:
        if path.startswith(half + "/"):
            parts = path[len(half) + 1 :].split("/")
            return half, (parts[0] if len(parts) > 1 else None)
    return None


def interface_header(half, folder):
    return "%s/%s/%s.hpp" % (half, folder, folder)


def is_standard_or_boost(name, quoted):
    """A C++ standard library header (<vector>: no extension) or a Boost one: what the core may include besides its
    own headers."""
    return not quoted and ("." not in name or name.startswith("boost/"))


def include_problem(path, name, quoted, found):
    """What is wrong with one include of a file of src/core or src/pg, as (check, reason), or None. `found` lists the
    files the include may name, the compiler's first first. The checks: "upward <half>", "private <half>",
    "pg to core", "outside" (the core reaching beyond itself), "unresolved", "ambiguous" (a name in both halves)."""
    own_half, own = place(path)
    if len({place(f)[0] for f in found if place(f)}) > 1:
        return "ambiguous", ", ".join(found)
    if not found:
        if own_half == "src/core" and not is_standard_or_boost(name, quoted):
            return "outside", "not a header of src/core, the C++ standard library or Boost"
        if quoted and name.endswith(".hpp"):
            return "unresolved", "no such file beside it or in the include roots"
        return None  # a PostgreSQL, C or C++ library header of src/pg
    target = found[0]
    if not place(target):
        return ("outside", target + ": outside src/core") if own_half == "src/core" else None
    target_half, folder = place(target)
    layers = HALVES[target_half]
    interface = interface_header(target_half, folder)
    if own_half == "src/core" and target_half == "src/pg":
        return "upward src/core", target + ": the PostgreSQL layer is above the core"
    if folder not in layers:
        return None  # a stray file: the stray check names it
    if own_half != target_half:
        return ("pg to core", target) if target != interface else None
    if own not in layers:
        return None  # from a stray file
    if layers.index(folder) > layers.index(own):
        return "upward " + own_half, "%s: layer %s is above %s" % (target, folder, own)
    if folder != own and target != interface:
        return "private " + own_half, "%s: other folders use %s" % (target, interface)
    return None


def check_halves(root, checks):
    """The folder, layer and interface-header checks of src/core and src/pg, from their resolved includes."""
    roots = include_roots(root)
    problems = {}
    for half in HALVES:
        for path in source_files(root, half):
            for line, name, quoted in includes(root, path):
                problem = include_problem(path, name, quoted, resolve(root, roots, path, name))
                if problem:
                    where = "%s:%d includes %s" % (path, line, name)
                    problems.setdefault(problem[0], []).append("%s (%s)" % (where, problem[1]))

    for half, layers in HALVES.items():
        # Every folder another may include: each of the core's (src/pg reaches the job through job/job.hpp), each of
        # src/pg's but the top one (api: the SQL entry points, which nothing includes).
        included = layers if half == "src/core" else layers[:-1]
        missing = [interface_header(half, f) for f in included if not is_file(root, interface_header(half, f))]
        checks.check(
            "each folder of %s has its interface header <folder>/<folder>.hpp (%s)" % (half, ", ".join(included)),
            missing,
        )
        strays = [p for p in source_files(root, half) if place(p)[1] not in layers]
        checks.check("no source file of %s outside its folders (%s)" % (half, ", ".join(layers)), strays)
        checks.check("no file of %s includes a higher layer (%s)" % (half, " < ".join(layers)),
                     problems.get("upward " + half, []))
        checks.check("%s reaches another of its folders only through its interface header" % half,
                     problems.get("private " + half, []))
    checks.check("src/pg reaches the core only through its interface headers", problems.get("pg to core", []))
    checks.check("src/core includes only src/core, the C++ standard library and Boost (no PostgreSQL header)",
                 problems.get("outside", []))
    checks.check("every quoted .hpp include of src/ names a file", problems.get("unresolved", []))
    checks.check("no include names a file in both src/core and src/pg", problems.get("ambiguous", []))


def quoted_names(names, quote):
    """A pattern of a literal holding exactly one of `names`, between `quote`s; the name is its group "name"."""
    return re.compile(
        r"%s(?P<name>%s)%s" % (quote, "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True)), quote)
    )


def cpp_name_comparisons(names):
    """Patterns of a C++ comparison or lookup of one of `names` (a string literal holding exactly the name)."""
    n = quoted_names(names, '"').pattern
    string_type = r"(?:std\s*::\s*)?\b(?:string_view|string)\b"
    calls = r"compare|strn?cmp|strn?casecmp|pg_strn?casecmp|memcmp|equals?|iequals|starts_with|ends_with|r?find"
    calls += r"|find_if|count|contains|at|lower_bound|upper_bound|equal_range|erase"
    return [
        # x == "name", x != std::string("name"), x == ("name")
        re.compile(r"(?:==|!=)\s*(?:\(\s*)*(?:%s\s*[({]\s*)?%s" % (string_type, n)),
        # "name" == x, "name"sv != x, std::string("name") == x
        re.compile(r"%s(?:sv|s)?\s*(?:[)}]\s*)*(?:==|!=)" % n),
        # std::string("name"), std::string_view{"name"}: a string object made of a name, to compare or look up
        re.compile(r"%s\s*[({]\s*%s" % (string_type, n)),
        # "name"s, "name"sv
        re.compile(r"%s(?:sv|s)\b" % n),
        # a named constant holding a name: const char* kMondrian = "mondrian"; std::string_view m{"mondrian"}
        re.compile(r"\b(?:string_view|string|char|auto)\b[\s\w:*&\[\]]*(?:=\s*|\w\s*\{\s*)%s" % n),
        # x.compare("name"), strcmp(x, "name"), std::find(b, e, "name"), m.count("name"), s.starts_with("name")
        re.compile(r"\b(?:%s)\s*\((?:[^;(){}]|\([^;(){}]*\))*?%s" % (calls, n)),
        # a table or list keyed by names: {"mondrian", &run}, {"k-anonymity", "t-closeness"}
        re.compile(r"\{\s*(?:[^{};()]*,\s*)?%s\s*[,}]" % n),
    ]


SQL_TOKENS = re.compile(r"'(?:''|[^'])*'|--[^\n]*|/\*.*?\*/", re.S)


def sql_name_comparisons(names):
    """Patterns of an SQL comparison of one of `names` (a string literal holding exactly the name)."""
    n = quoted_names(names, "'").pattern
    return [
        re.compile(r"(?<![:<>!=])(?:=|<>|!=)\s*(?:\(\s*)*%s" % n),  # x = 'name' (not := or =>)
        re.compile(r"%s(?:\s*::\s*\w+)?\s*(?:=(?!>)|<>|!=)" % n),  # 'name' = x
        re.compile(r"\b(?:IN|ANY|ALL)\s*\((?:[^()]|\([^()]*\))*?%s" % n, re.I),  # x IN ('a', 'name')
        re.compile(r"\bARRAY\s*\[[^\]]*%s" % n, re.I),  # x = ANY (ARRAY['name'])
        re.compile(r"\b(?:WHEN|LIKE|ILIKE|SIMILAR\s+TO|DISTINCT\s+FROM)\s+%s" % n, re.I),
    ]


def find_comparisons(text, patterns, literal):
    """(line, matched text) of each comparison the patterns find, once per name literal; none when the text holds no
    `literal` (a name in quotes), which spares most files the patterns."""
    hits = {}
    if not literal.search(text):
        return []
    for pattern in patterns:
        for m in pattern.finditer(text):
            at = m.start("name")
            if at not in hits:
                hits[at] = (line_of(text, at), " ".join(m.group(0).split()))
    return [hits[at] for at in sorted(hits)]


def check_names(root, checks, names):
    """No model or algorithm name compared outside the registry entries: in the C++ of src/ and tools/, and in the
    current install script's SQL."""
    checks.check(
        "the registries' names are known (build/registry_names, with 'auto')",
        [] if names and "auto" in names else ["build/registry_names printed %s" % (names or "nothing")],
    )
    if not names:
        return
    patterns = cpp_name_comparisons(names)
    literal = quoted_names(names, '"')
    compared = []
    for path in source_files(root, "src") + source_files(root, "tools"):
        if REGISTRY_FILES.match(path):
            continue
        for line, matched in find_comparisons(code(root, path), patterns, literal):
            compared.append("%s:%d: %s" % (path, line, matched))
    checks.check("no model or algorithm name compared in C++ outside the registry entries", compared)

    control = read(root, "anon.control") if os.path.isfile(os.path.join(root, "anon.control")) else ""
    version = re.search(r"^default_version\s*=\s*'([^']+)'", control, re.M)
    script = "sql/anon--%s.sql" % (version.group(1) if version else "?")
    if not os.path.isfile(os.path.join(root, script)):
        checks.check("no model or algorithm name compared in the current install script", [script + " not found"])
        return
    text = without_comments(read(root, script), SQL_TOKENS, ("--", "/*"))
    compared = ["%s:%d: %s" % (script, line, matched)
                for line, matched in find_comparisons(text, sql_name_comparisons(names), quoted_names(names, "'"))]
    checks.check("no model or algorithm name compared in the current install script (%s)" % script, compared)


MAX_FUNCTION_LINES = 80

# A line that opens a definition at namespace scope: not a comment, preprocessor line, closing brace or declaration
# of a namespace, class, struct, enum or linkage block.
NOT_A_FUNCTION = re.compile(r"^(namespace|struct|class|enum|union|extern|using|template|typedef|#|//|/\*|\}|\))")


def long_functions(root, path):
    """The functions of a C++ file defined at namespace scope (their first line at column 0, their closing brace
    alone at column 0) that span more than MAX_FUNCTION_LINES lines, signature included."""
    lines = read(root, path).splitlines()
    found = []
    start = None
    for number, line in enumerate(lines, 1):
        if start is None:
            if line[:1].isalpha() and not NOT_A_FUNCTION.match(line) and not line.rstrip().endswith(";"):
                start = number
            continue
        if line == "}":
            if number - start + 1 > MAX_FUNCTION_LINES:
                found.append("%s:%d: %d lines: %s" % (path, start, number - start + 1, lines[start - 1].strip()[:80]))
            start = None
        elif line.rstrip().endswith(";") and not line.startswith((" ", "\t")):
            start = None  # a declaration that spanned several lines
    return found


def check_function_lengths(root, checks):
    found = []
    for path in source_files(root, "src"):
        if path.endswith(".cpp"):
            found += long_functions(root, path)
    checks.check("no function of src/ over %d lines" % MAX_FUNCTION_LINES, found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", required=True, help="a file of the registries' names, one a line")
    parser.add_argument("root", nargs="?", default=".", help="the repository's root")
    args = parser.parse_args()
    with open(args.names, encoding="utf-8") as f:
        names = [line.strip() for line in f if line.strip()]
    root = args.root
    checks = Checks()
    check_halves(root, checks)
    check_names(root, checks, names)
    check_function_lengths(root, checks)
    print("layering: %d passed, %d failed" % (checks.passed, checks.failed))
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
