import Foundation
import TestSupport
import Testing

/// `make imports` (Scripts/check_imports.py), the check that every import is a declared
/// dependency, on a package of two targets written here: it passes only when the import is
/// declared, and it refuses an import of a dependency's dependency, which SwiftPM's own check lets
/// through.
@Suite struct ImportCheckTests {
    /// Targets A → B → C; A's file imports `imported` (with `@testable`, as tests do).
    func check(declaring dependencies: [String], imported: String) throws -> WorkbenchProcess.Run {
        let root = try TemporaryDirectory.make("import-check")
        for target in ["A", "B", "C"] {
            try FileManager.default.createDirectory(
                atPath: root + "/Sources/" + target, withIntermediateDirectories: true)
        }
        try "import Foundation\n@testable import \(imported)\n".write(
            toFile: root + "/Sources/A/A.swift", atomically: true, encoding: .utf8)
        func target(_ name: String, _ dependencies: [String]) -> String {
            #"{"name": "\#(name)", "type": "regular", "dependencies": ["#
                + dependencies.map { #"{"byName": ["\#($0)", null]}"# }.joined(separator: ", ") + "]}"
        }
        let manifest =
            #"{"targets": ["#
            + [target("A", dependencies), target("B", ["C"]), target("C", [])].joined(separator: ", ") + "]}"
        try manifest.write(toFile: root + "/manifest.json", atomically: true, encoding: .utf8)
        let script = RepoPaths.path("Scripts/check_imports.py")
        return try WorkbenchProcess.run(
            shell: "exec python3 '\(script)' --root '\(root)' '\(root)/manifest.json'", seconds: 60)
    }

    @Test func aDeclaredImportPasses() throws {
        let result = try check(declaring: ["B"], imported: "B")
        #expect(result.status == 0 && result.stdout.contains("every import of the 3 targets is declared"), "\(result)")
    }

    @Test func anImportOfADependencysDependencyFailsNamingItsPlace() throws {
        let result = try check(declaring: ["B"], imported: "C")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains(
                "Sources/A/A.swift:2: target A imports C (a target of ours), which it does not declare as a dependency"),
            "\(result)")
    }

    /// A target whose folder is not where the check looks fails, rather than passing unread; a
    /// manifest with no targets is exit 2.
    @Test func aMissingFolderOrNoTargetsIsNotAPass() throws {
        let root = try TemporaryDirectory.make("import-check")
        try #"{"targets": [{"name": "Gone", "type": "regular", "dependencies": []}]}"#.write(
            toFile: root + "/gone.json", atomically: true, encoding: .utf8)
        try #"{"targets": []}"#.write(toFile: root + "/none.json", atomically: true, encoding: .utf8)
        let script = RepoPaths.path("Scripts/check_imports.py")
        let gone = try WorkbenchProcess.run(
            shell: "exec python3 '\(script)' --root '\(root)' '\(root)/gone.json'", seconds: 60)
        #expect(
            gone.status == 1 && gone.stdout.contains("Sources/Gone: target Gone's folder does not exist"), "\(gone)")
        let none = try WorkbenchProcess.run(
            shell: "exec python3 '\(script)' --root '\(root)' '\(root)/none.json'", seconds: 60)
        #expect(none.status == 2 && none.stderr.contains("the manifest lists no targets"), "\(none)")
    }

    @Test func anUnreadableManifestIsExit2() throws {
        let result = try WorkbenchProcess.run(
            shell: "exec python3 '\(RepoPaths.path("Scripts/check_imports.py"))' /nonexistent/manifest.json",
            seconds: 60)
        #expect(
            result.status == 2 && result.stderr.contains("/nonexistent/manifest.json: cannot read the manifest"),
            "\(result)")
    }
}
