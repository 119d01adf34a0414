import Conformance
import Testing

@testable import ClientConformance

/// The catalogue: at least 60 cases, in the client groups, each id unique and under its group,
/// each with a level, a source, what the backend does and what the client must do.
@Suite struct ClientCatalogTests {
    @Test func hasTheCasesOfIssue35() {
        let cases = ClientCatalog.all
        #expect(cases.count >= 60)
        #expect(Set(cases.map(\.id)).count == cases.count)
        for item in cases {
            #expect(item.group.isClient, "\(item.id)")
            #expect(item.id.hasPrefix(item.group.rawValue + "."), "\(item.id) is not under \(item.group.rawValue)")
            #expect(!item.title.isEmpty && !item.source.isEmpty && !item.backendDoes.isEmpty && !item.expects.isEmpty)
        }
        for group in ConformanceGroup.allCases where group.isClient {
            #expect(cases.contains { $0.group == group }, "no case in \(group)")
        }
    }

    /// Every flow of the contract is run by some case, and the five doubles' cases are there.
    @Test func coversTheFlowsAndTheDoubles() {
        let ids = Set(ClientCatalog.all.map(\.id))
        for id in [
            "random.x-fresh", "random.x-unpredictable", "http-fault.redirect-pass2", "secrets.dta-share-off-curve",
            "secrets.pin",
        ] {
            #expect(ids.contains(id), "\(id)")
        }
        for flow in ClientFlow.allCases {
            #expect(ids.contains("flow.\(flow.rawValue)"), "no case runs \(flow)")
        }
    }

    @Test func namesCasesForServeFault() {
        #expect(ClientCatalog.named("secrets.pin")?.level == .must)
        #expect(ClientCatalog.named("secrets") == nil)
    }
}
