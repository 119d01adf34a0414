import CurlTransport
import MPinSDK
import MilagroRecording
import ReferenceBackend
import SDKSeams

/// The reference backend started in-process on 127.0.0.1 (a port the system chooses), on a frozen
/// clock that the backend and the SDK share, and seen by the SDK under
/// `WorkbenchVersion.embeddedBackendOrigin` whatever its port: what `record`, `run` and the testing
/// library's cassettes run against, so that recording again gives the same bytes.
package struct EmbeddedBackend: Sendable {
    package let backend: ReferenceBackend
    package let clock: FrozenClock
    /// libcurl, rewriting the recorded origin to the backend's real one and back.
    package let transport: StableOriginTransport

    /// Starts `configuration` on loopback with its clock frozen at `startTime` (ms since 1970).
    package static func start(_ configuration: BackendConfiguration, startTime: Int64) async throws -> EmbeddedBackend {
        let clock = FrozenClock(milliseconds: startTime)
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let backend = try await ReferenceBackend.start(configuration, clock: FrozenBackendClock(clock: clock))
        let transport = StableOriginTransport(
            base: CurlTransport.forRecording(), stableOrigin: WorkbenchVersion.embeddedBackendOrigin,
            actualOrigin: backend.baseURL, clock: clock)
        return EmbeddedBackend(backend: backend, clock: clock, transport: transport)
    }

    package func stop() async { await backend.stop() }
}

/// The backend's view of the frozen clock the SDK reads too.
private struct FrozenBackendClock: BackendClock {
    let clock: FrozenClock
    func nowMilliseconds() -> Int64 { clock.nowMilliseconds() }
}
