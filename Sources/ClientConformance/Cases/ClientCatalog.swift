/// Every case of the client suite, in report order: the flows, the activation modes, the HTTP
/// faults, the protocol faults, randomness, and secrets and shares (docs/conformance.md,
/// "Grading a client").
package enum ClientCatalog {
    package static var all: [ClientCase] { flows + activation + httpFaults + protocolFaults + randomness + secrets }

    /// The case of an id (`serve --fault`).
    package static func named(_ id: String) -> ClientCase? { all.first { $0.id == id } }
}
