import FileAccess
import FlowRecording
import Foundation
import OrderedJSON

/// The bundled scenarios: every `.yaml`, `.yml` and `.json` script under a folder, found by name or
/// alias. The folder is the one given, else `$MPIN_WORKBENCH_SCENARIOS`, else the first of
/// `Scenarios/` in the working directory and, beside the running program, `Scenarios/` or
/// `share/mpin-workbench/Scenarios/` in its folder or one of the three above it (a checkout's
/// `.build/release/mpin-workbench` finds the checkout's, an installed `bin/mpin-workbench` its
/// `share/`), so that a bundled name works from any folder; `searched` says where it looked.
/// Replay uses it for cassettes that carry no script (imported ones name their test).
///
/// Scripts under a `suites/` folder are not scenarios of their own: each describes the test suite
/// of a harness that recorded one sequential run of all its tests (LegacyImport's
/// `suite(named:)`), and the import of such a run composes one script per test from it.
public struct ScenarioLibrary: Sendable {
    public let directory: String
    /// Where the folder was looked for, in order (the folder given or the variable's alone when set).
    public let searched: [String]

    /// The folder name of suite descriptions.
    public static let suitesFolder = "suites"

    public init(directory: String? = nil) {
        if let directory {
            self.directory = directory
            searched = [directory]
        } else if let variable = ProcessInfo.processInfo.environment["MPIN_WORKBENCH_SCENARIOS"] {
            self.directory = variable
            searched = ["$MPIN_WORKBENCH_SCENARIOS (\(variable))"]
        } else {
            let candidates = ["Scenarios"] + Self.besideTheProgram()
            self.directory = candidates.first(where: Directories.isFolder) ?? "Scenarios"
            searched = candidates
        }
    }

    /// `Scenarios/` and `share/mpin-workbench/Scenarios/` in the running program's folder and the
    /// three above it (the program's real path: `/proc/self/exe`, through any symbolic link).
    static func besideTheProgram() -> [String] {
        guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return []
        }
        var folder = (program as NSString).deletingLastPathComponent
        var out: [String] = []
        for _ in 0..<4 where folder.count > 1 {
            out.append((folder as NSString).appendingPathComponent("Scenarios"))
            out.append((folder as NSString).appendingPathComponent("share/mpin-workbench/Scenarios"))
            folder = (folder as NSString).deletingLastPathComponent
        }
        return out
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
        // Through a link: a folder given as a symbolic link (a checkout's Scenarios linked into
        // another folder) is walked, which the enumerator does not do by itself.
        let walked = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(atPath: walked) else { return [] }
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
