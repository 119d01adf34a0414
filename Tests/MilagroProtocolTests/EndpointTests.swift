import MilagroProtocol
import Testing

/// The endpoint table and the parties (PROTOCOL §2, §8).
@Suite struct EndpointTests {
    @Test func pathsAreRootedAndNamedOnce() {
        #expect(Endpoint.all.allSatisfy { $0.path.hasPrefix("/") })
        #expect(Set(Endpoint.all.map(\.path)).count == Endpoint.all.count)
        #expect(Set(Endpoint.all.map(\.name)).count == Endpoint.all.count)
        #expect(Endpoint.all.allSatisfy { ["GET", "PUT", "POST"].contains($0.method) })
        #expect(Endpoint.all.allSatisfy { !$0.flavours.isEmpty && !$0.profiles.isEmpty })
        #expect(Endpoint.pass1.lastSegment == "pass1" && Endpoint.dta2.lastSegment == "dta2")
        #expect(Endpoint.signature.description == "GET /rps/signature/<mpinId>")
    }

    /// The participants' prefix rules put each endpoint with its party, where they name one.
    @Test(arguments: Endpoint.all)
    func thePrefixRulesAgreeWithTheTable(endpoint: Endpoint) {
        let rule = ProtocolParty.servicePrefixes.first { endpoint.path == $0.prefix || endpoint.path.hasPrefix($0.prefix + "/") }
        if let rule, let party = endpoint.party {
            #expect(rule.party == party, "\(endpoint)")
        }
    }

    @Test func partiesHaveTitles() {
        #expect(ProtocolParty.allCases.map(\.title) == ["Client", "Browser", "RPS", "D-TA 1", "D-TA 2", "RPA"])
        #expect(ProtocolParty.services == [.rps, .dta1, .dta2, .rpa])
    }

    /// The profiles' pairings (the one statement of the rule, for the backend and the scripts).
    @Test func profilesPairWithFlavoursAndActivations() {
        #expect(BackendProfile.default.problem(flavour: .mfaPlatform, activation: .code) == nil)
        #expect(BackendProfile.milagroOSS.problem(flavour: .milagro, activation: .email) == nil)
        #expect(BackendProfile.milagroOSS.problem(flavour: .mfaPlatform, activation: .auto)?.contains("milagro flavour") == true)
        #expect(BackendProfile.milagroOSS.problem(flavour: .milagro, activation: .code)?.contains("no activation codes") == true)
        #expect(BackendProfile.milagroHostedV3.problem(flavour: .milagro, activation: .auto) == nil)
        #expect(BackendProfile.milagroHostedV3.problem(flavour: .milagro, activation: .code) != nil)
        #expect(BackendProfile.milagroHostedV3.problem(flavour: .mfaPlatform, activation: .email) != nil)
    }
}
