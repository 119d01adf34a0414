import Foundation

/// The bundled scenarios: every `.yaml`, `.yml` and `.json` script under a folder (by default
/// `Scenarios/` of the working directory, or `$MPIN_WORKBENCH_SCENARIOS`), found by name or alias.
/// Replay uses it for cassettes that carry no script (imported ones name their test).
public struct ScenarioLibrary: Sendable {
    public let directory: String

    public init(directory: String? = nil) {
        self.directory = directory ?? ProcessInfo.processInfo.environment["MPIN_WORKBENCH_SCENARIOS"] ?? "Scenarios"
    }

    /// Every script file, sorted by path.
    public func files() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var out: [String] = []
        while let entry = enumerator.nextObject() as? String {
            if ["yaml", "yml", "json"].contains((entry as NSString).pathExtension.lowercased()) {
                out.append((directory as NSString).appendingPathComponent(entry))
            }
        }
        return out.sorted()
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
