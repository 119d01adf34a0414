import ReferenceBackend
import Scenarios
import WorkbenchTesting

extension CassetteBackend {
    /// The reference backend with `configuration` (flavour, activation mode, profile, client id,
    /// limits; host and port are ignored: it listens on 127.0.0.1 on a free port), its clock frozen
    /// at `startTime` (milliseconds since 1970; default 2026-01-01T00:00:00Z, the scenarios'
    /// default).
    public static func embedded(
        _ configuration: BackendConfiguration,
        startTime: Int64 = ScenarioScript.defaultStartTime
    ) -> CassetteBackend {
        embedded(
            EmbeddedBackendRequest(flavour: configuration.flavour, configuration: configuration), startTime: startTime)
    }
}
