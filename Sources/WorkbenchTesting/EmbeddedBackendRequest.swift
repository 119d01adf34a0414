import MilagroProtocol

/// The embedded backend a test asked for: the flavour the SDK follows against it, and the
/// backend's configuration (a `BackendConfiguration`, which only `WorkbenchTestingEmbedded` reads;
/// nil for the defaults, whose flavour is Milagro's).
package struct EmbeddedBackendRequest: Sendable {
    package var flavour: BackendFlavour
    package var configuration: (any Sendable)?

    package init(flavour: BackendFlavour = .milagro, configuration: (any Sendable)? = nil) {
        self.flavour = flavour
        self.configuration = configuration
    }
}
