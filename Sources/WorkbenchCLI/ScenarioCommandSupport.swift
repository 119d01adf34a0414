import ArgumentParser
import CommonFormats
import CurlTransport
import EmbeddedBackend
import FileAccess
import FlowRecording
import Foundation
import MPinSDK
import MilagroRecording
import ReferenceBackend
import Scenarios

/// What `run`, `record`, `replay` and `proxy` share: the seed rule, the embedded backend, and
/// reading scripts by file or by bundled name.
enum ScenarioCommandSupport {
    /// The address under which the embedded backend is recorded, whatever port it got.
    static let stableOrigin = WorkbenchVersion.embeddedBackendOrigin

    static var tool: Cassette.Tool { WorkbenchVersion.tool }

    /// The seed when neither `--seed` nor the script gives one.
    static let defaultSeed = "workbench"

    /// The one rule of `--seed` in `record`, `run` and `proxy`, as their help states it.
    static let seedHelp =
        "Seed of the SDK's randomness and of the embedded backend (default: the script's seed, else \"\(defaultSeed)\"). "
        + "Against --backend the SDK draws from the system's generator unless --seed is given (which warns: the seed gives the secrets away)."

    /// `--seed` if given, else the script's `seed`, else `defaultSeed`: the seed of a run on the
    /// embedded backend, which the cassette keeps so that recording again writes the same bytes.
    static func seed(_ given: String?, script: ScenarioScript) -> String {
        given ?? script.seed ?? defaultSeed
    }

    /// The SDK's randomness for a run: on the embedded backend (`live` nil) the seed's
    /// (`seed(_:script:)`); against a live backend the system's cryptographic generator, unless
    /// `--seed` is given, and then with `liveSeedWarning`. The script's own seed never drives a live
    /// run: a scenario file is public, and so would be every draw.
    static func randomness(_ given: String?, script: ScenarioScript, live: String?)
        -> (random: any RandomSource, seed: String?, warning: String?)
    {
        guard live != nil else {
            let seed = seed(given, script: script)
            return (SeededRandomSource(seed: seed), seed, nil)
        }
        guard let given else { return (SystemRandomSource(), nil, nil) }
        return (SeededRandomSource(seed: given), given, liveSeedWarning(given))
    }

    /// What `--seed` against a live backend gives away.
    static func liveSeedWarning(_ seed: String) -> String {
        "warning: --seed \(seed) against a live backend: every random draw of the SDK, and so the ephemeral x of each login, "
            + "follows from the seed; anyone who knows it and sees a login's y and V (pass 1's answer, pass 2's request) computes "
            + "SEC = -(x+y)^-1 * V and the client secret, with or without a cassette. Use it only against a throwaway test backend"
    }

    /// Reads the script `nameOrPath` names (`script(_:library:)`), or throws a `CommandFailure` saying why.
    static func readScript(_ nameOrPath: String) throws -> ScenarioScript {
        do {
            return try script(nameOrPath)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The script of a file, or else the bundled scenario of that name or alias (`ScenarioLibrary`,
    /// as `replay` finds it), so `record authenticate` runs `Scenarios/authenticate.yaml`. A name
    /// that is neither gets "did you mean" with the closest bundled name or file.
    static func script(_ nameOrPath: String, library: ScenarioLibrary = ScenarioLibrary()) throws(ScriptError)
        -> ScenarioScript
    {
        if FileManager.default.fileExists(atPath: nameOrPath) { return try ScriptParser.parse(file: nameOrPath) }
        let looksLikeName =
            !nameOrPath.contains("/")
            && !["yaml", "yml", "json"].contains((nameOrPath as NSString).pathExtension.lowercased())
        if looksLikeName, let found = try library.find(nameOrPath) { return found }
        let files = library.files()
        let names = files.compactMap { try? ScriptParser.parse(file: $0) }.flatMap { [$0.name] + $0.aliases }
        let hint = NameSuggestion.hint(for: nameOrPath, among: looksLikeName ? names : files)
        let message =
            looksLikeName
            ? (Directories.isFolder(library.directory)
                ? "no such scenario file, nor a bundled scenario of that name in \(library.directory)/\(hint)"
                : "no such scenario file, and no folder of bundled scenarios was found (looked in "
                    + library.searched.joined(separator: ", ")
                    + "; set $MPIN_WORKBENCH_SCENARIOS to the folder)\(hint)")
            : "no such scenario file\(hint)"
        throw ScriptError(file: nameOrPath, message: message)
    }

    static func curl() -> CurlTransport { CurlTransport.forRecording() }

    /// What a shell's completion offers for a scenario argument starting with `prefix`: the
    /// bundled scenarios' names and aliases (as `script(_:library:)` finds them) and the script
    /// files (`.yaml`, `.yml`, `.json`) of the folder the prefix names, the current one by default.
    @Sendable static func completions(_ prefix: String) -> [String] {
        let library = ScenarioLibrary()
        let names = library.files().compactMap { try? ScriptParser.parse(file: $0) }.flatMap { [$0.name] + $0.aliases }
        let folder = prefix.contains("/") ? (prefix as NSString).deletingLastPathComponent : ""
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        let files = entries.filter { ["yaml", "yml", "json"].contains(($0 as NSString).pathExtension.lowercased()) }
            .map { folder.isEmpty ? $0 : (folder as NSString).appendingPathComponent($0) }
        return Array(Set(names + files)).filter { $0.hasPrefix(prefix) }.sorted()
    }

}

/// The reference backend started in-process for one scenario, seeded, on a frozen clock, and seen
/// by the SDK under `ScenarioCommandSupport.stableOrigin` (`EmbeddedBackend`, configured from the script).
enum EmbeddedSession {
    static func start(_ script: ScenarioScript, seed: String) async throws -> EmbeddedBackend {
        var configuration = BackendConfiguration(flavour: script.flavour, activation: script.activation, seed: seed)
        configuration.clientID = script.clientID
        configuration.profile = script.profile
        // The scenarios' `admin:` steps (revoke, restore, mailbox) need the operator endpoints, at
        // /admin/* in every profile (`serve` keeps them off the milagro-oss and milagro-hosted-v3 paths).
        configuration.operatorPrefix = ""
        return try await EmbeddedBackend.start(configuration, startTime: script.startTime)
    }
}
