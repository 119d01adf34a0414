import FlowRecording
import Foundation
import MilagroRecording
import TestSupport
import Testing

/// `cassette audit` attacks the file: a cassette redacted as before (its seed kept) is "NOT
/// shareable", naming seed → draws → x and the events it used; the same recording under today's
/// default redaction is shareable, what the workbench's default seed still gives being only the
/// throwaway embedded backend's; a plain recording is not shareable.
@Suite struct CassetteAuditCommandTests {
    @Test func theAuditRunsTheDerivations() throws {
        let directory = try TemporaryDirectory.make("audit")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plain = directory + "/plain.json", redacted = directory + "/redacted.json",
            seedKept = directory + "/seed-kept.json"
        let recorded = try WorkbenchProcess.run(["record", "authenticate", "--out", plain], seconds: 120)
        #expect(recorded.status == 0, "\(recorded)")
        let redaction = try WorkbenchProcess.run(
            ["cassette", "redact", plain, "--redact", "default", "--out", redacted], seconds: 60)
        #expect(redaction.status == 0 && redaction.stdout.contains("{{seed}}"), "\(redaction)")
        let cassette = try CassetteFile.read(plain)
        try CassetteFile.write(
            Redactor(fields: Redactor.milagroFields.filter { $0 != Redactor.seedField }).redact(cassette), to: seedKept)

        let before = try WorkbenchProcess.run(["cassette", "audit", seedKept], seconds: 120)
        #expect(before.status == 1, "\(before)")
        #expect(before.stdout.contains("scenario.seed in clear"), "\(before.stdout)")
        #expect(before.stdout.contains("seed → draws → x: GIVES x, from the file's seed"), "\(before.stdout)")
        #expect(
            before.stdout.contains("−(x+y)⁻¹·V: GIVES") && before.stdout.contains("(from events "), "\(before.stdout)")
        #expect(before.stdout.contains("NOT shareable"), "\(before.stdout)")

        let now = try WorkbenchProcess.run(["cassette", "audit", redacted], seconds: 120)
        #expect(now.status == 0, "\(now)")
        #expect(
            now.stdout.contains("gives only the throwaway embedded backend's")
                && now.stdout.contains("the workbench's default seed"),
            "\(now.stdout)")
        #expect(now.stdout.contains("\(redacted): shareable"), "\(now.stdout)")

        let open = try WorkbenchProcess.run(["cassette", "audit", plain], seconds: 120)
        #expect(open.status == 1 && open.stdout.contains("pin in clear"), "\(open)")
    }
}
