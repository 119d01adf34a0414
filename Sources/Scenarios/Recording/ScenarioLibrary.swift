import FlowRecording
import Foundation
import OrderedJSON

/// The bundled scenarios: every `.yaml`, `.yml` and `.json` script under a folder (by default
/// `Scenarios/` of the working directory, or `$MPIN_WORKBENCH_SCENARIOS`), found by name or alias.
/// Replay uses it for cassettes that carry no script (imported ones name their test).
///
/// Scripts under a `suites/` folder are not scenarios of their own: each describes the test suite
/// of a harness that recorded one sequential run of all its tests (LegacyImport's
/// `suite(named:)`), and the import of such a run composes one script per test from it.
public struct ScenarioLibrary: Sendable {
    public let directory: String

    /// The folder name of suite descriptions.
    public static let suitesFolder = "suites"

    public init(directory: String? = nil) {
        self.directory = directory ?? ProcessInfo.processInfo.environment["MPIN_WORKBENCH_SCENARIOS"] ?? "Scenarios"
    }

    /// Every scenario file, sorted by path (suite descriptions left out).
    public func files() -> [String] {
        scripts().filter { !Self.isSuiteFile($0) }
    }

    /// Every suite description, sorted by path.
    public func suiteFiles() -> [String] {
        scripts().filter(Self.isSuiteFile)
    }

    /// Every script file under the folder, sorted by path.
    package func scripts() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var out: [String] = []
        while let entry = enumerator.nextObject() as? String {
            if ["yaml", "yml", "json"].contains((entry as NSString).pathExtension.lowercased()) {
                out.append((directory as NSString).appendingPathComponent(entry))
            }
        }
        return out.sorted()
    }

    package static func isSuiteFile(_ path: String) -> Bool {
        (path as NSString).deletingLastPathComponent.split(separator: "/").last == Substring(suitesFolder)
    }

    /// The script named (or aliased) `name`.
    public func find(_ name: String) throws(ScriptError) -> ScenarioScript? {
        for file in files() {
            let script = try ScriptParser.parse(file: file)
            if script.name == name || script.aliases.contains(name) { return script }
        }
        return nil
    }
}
