import CommonFormats

extension SequenceDiagram {
    /// The diagram as a standalone SVG file (`SequenceDiagramDrawing`).
    public func svg(_ cassette: Cassette, title: String) -> String {
        SequenceDiagramDrawing(self, cassette).svg(title: title, standalone: true)
    }

    /// A self-contained HTML page that loads nothing: the diagram as inline SVG (labels shortened,
    /// full text on hover, each arrow and note a link to its row), then a table of every call,
    /// exchange and crypto step with the full values (the whole URL, headers, bodies as text or hex,
    /// arguments and outputs), then the Mermaid text for pasting into Markdown. No script, no
    /// stylesheet, font or image from elsewhere; everything from the cassette is escaped
    /// (`XMLText.escaped`).
    public func html(_ cassette: Cassette, title: String) -> String {
        let rows = rows(cassette)
        var table = ""
        for row in rows {
            let details = Self.details(cassette.events[row.index])
            table +=
                "<tr id=\"event-\(row.index)\"><td>\(row.index)</td>"
                + "<td>\(Self.html(row.step.map { "\($0.index). \($0.name)" } ?? ""))</td>"
                + "<td>\(Self.html(row.from.name))</td><td>\(Self.html(row.to.name))</td>"
                + "<td class=\"full\">\(Self.html(row.fullMessage))</td><td>\(Self.html(row.result))</td>"
                + "<td>\(details.isEmpty ? "" : "<details><summary>more</summary><pre>\(Self.html(details))</pre></details>")</td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(Self.html(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 2em; }
            .diagram { overflow-x: auto; border: 1px solid #ddd; padding: 0.5em; }
            table { border-collapse: collapse; }
            th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: left; vertical-align: top; font-size: 0.9em; }
            th { background: #eee; }
            td.full, pre { font-family: monospace; overflow-wrap: anywhere; white-space: pre-wrap; }
            tr:target { background: #fff5c2; }
            body > details { margin-top: 1em; }
            </style>
            </head>
            <body>
            <h1>\(Self.html(title))</h1>
            <p>Scenario \(Self.html(cassette.scenario.name)), backend \(Self.html(cassette.backend.url)) \
            (\(Self.html(cassette.backend.flavour))), \(cassette.events.count) events.</p>
            <h2>Sequence diagram</h2>
            <p><small>Hex values longer than \(DiagramLabel.hexRunLimit) digits are shortened to their first 8 and \
            last 4 digits; hover over an arrow or a note for its full text, click it for its row in the table.</small></p>
            <div class="diagram">
            \(SequenceDiagramDrawing(self, cassette).svg(title: title, standalone: false))</div>
            <h2>Flow</h2>
            <table>
            <tr><th>#</th><th>step</th><th>from</th><th>to</th><th>message</th><th>result</th><th>details</th></tr>
            \(table)</table>
            <details>
            <summary>The Mermaid text (for Markdown)</summary>
            <pre>\(Self.html(mermaid(cassette)))</pre>
            </details>
            </body>
            </html>

            """
    }

    /// The full values of an event that the table's message column leaves out.
    static func details(_ event: CassetteEvent) -> String {
        var lines: [String] = []
        switch event.payload {
        case .http(let exchange):
            lines += exchange.request.headers.fields.map { "> \($0.name): \($0.value)" }
            if !exchange.request.body.isEmpty { lines.append("> " + body(exchange.request.body)) }
            if let response = exchange.response {
                lines.append("< status \(response.status)")
                lines += response.headers.fields.map { "< \($0.name): \($0.value)" }
                if !response.body.isEmpty { lines.append("< " + body(response.body)) }
            }
            if let error = exchange.error {
                lines.append(
                    "transport error \(error.kind): \(error.message)" + (error.code.map { " (code \($0))" } ?? ""))
            }
            if let context = exchange.context { lines.append("context: \(context)") }
        case .call(let call):
            if !call.status.message.isEmpty { lines.append("message: \(call.status.message)") }
            lines += call.outputs.map { "returns \($0.name): \($0.value)" }
        case .crypto, .random, .clock:
            break
        }
        return lines.joined(separator: "\n")
    }

    /// A body as its UTF-8 text, or as hex when it is not UTF-8.
    static func body(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return "body (\(bytes.count) bytes):\n\(text)" }
        return "body (\(bytes.count) bytes, not UTF-8, as hex):\n\(Hex.encode(bytes))"
    }

    static func html(_ text: String) -> String { XMLText.escaped(text, attribute: false) }
}
