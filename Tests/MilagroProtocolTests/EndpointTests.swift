import MilagroProtocol
import Testing

/// The endpoint table and the parties (docs/protocol.md §2, §8).
@Suite struct EndpointTests {
    @Test func pathsAreRootedAndNamedOnce() {
        #expect(Endpoint.all.allSatisfy { $0.path.hasPrefix("/") })
        #expect(Set(Endpoint.all.map(\.path)).count == Endpoint.all.count)
        #expect(Set(Endpoint.all.map(\.name)).count == Endpoint.all.count)
        #expect(Endpoint.all.allSatisfy { ["GET", "PUT", "POST"].contains($0.method) })
        #expect(Endpoint.all.allSatisfy { !$0.flavours.isEmpty })
        #expect(Endpoint.all.allSatisfy { $0.profiles.isEmpty == Endpoint.recognisedOnly.contains($0) })
        #expect(Endpoint.pass1.lastSegment == "pass1" && Endpoint.dta2.lastSegment == "dta2")
        #expect(Endpoint.signature.description == "GET /rps/signature/<mpinId>")
    }

    /// A request's path reaches an endpoint by its segments and what its tail allows.
    @Test func pathsMatchByTheirTail() {
        #expect(
            Endpoint.pass1.matches(["rps", "pass1"]) && !Endpoint.pass1.matches(["rps", "pass1", "x"])
                && !Endpoint.pass1.matches(["rps"]))
        #expect(
            Endpoint.signature.matches(["rps", "signature", "ab"]) && !Endpoint.signature.matches(["rps", "signature"]))
        #expect(Endpoint.register.matches(["rps", "user"]) && Endpoint.register.matches(["rps", "user", "ab"]))
        #expect(!Endpoint.register.matches(["rps", "user", "ab", "cd"]))
        #expect(Endpoint.dta2.matches(["dta2", "clientSecret"]) && !Endpoint.dta2.matches(["dta2"]))
        #expect(
            Endpoint.timePermitsStorage.matches(["timePermitsStorage"])
                && Endpoint.timePermitsStorage.matches(["timePermitsStorage", "a", "1", "c"]))
        #expect(Endpoint.demoIndex.matches([]) && !Endpoint.demoIndex.matches(["x"]))
        #expect(
            Endpoint.signature.tailSegment(of: ["rps", "signature", "ab"]) == "ab"
                && Endpoint.pass1.tailSegment(of: ["rps", "pass1"]) == nil)
    }

    /// An index finds the most specific endpoint registered, and none that is not.
    @Test func theIndexPrefersTheMostSpecificEndpoint() {
        let index = EndpointIndex([
            Endpoint.dta2: 1, .hostedDTA2: 2, .adminOperation: 3, .adminMailbox: 4, .demoIndex: 5,
        ])
        #expect(index.lookup(["dta2", "v3", "clientSecret"])?.value == 2)
        #expect(index.lookup(["dta2", "clientSecret"])?.value == 1)
        #expect(index.lookup(["dta2", "v3"])?.value == 1)
        #expect(index.lookup(["admin", "mailbox"])?.value == 4 && index.lookup(["admin", "other"])?.value == 3)
        #expect(index.lookup([])?.value == 5)
        #expect(index.lookup(["rps", "pass1"]) == nil && index.lookup(["admin"]) == nil)
        #expect(index.endpoints == [.dta2, .hostedDTA2, .adminOperation, .adminMailbox, .demoIndex])
    }

    /// The participants' prefix rules put each endpoint with its party, where they name one.
    @Test(arguments: Endpoint.all)
    func thePrefixRulesAgreeWithTheTable(endpoint: Endpoint) {
        let rule = ProtocolParty.servicePrefixes.first {
            endpoint.path == $0.prefix || endpoint.path.hasPrefix($0.prefix + "/")
        }
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
        #expect(
            BackendProfile.milagroOSS.problem(flavour: .mfaPlatform, activation: .auto)?.contains("milagro flavour")
                == true)
        #expect(
            BackendProfile.milagroOSS.problem(flavour: .milagro, activation: .code)?.contains("no activation codes")
                == true)
        #expect(BackendProfile.milagroHostedV3.problem(flavour: .milagro, activation: .auto) == nil)
        #expect(BackendProfile.milagroHostedV3.problem(flavour: .milagro, activation: .code) != nil)
        #expect(BackendProfile.milagroHostedV3.problem(flavour: .mfaPlatform, activation: .email) != nil)
    }
}
