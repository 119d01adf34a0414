import FlowRecording

/// The report as one self-contained HTML page (`--html`): inline style, no script, nothing
/// fetched. An index of the cases by group with their verdicts, then for each case its
/// requirement, source, what it sends and expects, the verdict and why, its cassette, and its
/// exchanges (requests and answers, bodies cut at 4 KiB). Every text from the backend or the
/// cases is escaped (`XMLText`), so an answer holding markup shows as text.
extension ConformanceReport {
    public var html: String {
        func text(_ value: String) -> String { XMLText.escaped(value, attribute: false) }
        func attribute(_ value: String) -> String { XMLText.escaped(value, attribute: true) }
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>M-Pin conformance: \(text(client ?? backendURL))</title>
            <style>
            body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
            table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}
            th,td{border-bottom:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
            .v{font-weight:600;white-space:nowrap}
            .pass{color:#176f2c}.non-strict{color:#8a6100}.fail{color:#b00020}.informational{color:#1f4e99}
            .unimplemented{color:#666}.skipped{color:#666}
            section{border-top:2px solid #eee;padding-top:.5em;margin-top:1.5em}
            pre{background:#f6f6f6;padding:.5em;overflow-x:auto;white-space:pre-wrap;word-break:break-all;max-height:30em}
            dt{font-weight:600}dd{margin:0 0 .4em 1.5em}
            </style></head><body>
            <h1>M-Pin \(client == nil ? "backend" : "client") conformance</h1>

            """
        let subject =
            client.map { "Client <code>\(text($0))</code> against \(text(backendURL))" }
            ?? "Backend <code>\(text(backendURL))</code>"
        page +=
            "<p>\(subject): \(results.count) cases, \(requests) requests in "
            + "\(Self.rounded(seconds)) s" + (rate.map { ", at most \($0) requests/s" } ?? "")
            + (pattern.map { ", cases <code>\(text($0))</code>" } ?? "")
            + ". Users created start with <code>\(text(userPrefix))-</code>.</p>\n"
        page +=
            "<table><tr><th>level</th>"
            + Verdict.Kind.allCases.map { "<th class=\"\($0.rawValue)\">\($0.rawValue)</th>" }.joined()
            + "</tr>\n"
        for level in RequirementLevel.allCases {
            page +=
                "<tr><td>\(level.rawValue)</td>"
                + Verdict.Kind.allCases.map { "<td>\(count($0, level: level))</td>" }.joined() + "</tr>\n"
        }
        page += "</table>\n"
        for group in ConformanceGroup.allCases {
            let members = results.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            page +=
                "<h2>\(text(group.title))</h2>\n<table><tr><th>case</th><th>level</th><th>verdict</th><th>title</th></tr>\n"
            for result in members {
                page +=
                    "<tr><td><a href=\"#\(attribute(Self.anchor(result.id)))\">\(text(result.id))</a></td><td>\(result.level.rawValue)</td>"
                    + "<td class=\"v \(result.verdict.kind.rawValue)\">\(result.verdict.kind.rawValue)</td><td>\(text(result.title))</td></tr>\n"
            }
            page += "</table>\n"
        }
        for result in results {
            page +=
                "<section id=\"\(attribute(Self.anchor(result.id)))\">\n<h3>\(text(result.id)): \(text(result.title))</h3>\n"
            page +=
                "<p class=\"v \(result.verdict.kind.rawValue)\">\(result.verdict.kind.rawValue) (\(result.level.rawValue))</p>\n<dl>\n"
            page += "<dt>Why</dt><dd>\(text(result.verdict.reason))</dd>\n"
            page += "<dt>Requirement</dt><dd>\(result.level.rawValue), \(text(result.source))</dd>\n"
            page += "<dt>Sends</dt><dd>\(text(result.sends))</dd>\n<dt>Expects</dt><dd>\(text(result.expects))</dd>\n"
            page +=
                "<dt>Run</dt><dd>\(result.requests) requests, \(Self.rounded(result.seconds)) s"
                + (result.cassettePath.map { "; cassette <code>\(text($0))</code>" } ?? "") + "</dd>\n</dl>\n"
            if !result.exchanges.isEmpty {
                page += "<details><summary>\(result.exchanges.count) exchanges</summary>\n"
                for (index, exchange) in result.exchanges.enumerated() {
                    var block = "\(index + 1). [\(exchange.actor)] \(exchange.method) \(exchange.url)\n"
                    if !exchange.requestBody.isEmpty { block += exchange.requestBody + "\n" }
                    block += "→ " + (exchange.status.map(String.init) ?? "no answer: \(exchange.error ?? "")") + "\n"
                    if !exchange.responseBody.isEmpty { block += exchange.responseBody + "\n" }
                    page += "<pre>\(text(block))</pre>\n"
                }
                page += "</details>\n"
            }
            page += "</section>\n"
        }
        page += "</body></html>\n"
        return page
    }

    /// An HTML id for a case id (its letters, digits, dots and dashes).
    static func anchor(_ id: String) -> String {
        "case-"
            + String(
                id.unicodeScalars.map { scalar -> Character in
                    switch scalar {
                    case "a"..."z", "A"..."Z", "0"..."9", ".", "-": Character(scalar)
                    default: "_"
                    }
                })
    }
}
