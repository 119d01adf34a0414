import FlowRecording

/// The version of the workbench: printed by `mpin-workbench --version`, written into benchmark
/// output, and the tool named in the cassettes that the command line and the testing library write.
package enum WorkbenchVersion {
    package static let current = "0.1.0"

    /// The writer of a cassette, as its header names it.
    package static var tool: Cassette.Tool { .init(name: "mpin-workbench", version: current) }

    /// The address under which the embedded backend is recorded, whatever port it got, so that
    /// recording again gives the same bytes (`StableOriginTransport` maps it to the real one).
    package static let embeddedBackendOrigin = "http://127.0.0.1:8005"
}
