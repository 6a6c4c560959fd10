// The release report page of `anon-maintain report`: what a release published and how, its class sizes,
// generalization and loss per quasi-identifier, re-identification risk and warnings, as one self-contained HTML
// page (inline CSS and SVG, no script, no external resource). Every value from the database is HTML-escaped here.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace anon_tools {

// One bar of a chart: its label, its length, and the text written beside it.
struct Bar {
    std::string label;
    double value = 0;
    std::string value_text;
};

// A part of the page that could be read (`shown`), or why not (`unreadable`: the server's reason, shown instead).
struct Readable {
    bool shown = false;
    std::string unreadable;
};

// One quasi-identifier: its published generalization and its loss.
struct QiSummary {
    std::string name;
    std::string level;                    // the full-domain level, empty for other releases
    std::optional<double> loss;           // the report's loss_per_qi (normalized certainty penalty, in [0, 1])
    std::string distinct_values;          // distinct published values, empty when the release object is unreadable
    std::vector<std::string> top_labels;  // the most frequent published values ("label (rows)")
};

// Everything the page shows, read by read_release_report (report_reader.hpp).
struct ReleaseReportData {
    std::string release;                                       // schema-qualified, quoted as SQL quotes it
    std::string reader;                                        // the role that read it
    std::string generated_at;                                  // when the page was made (the server's clock)
    Readable catalog;                                          // the release's catalog row
    std::vector<std::pair<std::string, std::string>> facts;    // what was published and how: label, value
    std::vector<std::pair<std::string, std::string>> objects;  // release object, what became of it
    Readable verification;
    bool satisfied = false;
    std::string verification_detail;
    Readable class_sizes;
    std::vector<Bar> class_size_bars;  // classes per class size (or size range)
    std::string class_size_summary;
    Readable qi;
    std::vector<QiSummary> qis;
    Readable risk;
    std::vector<Bar> risk_bars;  // share of records per prosecutor-risk range
    std::vector<std::pair<std::string, std::string>> risk_figures;
    Readable warnings;
    std::vector<std::string> warning_texts;
};

// `text` with &, <, >, " and ' written as character references: safe as element text and as a quoted attribute.
std::string html_escaped(const std::string& text);

// The page of `data`.
std::string render_report_html(const ReleaseReportData& data);

}  // namespace anon_tools
