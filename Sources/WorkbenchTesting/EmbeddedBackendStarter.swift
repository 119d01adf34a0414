/// What starts the embedded reference backend for a recording: `WorkbenchTestingEmbedded`, the
/// product that links the backend (and with it Hummingbird and SwiftNIO), so that this one, which
/// replays, links neither. No one registers it by a call: a test target that links that product
/// has its `EmbeddedStarter` in the program, and `EmbeddedBackendStarters.linked` finds it there by
/// its name (the Swift runtime's type lookup) when a test first records against the embedded
/// backend.
package protocol EmbeddedBackendStarter {
    /// Starts the backend `request` describes on 127.0.0.1 (a free port), seeded from `seed` unless
    /// its configuration has a seed, on a clock frozen at `startTime` (ms since 1970).
    static func start(_ request: EmbeddedBackendRequest, seed: String, startTime: Int64) async throws
        -> StartedEmbeddedBackend
}

/// Where the starter is found.
package enum EmbeddedBackendStarters {
    /// The product to add to a test target that records against the embedded backend.
    package static let product = "WorkbenchTestingEmbedded"
    /// The starter's type, `WorkbenchTestingEmbedded.EmbeddedStarter`, by its mangled name (the
    /// runtime's lookup takes no other form).
    package static let typeName = "24WorkbenchTestingEmbedded0C7StarterO"

    /// The starter of `WorkbenchTestingEmbedded` when the program links it, else nil.
    package static var linked: (any EmbeddedBackendStarter.Type)? {
        _typeByName(typeName) as? any EmbeddedBackendStarter.Type
    }

    /// Why a cassette cannot be recorded against the embedded backend without the product.
    static func missing(cassette name: String) -> CassetteTestError {
        CassetteTestError(
            "cassette \"\(name)\": recording against the embedded reference backend needs the \(product) product, "
                + "which this test target does not link: add .product(name: \"\(product)\", package: \"mpin-workbench\") to its "
                + "dependencies (replaying needs only WorkbenchTesting), or record against a running backend with backend: .url(...)"
        )
    }
}
