import EmbeddedBackend
import ReferenceBackend
import WorkbenchTesting

/// Starts the embedded reference backend for WorkbenchTesting's recordings. Nothing calls it by
/// name: WorkbenchTesting looks this type up by its name (`EmbeddedBackendStarters.typeName`) once
/// a test records against the embedded backend, and finds it when the test target links this
/// product. Renaming or moving it breaks that lookup (`EmbeddedStarterTests` checks it).
package enum EmbeddedStarter: EmbeddedBackendStarter {
    package static func start(_ request: EmbeddedBackendRequest, seed: String, startTime: Int64) async throws
        -> StartedEmbeddedBackend
    {
        var configuration = request.configuration as? BackendConfiguration ?? BackendConfiguration()
        if configuration.seed == nil { configuration.seed = seed }
        let started = try await EmbeddedBackend.start(configuration, startTime: startTime)
        return StartedEmbeddedBackend(
            transport: started.transport, clock: started.clock, stop: { await started.stop() })
    }
}
