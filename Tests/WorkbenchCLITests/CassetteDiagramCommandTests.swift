import FlowRecording
import Foundation
import Scenarios
import TestSupport
import Testing

/// `cassette diagram` end to end: the Mermaid text on standard output, `--out` by extension with a
/// one-line report, the old `--html` spelling with its warning, and usage errors.
@Suite struct CassetteDiagramCommandTests {
    static let cassette = "Recordings/authenticate.json"

    static func mermaid() throws -> String {
        SequenceDiagram(map: .milagro).mermaid(try CassetteFile.read(RepoPaths.path(cassette)))
    }

    @Test("without --out the Mermaid text goes to standard output, as before")
    func mermaidOnStandardOutput() throws {
        let result = try WorkbenchProcess.run(["cassette", "diagram", Self.cassette])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Self.mermaid()))
        #expect(result.stdout.hasPrefix("sequenceDiagram\n    participant client as Client (SDK)\n"))
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("--out FILE.html writes a page that loads nothing; standard output is one line")
    func outHTML() throws {
        let directory = try TemporaryDirectory.make("diagram")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = directory + "/flow.html"
        let result = try WorkbenchProcess.run(["cassette", "diagram", Self.cassette, "--out", page])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "wrote \(page)\n")
        #expect(result.stderr.isEmpty, "\(result)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<svg class=\"sequence\""))
        #expect(!html.contains("<script") && !html.contains("cdn.") && !html.contains("https://"))
        #expect(html.contains(">GET /rps/signature/7b226d6f…227d</text>"))
    }

    @Test("--html still writes the page, warns once naming --out, and prints one line")
    func oldHTMLSpelling() throws {
        let directory = try TemporaryDirectory.make("diagram")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = directory + "/flow.html"
        let result = try WorkbenchProcess.run(["cassette", "diagram", Self.cassette, "--html", page])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "wrote \(page)\n")
        #expect(result.stderr == "warning: --html is the old spelling of --out; use --out \(page)\n")
        let old = try String(contentsOfFile: page, encoding: .utf8)
        let new = directory + "/new.html"
        _ = try WorkbenchProcess.run(["cassette", "diagram", Self.cassette, "--out", new])
        #expect(old == (try String(contentsOfFile: new, encoding: .utf8)).replacingOccurrences(of: new, with: page))
    }

    @Test("--out FILE.svg writes the drawing, FILE.mmd the Mermaid text")
    func outSVGAndMermaid() throws {
        let directory = try TemporaryDirectory.make("diagram")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, check) in [
            ("flow.svg", { (text: String) in text.hasPrefix("<svg xmlns=") && text.hasSuffix("</svg>\n") }),
            ("flow.mmd", { (text: String) in text == (try? Self.mermaid()) }),
        ] {
            let out = directory + "/" + name
            let result = try WorkbenchProcess.run(["cassette", "diagram", Self.cassette, "--out", out])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "wrote \(out)\n")
            #expect(check(try String(contentsOfFile: out, encoding: .utf8)), "\(name)")
        }
    }

    @Test("an --out extension that says no format, or --out with --html, is a usage error")
    func usageErrors() throws {
        let directory = try TemporaryDirectory.make("diagram")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unknown = try WorkbenchProcess.run(["cassette", "diagram", Self.cassette, "--out", directory + "/flow.txt"])
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("flow.txt") && unknown.stderr.contains(".html"), "\(unknown)")
        let both = try WorkbenchProcess.run([
            "cassette", "diagram", Self.cassette, "--out", directory + "/a.html",
            "--html", directory + "/b.html",
        ])
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr.contains("--out"), "\(both)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
