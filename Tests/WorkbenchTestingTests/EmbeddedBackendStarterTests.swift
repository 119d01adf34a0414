import ReferenceBackend
import Testing
import WorkbenchTestingEmbedded

@testable import WorkbenchTesting

/// How WorkbenchTesting finds what starts the embedded backend: by the name of the type in
/// `WorkbenchTestingEmbedded`, which this test target links, and what it says when a target does not.
@Suite struct EmbeddedBackendStarterTests {
    @Test func theLinkedProductsStarterIsFoundByItsName() {
        #expect(EmbeddedBackendStarters.linked == EmbeddedStarter.self)
        #expect(EmbeddedBackendStarters.typeName == _mangledTypeName(EmbeddedStarter.self))
    }

    @Test func theDefaultEmbeddedBackendHasTheConfigurationsDefaultFlavour() {
        #expect(CassetteBackend.embedded.flavour == BackendConfiguration().flavour)
        #expect(CassetteBackend.embedded(startTime: 0).flavour == BackendConfiguration().flavour)
    }

    @Test func withoutTheProductTheErrorNamesIt() {
        let message = EmbeddedBackendStarters.missing(cassette: "login").message
        #expect(
            message.hasPrefix(
                "cassette \"login\": recording against the embedded reference backend needs the WorkbenchTestingEmbedded product"
            ))
        #expect(message.contains(#".product(name: "WorkbenchTestingEmbedded", package: "mpin-workbench")"#))
    }
}
