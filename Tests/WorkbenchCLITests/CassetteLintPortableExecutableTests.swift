import Foundation
import TestSupport
import Testing

/// `cassette lint --portable` through the executable (skipped when it was not built): the
/// committed recordings are clean; a body with an integer beyond 64 bits is reported with its line,
/// column and path, and exits 1, which plain `cassette lint` does not.
@Suite("mpin-workbench cassette lint --portable", .enabled(if: WorkbenchProcess.path != nil))
struct CassetteLintPortableExecutableTests {
    @Test func theRecordingsAreCleanAndABigIntegerIsReported() throws {
        let clean = try WorkbenchProcess.run([
            "cassette", "lint", "--portable", "Recordings/authenticate.json", "Recordings/otp.json",
        ])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdout == "Recordings/authenticate.json: ok\nRecordings/otp.json: ok\n", "\(clean)")

        let directory = try TemporaryDirectory.make("lint-portable")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big.json"
        let text = try String(contentsOfFile: RepoPaths.path("Recordings/authenticate.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"cSum\": 1,", with: "\"cSum\": 18446744073709551616,")
            .replacingOccurrences(of: "\\\"cSum\\\":1,", with: "\\\"cSum\\\":18446744073709551616,")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let viewLine = try #require(lines.firstIndex { $0.contains("\"cSum\": 18446744073709551616") }) + 1

        let plain = try WorkbenchProcess.run(["cassette", "lint", path])
        #expect(plain.status == 0, "\(plain)")
        let portable = try WorkbenchProcess.run(["cassette", "lint", "--portable", path])
        #expect(portable.status == 1, "\(portable)")
        let reported = portable.stdout.split(separator: "\n").map(String.init)
        #expect(reported.count == 2, "\(portable)")
        #expect(
            reported.first?.hasPrefix(
                "\(path): line \(viewLine), column 13: $.events[0].response.body.json.cSum: the integer "
                    + "18446744073709551616 is beyond 64 bits") == true, "\(portable)")
        #expect(
            reported.last?.contains("$.events[0].response.body.text, the body's JSON at its line 1, column ") == true
                && reported.last?.contains(", $.cSum: the integer 18446744073709551616") == true, "\(portable)")
    }
}
