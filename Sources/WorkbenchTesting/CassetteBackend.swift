import MilagroProtocol
import Scenarios

/// The backend a cassette test records against (replay never needs one).
///
/// * `.embedded` (the default): the reference backend started in-process on 127.0.0.1 with a port
///   the system chooses, seeded from the test's seed (unless the configuration has a seed), on a
///   clock frozen at `startTime` that the SDK reads too, and stopped when the test ends. It is
///   recorded as `http://127.0.0.1:8005` whatever its port, without timings, so recording a test
///   twice gives the same bytes (as `mpin-workbench record --embedded`). Recording against it
///   needs the `WorkbenchTestingEmbedded` product in the test target (it links the backend, on
///   Hummingbird and SwiftNIO; replaying needs only this one), which also has
///   `embedded(_:startTime:)` with a `BackendConfiguration`.
/// * `.url(...)`: a backend that runs already, reached through libcurl; the SDK reads the system
///   clock and the cassette keeps the timings. Nothing is redacted: record only test backends
///   whose secrets may be committed.
public struct CassetteBackend: Sendable {
    enum Kind: Sendable {
        case embedded(EmbeddedBackendRequest, startTime: Int64)
        case url(String, flavour: BackendFlavour)
    }

    let kind: Kind

    /// The reference backend with its defaults (Milagro flavour, registrations active at once).
    public static var embedded: CassetteBackend { .embedded() }

    /// The reference backend with its defaults, its clock frozen at `startTime` (milliseconds
    /// since 1970; default 2026-01-01T00:00:00Z, the scenarios' default). With another
    /// configuration: `embedded(_:startTime:)` of `WorkbenchTestingEmbedded`.
    public static func embedded(startTime: Int64 = ScenarioScript.defaultStartTime) -> CassetteBackend {
        embedded(EmbeddedBackendRequest(), startTime: startTime)
    }

    /// The embedded backend as `request` describes it (what `WorkbenchTestingEmbedded` makes of a
    /// `BackendConfiguration`).
    package static func embedded(_ request: EmbeddedBackendRequest, startTime: Int64) -> CassetteBackend {
        CassetteBackend(kind: .embedded(request, startTime: startTime))
    }

    /// A backend at `url` (e.g. `http://127.0.0.1:8005` of `mpin-workbench serve`), of `flavour`.
    public static func url(_ url: String, flavour: BackendFlavour = .milagro) -> CassetteBackend {
        CassetteBackend(kind: .url(url, flavour: flavour))
    }

    /// The flavour the SDK should follow against this backend.
    var flavour: BackendFlavour {
        switch kind {
        case .embedded(let request, _): request.flavour
        case .url(_, let flavour): flavour
        }
    }
}
