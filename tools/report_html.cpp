#include "report_html.hpp"

#include <algorithm>
#include <cstdio>

namespace anon_tools {

namespace {

constexpr int chart_width = 820;
constexpr int label_width = 230;  // the labels' column, left of the bars
constexpr int bar_room = 470;     // the longest bar
constexpr int row_height = 22;
constexpr std::size_t longest_label = 32;  // code points of a label drawn in a chart (the full label is its title)

// The page's style: plain, printable, readable without colour.
constexpr const char* style = R"(
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #1a1a1a; background: #fff; }
h1 { font-size: 1.5em; border-bottom: 2px solid #2b5d8a; padding-bottom: .3em; }
h2 { font-size: 1.2em; color: #2b5d8a; margin-top: 1.8em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #c8c8c8; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #eef3f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1d6b2f; font-weight: bold; }
.bad { color: #a4161a; font-weight: bold; }
.note { background: #fff6da; border-left: 4px solid #d9a400; padding: .4em .8em; }
.muted { color: #666; }
svg text { font-family: sans-serif; font-size: 12px; fill: #1a1a1a; }
svg rect.bar { fill: #2b5d8a; }
svg rect.risk { fill: #b5452b; }
svg rect.loss { fill: #6a8f2b; }
svg path.axis { stroke: #888; stroke-width: 1; fill: none; }
)";

// At most `limit` code points of UTF-8 `text`, with an ellipsis when cut.
std::string shortened(const std::string& text, std::size_t limit) {
    std::size_t points = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
        if (++points > limit) return text.substr(0, i) + "\u2026";
    }
    return text;
}

// A number with `digits` decimals.
std::string fixed(double value, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

// A horizontal bar chart: one row per bar, labels left, bars scaled to the longest, values right; `css` is the bars'
// class. Each bar's title holds its whole label and value (a tooltip, and the text a screen reader reads).
std::string bar_chart(const std::vector<Bar>& bars, const std::string& css, const std::string& caption,
                      std::optional<double> scale_max = std::nullopt) {
    double max = scale_max.value_or(0);
    for (const Bar& b : bars) max = std::max(max, b.value);
    const int height = static_cast<int>(bars.size()) * row_height + 10;
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(chart_width) +
                      "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(chart_width) +
                      " " + std::to_string(height) + "\" role=\"img\" aria-label=\"" + html_escaped(caption) + "\">\n";
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const Bar& b = bars[i];
        const int y = static_cast<int>(i) * row_height + 4;
        const double length = max > 0 ? b.value / max * bar_room : 0;
        // A bar of a non-zero value is drawn at least one pixel long, so that it shows.
        const double drawn = b.value > 0 ? std::max(length, 1.0) : 0;
        svg += "<text x=\"" + std::to_string(label_width - 6) + "\" y=\"" + std::to_string(y + 14) +
               "\" text-anchor=\"end\">" + html_escaped(shortened(b.label, longest_label)) + "</text>";
        svg += "<rect class=\"" + css + "\" x=\"" + std::to_string(label_width) + "\" y=\"" + std::to_string(y) +
               "\" width=\"" + fixed(drawn, 1) + "\" height=\"" + std::to_string(row_height - 6) + "\"><title>" +
               html_escaped(b.label + ": " + b.value_text) + "</title></rect>";
        svg += "<text x=\"" + fixed(label_width + drawn + 6, 1) + "\" y=\"" + std::to_string(y + 14) + "\">" +
               html_escaped(b.value_text) + "</text>\n";
    }
    svg += "<path class=\"axis\" d=\"M" + std::to_string(label_width) + " 0 V" + std::to_string(height) + "\"/>\n";
    return svg + "</svg>\n";
}

// A two-column table of label and value.
std::string facts_table(const std::vector<std::pair<std::string, std::string>>& rows, const std::string& head) {
    std::string html = "<table>" + head + "\n";
    for (const auto& [label, value] : rows)
        html += "<tr><th>" + html_escaped(label) + "</th><td>" + html_escaped(value) + "</td></tr>\n";
    return html + "</table>\n";
}

// The notice shown in place of a part the reader could not read.
std::string unreadable_note(const Readable& part) {
    return "<p class=\"note\">Not shown: " + html_escaped(part.unreadable) + "</p>\n";
}

// What was published and how, and whether it still satisfies its model.
std::string publication_section(const ReleaseReportData& d) {
    std::string html = "<section id=\"publication\"><h2>What was published, and how</h2>\n";
    html += d.catalog.shown ? facts_table(d.facts, "") : unreadable_note(d.catalog);
    if (!d.objects.empty())
        html += "<h3>Release objects</h3>\n" +
                facts_table(d.objects, "<tr><th>object</th><th>state for this reader</th></tr>");
    html += "<h3>Verification</h3>\n";
    if (d.verification.shown)
        html += std::string("<p><span class=\"") +
                (d.satisfied ? "ok\">satisfies its model" : "bad\">violates its model") +
                "</span> (checked when this page was made, " + html_escaped(d.generated_at) +
                "): " + html_escaped(d.verification_detail) + "</p>\n";
    else
        html += unreadable_note(d.verification);
    return html + "</section>\n";
}

// The histogram of class sizes.
std::string class_size_section(const ReleaseReportData& d) {
    std::string html = "<section id=\"class-sizes\"><h2>Class sizes</h2>\n";
    if (!d.class_sizes.shown) return html + unreadable_note(d.class_sizes) + "</section>\n";
    html += "<p>" + html_escaped(d.class_size_summary) +
            " Each bar counts the published classes (rows sharing one gid) of that size.</p>\n";
    return html + bar_chart(d.class_size_bars, "bar", "classes per class size") + "</section>\n";
}

// Generalization and loss, one row and one bar per quasi-identifier.
std::string qi_section(const ReleaseReportData& d) {
    std::string html = "<section id=\"generalization\"><h2>Generalization and loss per quasi-identifier</h2>\n";
    if (!d.qi.shown) html += unreadable_note(d.qi);
    if (d.qis.empty()) return html + "</section>\n";
    html +=
        "<table><tr><th>quasi-identifier</th><th>level</th><th>loss (NCP)</th><th>distinct published "
        "values</th><th>most frequent published values</th></tr>\n";
    std::vector<Bar> bars;
    for (const QiSummary& q : d.qis) {
        std::string labels;
        for (const std::string& l : q.top_labels) labels += (labels.empty() ? "" : "; ") + html_escaped(l);
        // No level: a release of local recoding, whose rows of one column may be generalized differently.
        const std::string level = q.level.empty() ? "\u2014" : html_escaped(q.level);
        html += "<tr><th>" + html_escaped(q.name) + "</th><td class=\"num\">" + level + "</td><td class=\"num\">" +
                (q.loss ? fixed(*q.loss, 3) : std::string("?")) + "</td><td class=\"num\">" +
                html_escaped(q.distinct_values) + "</td><td>" + labels + "</td></tr>\n";
        if (q.loss) bars.push_back({q.name, *q.loss, fixed(*q.loss, 3)});
    }
    html += "</table>\n";
    if (!bars.empty())
        html +=
            "<p>Loss per quasi-identifier: its normalized certainty penalty over the published rows, from 0 "
            "(every value published as it is) to 1 (every value fully generalized).</p>\n" +
            bar_chart(bars, "loss", "loss per quasi-identifier", 1.0);
    return html + "</section>\n";
}

// The distribution of prosecutor risk over the records, and the risk figures.
std::string risk_section(const ReleaseReportData& d) {
    std::string html = "<section id=\"risk\"><h2>Re-identification risk</h2>\n";
    if (!d.risk.shown) return html + unreadable_note(d.risk) + "</section>\n";
    html +=
        "<p>A record's prosecutor risk is 1 / the number of published records sharing its quasi-identifier "
        "values. Each bar is the share of the records in that range of risk.</p>\n";
    html += bar_chart(d.risk_bars, "risk", "share of records per prosecutor risk", 1.0);
    return html + facts_table(d.risk_figures, "") + "</section>\n";
}

// The warnings of the release's report.
std::string warnings_section(const ReleaseReportData& d) {
    std::string html = "<section id=\"warnings\"><h2>Warnings</h2>\n";
    if (!d.warnings.shown) return html + unreadable_note(d.warnings) + "</section>\n";
    if (d.warning_texts.empty()) return html + "<p class=\"muted\">The report has no warnings.</p></section>\n";
    html += "<ul>\n";
    for (const std::string& w : d.warning_texts) html += "<li>" + html_escaped(w) + "</li>\n";
    return html + "</ul></section>\n";
}

}  // namespace

std::string html_escaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string render_report_html(const ReleaseReportData& d) {
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
    // No resource from anywhere: the page is read offline, and a policy forbids what a value could smuggle in.
    html +=
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "img-src data:\">\n";
    html += "<title>Release report: " + html_escaped(d.release) + "</title>\n<style>" + style + "</style></head>\n";
    html += "<body>\n<h1>Release report: " + html_escaped(d.release) + "</h1>\n";
    html += "<p class=\"muted\">Read by role " + html_escaped(d.reader) + " at " + html_escaped(d.generated_at) +
            " with anon-maintain.</p>\n";
    html += publication_section(d) + class_size_section(d) + qi_section(d) + risk_section(d) + warnings_section(d);
    return html + "</body></html>\n";
}

}  // namespace anon_tools
