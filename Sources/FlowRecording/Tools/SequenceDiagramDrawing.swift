/// The layout and SVG text of a sequence diagram (`SequenceDiagram.svg`), drawn without a script or
/// any other file: participants as boxes above and below their dashed lifelines, one row per step
/// note, arrow or note, top to bottom in the order of the cassette.
///
/// * A scenario step is a grey note across all participants.
/// * An HTTP exchange is a solid arrow from the caller to the server labelled `METHOD path`, then
///   a dashed arrow back labelled with the status (red from 400 on); a transport error is one arrow
///   that ends in a cross, labelled `METHOD path (transport error: kind)`.
/// * An API call is a yellow note over its caller (`name() → STATUS, state`), a crypto step a blue
///   one (`crypto primitive`).
///
/// Labels are shortened by `DiagramLabel.short` (long hex runs to `first8…last4`); every arrow and
/// note carries its full text as an SVG `<title>` (shown on hover) and, in the page, links to the
/// event's row of the table (`#event-N`). Text widths are estimated for a monospace font
/// (0.6 em a character), which the drawing asks for; everything from the cassette is escaped
/// (`XMLText.escaped`).
package struct SequenceDiagramDrawing {
    static let fontSize = 12.0
    static let characterWidth = 7.3
    static let margin = 16.0
    static let headerHeight = 30.0
    static let minimumHeaderWidth = 110.0
    static let arrowRowHeight = 28.0
    static let noteRowHeight = 28.0
    static let noteHeight = 20.0

    let participants: [SequenceDiagram.Participant]
    let rows: [SequenceDiagram.Row]

    package init(_ diagram: SequenceDiagram, _ cassette: Cassette) {
        rows = diagram.rows(cassette)
        let used = diagram.participants(rows)
        participants = used.isEmpty ? [.client] : used
    }

    static func width(_ text: String) -> Double { Double(text.count) * characterWidth }

    /// `12`, `12.5`: a coordinate to one decimal.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    static func text(_ text: String) -> String { XMLText.escaped(text, attribute: false) }

    /// The text of an arrow's label.
    static func label(_ row: SequenceDiagram.Row) -> String {
        row.kind == .transportError ? "\(row.message) (\(row.result))" : row.message
    }

    /// The text of a note's label.
    static func noteLabel(_ row: SequenceDiagram.Row) -> String {
        row.result.isEmpty ? row.message : "\(row.message) → \(row.result)"
    }

    /// The x of each participant's lifeline: wide enough apart for their boxes and for the label
    /// of every arrow between them.
    func columns() -> [Double] {
        let heads = participants.map { max(Self.minimumHeaderWidth, Self.width($0.name) + 24) }
        let position = Dictionary(
            participants.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var needs = [[(from: Int, width: Double)]](repeating: [], count: participants.count)
        for row in rows where row.kind == .exchange || row.kind == .transportError {
            guard let a = position[row.from.id], let b = position[row.to.id], a != b else { continue }
            let width = Self.width(DiagramLabel.short(Self.label(row))) + 40
            needs[max(a, b)].append((min(a, b), width))
        }
        var x = [Self.margin + heads[0] / 2]
        for b in participants.indices.dropFirst() {
            var value = x[b - 1] + (heads[b - 1] + heads[b]) / 2 + 24
            for need in needs[b] { value = max(value, x[need.from] + need.width) }
            x.append(value)
        }
        return x
    }

    /// The SVG element. `standalone` adds the namespace a file of its own needs and leaves out the
    /// links to the page's table.
    package func svg(title: String, standalone: Bool) -> String {
        let x = columns()
        let heads = participants.map { max(Self.minimumHeaderWidth, Self.width($0.name) + 24) }
        let position = Dictionary(
            participants.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let spanLeft = x[0] - heads[0] / 2, spanRight = x[x.count - 1] + heads[heads.count - 1] / 2
        var body: [String] = []
        var right = spanRight
        var y = Self.margin + Self.headerHeight + 14
        var step: ScenarioStep?

        func link(_ row: SequenceDiagram.Row, _ hover: String, _ content: String) -> String {
            let group = "<g><title>\(Self.text("#\(row.index) " + hover))</title>\(content)</g>"
            return standalone ? group : "<a href=\"#event-\(row.index)\">\(group)</a>"
        }
        func note(_ label: String, left: Double, width: Double, top: Double, kind: String) -> String {
            "<rect class=\"note \(kind)\" x=\"\(Self.number(left))\" y=\"\(Self.number(top))\" width=\"\(Self.number(width))\" "
                + "height=\"\(Self.number(Self.noteHeight))\" rx=\"3\"/>"
                + "<text x=\"\(Self.number(left + width / 2))\" y=\"\(Self.number(top + 14))\" text-anchor=\"middle\">\(Self.text(label))</text>"
        }
        func arrow(from a: Double, to b: Double, at lineY: Double, label: String, kind: String) -> String {
            let direction: Double = b > a ? 1 : -1
            var out =
                "<line class=\"\(kind)\" x1=\"\(Self.number(a))\" y1=\"\(Self.number(lineY))\" "
                + "x2=\"\(Self.number(b - direction * 2))\" y2=\"\(Self.number(lineY))\"/>"
            if kind == "error" {
                let cx = b - direction * 7
                out +=
                    "<path class=\"cross\" d=\"M\(Self.number(cx - 5)) \(Self.number(lineY - 5))l10 10m0 -10l-10 10\"/>"
            } else {
                out +=
                    "<path class=\"head\" d=\"M\(Self.number(b)) \(Self.number(lineY))l\(Self.number(-direction * 9)) -4.5v9z\"/>"
            }
            out +=
                "<text class=\"label\(kind == "bad" ? " bad" : "")\" x=\"\(Self.number((a + b) / 2))\" y=\"\(Self.number(lineY - 6))\" text-anchor=\"middle\">\(Self.text(label))</text>"
            return out
        }

        for row in rows {
            if row.step != step, let next = row.step {
                if step != nil { y += 4 }
                let label = DiagramLabel.short("\(next.index). \(next.name)")
                let width = max(spanRight - spanLeft, Self.width(label) + 16)
                right = max(right, spanLeft + width)
                body.append(
                    "<g><title>\(Self.text("\(next.index). \(next.name)"))</title>"
                        + note(label, left: spanLeft, width: width, top: y, kind: "step") + "</g>")
                y += Self.noteRowHeight + 4
            }
            step = row.step
            let from = x[position[row.from.id] ?? 0], to = x[position[row.to.id] ?? 0]
            switch row.kind {
            case .exchange:
                let status = Int(row.result) ?? 0
                body.append(
                    link(
                        row, row.fullMessage,
                        arrow(
                            from: from, to: to, at: y + 18, label: DiagramLabel.short(Self.label(row)), kind: "request")
                    ))
                y += Self.arrowRowHeight
                body.append(
                    link(
                        row, "\(row.result) for \(row.fullMessage)",
                        arrow(
                            from: to, to: from, at: y + 18, label: DiagramLabel.short(row.result),
                            kind: status >= 400 ? "bad" : "response")))
                y += Self.arrowRowHeight
            case .transportError:
                body.append(
                    link(
                        row, "\(row.fullMessage) (\(row.result))",
                        arrow(from: from, to: to, at: y + 18, label: DiagramLabel.short(Self.label(row)), kind: "error")
                    ))
                y += Self.arrowRowHeight
            case .call, .crypto:
                let label = DiagramLabel.short(Self.noteLabel(row))
                let width = Self.width(label) + 16
                let left = max(Self.margin, from - width / 2)
                right = max(right, left + width)
                let full = row.result.isEmpty ? row.fullMessage : "\(row.fullMessage) → \(row.result)"
                body.append(
                    link(
                        row, full,
                        note(label, left: left, width: width, top: y + 4, kind: row.kind == .call ? "call" : "crypto")))
                y += Self.noteRowHeight
            }
        }

        let bottom = y + 8
        var frame: [String] = []
        for (index, participant) in participants.enumerated() {
            let left = x[index] - heads[index] / 2
            frame.append(
                "<line class=\"life\" x1=\"\(Self.number(x[index]))\" y1=\"\(Self.number(Self.margin + Self.headerHeight))\" "
                    + "x2=\"\(Self.number(x[index]))\" y2=\"\(Self.number(bottom))\"/>")
            for top in [Self.margin, bottom] {
                frame.append(
                    "<rect class=\"actor\" x=\"\(Self.number(left))\" y=\"\(Self.number(top))\" width=\"\(Self.number(heads[index]))\" "
                        + "height=\"\(Self.number(Self.headerHeight))\" rx=\"4\"/>"
                        + "<text class=\"actor\" x=\"\(Self.number(x[index]))\" y=\"\(Self.number(top + 19))\" "
                        + "text-anchor=\"middle\">\(Self.text(participant.name))</text>")
            }
        }
        let width = right + Self.margin
        let height = bottom + Self.headerHeight + Self.margin
        let namespace = standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
        return """
            <svg\(namespace) class="sequence" width="\(Self.number(width))" height="\(Self.number(height))" \
            viewBox="0 0 \(Self.number(width)) \(Self.number(height))" role="img" \
            aria-label="\(XMLText.escaped(title, attribute: true))" \
            font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="\(Self.number(Self.fontSize))">
            <title>\(Self.text(title))</title>
            <style>
            .sequence { background: #fff; }
            .sequence text { fill: #111; }
            .sequence text.actor { font-weight: bold; }
            .sequence text.label { paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
            .sequence text.bad { fill: #b00020; font-weight: bold; }
            .sequence rect.actor { fill: #e8eefc; stroke: #5a6fa8; }
            .sequence line.life { stroke: #9aa3b5; stroke-dasharray: 4 4; }
            .sequence line.request, .sequence line.error { stroke: #222; stroke-width: 1.3; }
            .sequence line.response, .sequence line.bad { stroke: #444; stroke-width: 1.3; stroke-dasharray: 5 3; }
            .sequence path.head { fill: #222; }
            .sequence path.cross { stroke: #b00020; stroke-width: 2; fill: none; }
            .sequence rect.note { stroke-width: 1; }
            .sequence rect.step { fill: #eceff3; stroke: #9aa3b5; }
            .sequence rect.call { fill: #fff5c2; stroke: #c9a925; }
            .sequence rect.crypto { fill: #e6f2ec; stroke: #6fa58a; }
            .sequence a:hover text { text-decoration: underline; }
            </style>
            \((frame + body).joined(separator: "\n"))
            </svg>

            """
    }
}
