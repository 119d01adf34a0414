import ArgumentParser
import CommonFormats
import CurlTransport
import EmbeddedBackend
import FlowRecording
import Foundation
import MilagroRecording
import MPinSDK
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
    static let seedHelp = "Seed of the SDK's randomness and of the embedded backend (default: the script's seed, else \"\(defaultSeed)\"; the same against --backend)."

    /// `--seed` if given, else the script's `seed`, else `defaultSeed`: the same rule against the
    /// embedded backend and a live one, so that a cassette always says the seed its run had.
    static func seed(_ given: String?, script: ScenarioScript) -> String {
        given ?? script.seed ?? defaultSeed
    }

    static func error(_ message: String) {
        Console.failure(message)
    }

    /// Reads the script `nameOrPath` names (`script(_:library:)`), or prints why not and exits with status 2.
    static func readScript(_ nameOrPath: String) throws -> ScenarioScript {
        do {
            return try script(nameOrPath)
        } catch {
            Self.error(error.description)
            throw ExitCode(2)
        }
    }

    /// The script of a file, or else the bundled scenario of that name or alias (`ScenarioLibrary`,
    /// as `replay` finds it), so `record authenticate` runs `Scenarios/authenticate.yaml`. A name
    /// that is neither gets "did you mean" with the closest bundled name or file.
    static func script(_ nameOrPath: String, library: ScenarioLibrary = ScenarioLibrary()) throws(ScriptError) -> ScenarioScript {
        if FileManager.default.fileExists(atPath: nameOrPath) { return try ScriptParser.parse(file: nameOrPath) }
        let looksLikeName = !nameOrPath.contains("/") && !["yaml", "yml", "json"].contains((nameOrPath as NSString).pathExtension.lowercased())
        if looksLikeName, let found = try library.find(nameOrPath) { return found }
        let files = library.files()
        let names = files.compactMap { try? ScriptParser.parse(file: $0) }.flatMap { [$0.name] + $0.aliases }
        let hint = NameSuggestion.hint(for: nameOrPath, among: looksLikeName ? names : files)
        let message = looksLikeName
            ? "no such scenario file, nor a bundled scenario of that name under \(library.directory)/\(hint)"
            : "no such scenario file\(hint)"
        throw ScriptError(file: nameOrPath, message: message)
    }

    static func curl() -> CurlTransport { EmbeddedBackend.curl() }

    /// Whether a URL's host is a loopback address (`Loopback`, the one rule; recordings of other
    /// hosts are redacted by default).
    static func isLoopback(_ url: String) -> Bool {
        Loopback.isLoopback(url: url)
    }
}

/// The reference backend started in-process for one scenario, seeded, on a frozen clock, and seen
/// by the SDK under `ScenarioCommandSupport.stableOrigin` (`EmbeddedBackend`, configured from the script).
enum EmbeddedSession {
    static func start(_ script: ScenarioScript, seed: String) async throws -> EmbeddedBackend {
        var configuration = BackendConfiguration(flavour: script.flavour, activation: script.activation, seed: seed)
        configuration.clientID = script.clientID
        configuration.profile = script.profile
        return try await EmbeddedBackend.start(configuration, startTime: script.startTime)
    }
}
