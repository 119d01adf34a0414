import Foundation
import TestSupport
import Testing

/// The rule the README states for a path dependency: a checkout in a folder of another name is
/// found as `mpin-workbench` only with `name: "mpin-workbench"`, and without it SwiftPM refuses the
/// products with `unknown package 'mpin-workbench'`. Checked on a package of its own that depends
/// on this checkout through a link named `wb`. SwiftPM validates the manifest (`swift package
/// dump-package`), which is where the refusal comes from: nothing is cloned, resolved or built.
/// That the whole graph loads and builds with the name is `make examples`: its package reaches
/// this checkout by path (`../..`, a folder of whatever name the clone has) with the name.
@Suite(.serialized) struct PathDependencyTests {
    /// A manifest of one target that uses MPinSDK from `dependency` (its tools version and import
    /// on one source line, so that no line of this file starts with an import of the manifest's).
    static func manifest(_ dependency: String) -> String {
        "// swift-tools-version:6.1\nimport PackageDescription\n"
            + """
            let package = Package(
                name: "App", platforms: [.macOS(.v15)],
                dependencies: [\(dependency)],
                targets: [.target(name: "App", dependencies: [.product(name: "MPinSDK", package: "mpin-workbench")])]
            )

            """
    }

    /// The name SwiftPM gives the one path dependency in `swift package dump-package`'s JSON
    /// (`dependencies[0].fileSystem[0].nameForTargetDependencyResolutionOnly`), nil when absent.
    static func dependencyName(inDump text: String) -> String? {
        guard let dump = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let dependencies = dump["dependencies"] as? [[String: Any]],
            let paths = dependencies.first?["fileSystem"] as? [[String: Any]]
        else { return nil }
        return paths.first?["nameForTargetDependencyResolutionOnly"] as? String
    }

    @Test func aCheckoutUnderAnotherNameNeedsTheName() async throws {
        let directory = try TemporaryDirectory.make("path-dependency")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/wb", withDestinationPath: RepoPaths.root)
        try FileManager.default.createDirectory(
            atPath: directory + "/app/Sources/App", withIntermediateDirectories: true)
        try Data("import MPinSDK\n".utf8).write(to: URL(fileURLWithPath: directory + "/app/Sources/App/App.swift"))
        let manifest = URL(fileURLWithPath: directory + "/app/Package.swift")
        let load = "cd \(directory)/app && exec swift package --scratch-path \(directory)/scratch dump-package"

        try Data(Self.manifest(#".package(name: "mpin-workbench", path: "../wb")"#).utf8).write(to: manifest)
        let named = try await WorkbenchProcess.runWaitingElsewhere(shell: load, seconds: 600)
        #expect(named.status == 0, "\(named)")
        #expect(Self.dependencyName(inDump: named.stdout) == "mpin-workbench", "\(named)")

        try Data(Self.manifest(#".package(path: "../wb")"#).utf8).write(to: manifest)
        let unnamed = try await WorkbenchProcess.runWaitingElsewhere(shell: load, seconds: 600)
        #expect(unnamed.status != 0, "\(unnamed)")
        #expect(unnamed.stderr.contains("unknown package 'mpin-workbench'"), "\(unnamed)")
    }
}
