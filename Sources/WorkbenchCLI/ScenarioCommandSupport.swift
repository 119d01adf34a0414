import ArgumentParser
import CurlTransport
import Dispatch
import EmbeddedBackend
import FlowRecording
import Foundation
import MilagroRecording
import MPinSDK
import ReferenceBackend
import Scenarios

/// What `run`, `record` and `replay` share: running async work from a synchronous command, the
/// embedded backend, and reading scripts.
enum ScenarioCommandSupport {
    /// The address under which the embedded backend is recorded, whatever port it got.
    static let stableOrigin = WorkbenchVersion.embeddedBackendOrigin

    static var tool: Cassette.Tool { WorkbenchVersion.tool }

    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    static func error(_ message: String) {
        Console.failure(message)
    }

    static func readScript(_ path: String) throws -> ScenarioScript {
        do {
            return try ScriptParser.parse(file: path)
        } catch {
            Self.error(error.description)
            throw ExitCode(2)
        }
    }

    static func curl() -> CurlTransport { EmbeddedBackend.curl() }

    /// Whether a URL's host is a loopback address (recordings of other hosts are redacted by default).
    static func isLoopback(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return false }
        var host = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("[") { return host.hasPrefix("[::1]") }
        let name = host.split(separator: ":").first.map(String.init)?.lowercased() ?? ""
        return name == "localhost" || name.hasPrefix("127.")
    }
}

/// The reference backend started in-process for one scenario, seeded, on a frozen clock, and seen
/// by the SDK under `ScenarioCommandSupport.stableOrigin` (`EmbeddedBackend`, configured from the script).
enum EmbeddedSession {
    /// `profile` overrides the script's.
    static func start(_ script: ScenarioScript, seed: String, profile: BackendProfile? = nil) async throws -> EmbeddedBackend {
        var configuration = BackendConfiguration(flavour: script.flavour, activation: script.activation, seed: seed)
        configuration.clientID = script.clientID
        configuration.profile = profile ?? script.profile
        return try await EmbeddedBackend.start(configuration, startTime: script.startTime)
    }
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
    func get() throws -> T { try lock.withLock { result! }.get() }
}
