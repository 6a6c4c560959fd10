#include "report_command.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "pq_query.hpp"
#include "report_html.hpp"
#include "report_reader.hpp"

namespace anon_tools {

namespace {

constexpr int exit_ok = 0;
constexpr int exit_error = 2;

// The report command's arguments.
struct ReportOptions {
    std::string release, file;
    std::optional<std::string> conninfo;
};

// Parses the arguments after "report"; nullopt (after printing why) on a usage error.
std::optional<ReportOptions> parse_report_options(int argc, char** argv) {
    ReportOptions options;
    bool have_release = false, have_file = false;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--html") {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                std::fputs("anon-maintain report: --html needs a FILE\n", stderr);
                return std::nullopt;
            }
            options.file = argv[++i];
            have_file = true;
        } else if (arg.compare(0, 7, "--html=") == 0 && arg.size() > 7) {
            options.file = arg.substr(7);
            have_file = true;
        } else if (arg.compare(0, 1, "-") == 0) {
            std::fprintf(stderr, "anon-maintain report: unexpected argument \"%s\"\n", arg.c_str());
            return std::nullopt;
        } else if (!have_release) {
            options.release = arg;
            have_release = true;
        } else if (!options.conninfo) {
            options.conninfo = arg;
        } else {
            std::fprintf(stderr, "anon-maintain report: unexpected argument \"%s\"\n", arg.c_str());
            return std::nullopt;
        }
    }
    if (!have_release || options.release.empty()) {
        std::fputs("anon-maintain report: missing RELEASE (usage: anon-maintain report RELEASE --html FILE)\n", stderr);
        return std::nullopt;
    }
    if (!have_file) {
        std::fputs("anon-maintain report: missing --html FILE (usage: anon-maintain report RELEASE --html FILE)\n",
                   stderr);
        return std::nullopt;
    }
    return options;
}

// Writes `text` to `path` whole or not at all: into a new file beside it, renamed over `path` once complete. False,
// after printing why, when that fails (the temporary file is removed).
bool write_whole(const std::string& path, const std::string& text) {
    std::string temp = path + ".XXXXXX";
    const int fd = mkstemp(temp.data());
    if (fd < 0) {
        std::fprintf(stderr, "anon-maintain report: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    FILE* out = fdopen(fd, "w");
    bool written = out && std::fwrite(text.data(), 1, text.size(), out) == text.size();
    if (out)
        written = std::fclose(out) == 0 && written;
    else
        close(fd);
    // mkstemp creates the file readable by its owner alone; the page is for others to read, as a new file would be.
    const mode_t mask = umask(0);
    umask(mask);
    written = written && chmod(temp.c_str(), 0666 & ~mask) == 0 && std::rename(temp.c_str(), path.c_str()) == 0;
    if (!written) {
        std::fprintf(stderr, "anon-maintain report: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        std::remove(temp.c_str());
    }
    return written;
}

}  // namespace

int report_command(int argc, char** argv) {
    const std::optional<ReportOptions> options = parse_report_options(argc, argv);
    if (!options) return exit_error;
    const char* keys[] = {"dbname", "application_name", nullptr};
    const char* values[] = {options->conninfo ? options->conninfo->c_str() : nullptr, "anon-maintain", nullptr};
    Conn conn(PQconnectdbParams(keys, values, 1));
    if (PQstatus(conn.get()) != CONNECTION_OK) {
        std::fprintf(stderr, "anon-maintain report: cannot connect: %s", PQerrorMessage(conn.get()));
        return exit_error;
    }
    std::string error;
    const std::optional<ReleaseReportData> data = read_release_report(conn.get(), options->release, &error);
    if (!data) {
        std::fprintf(stderr, "anon-maintain report: %s\n", error.c_str());
        return exit_error;
    }
    if (!write_whole(options->file, render_report_html(*data))) return exit_error;
    std::printf("anon-maintain report: wrote %s (release %s)\n", options->file.c_str(), data->release.c_str());
    return exit_ok;
}

}  // namespace anon_tools
