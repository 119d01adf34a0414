import Conformance
import MPinCrypto
import MilagroProtocol
import OrderedJSON
import ReferenceBackend

/// Randomness and secrets, across several runs of the client: x never repeats and comes from no
/// generator the suite knows; the PIN, the token and the client secret never appear in a
/// request; the client checks the shares it gets before it uses them (docs/protocol.md §6,
/// docs/security.md).
extension ClientCatalog {
    static var randomness: [ClientCase] {
        [
            ClientCase(
                "random.x-fresh", .random, .must, title: "x never repeats across logins and runs",
                source: "docs/protocol.md §6.4 (x = a random scalar), §11.13; docs/security.md",
                backendDoes: "Registers the user, then answers four logins in four runs of the client.",
                expects:
                    "Every pass 1 of the user carries another U (U = x·H(ID): a repeated U is a repeated x, and one observed login then gives the client secret away as −(x+y)⁻¹·V)."
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                for _ in 0..<4 { _ = try await context.run(.login) }
                let sent = context.pass1
                guard sent.count >= 2 else {
                    return .fail(
                        "the client sent \(sent.count) pass 1 in four logins; at least two are needed to compare")
                }
                var seen: [[UInt8]: Int] = [:]
                for (index, pass) in sent.enumerated() {
                    if let earlier = seen[pass.u] {
                        return .fail(
                            "pass 1 number \(index + 1) sent the same U as number \(earlier + 1) "
                                + "(\(MPinCrypto.Hex.encode(Array(pass.u.prefix(8))))…): x was drawn again")
                    }
                    seen[pass.u] = index
                }
                return .pass("\(sent.count) passes 1, each with another U")
            },
            ClientCase(
                "random.x-unpredictable", .random, .must, title: "x comes from no generator the suite knows",
                source: "docs/protocol.md §6.4, §11.13 (a core seeded with the time); docs/security.md",
                backendDoes: "Registers the user and answers two logins, in two runs.",
                expects:
                    "No pass-1 U is x·H(ID) for an x of a known generator: SplitMix64 of common seeds, the workbench's seeded generator, a counter, constant bytes, a small number."
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                for _ in 0..<2 { _ = try await context.run(.login) }
                let sent = context.pass1
                guard !sent.isEmpty else { return .fail("the client sent no pass 1 in two logins") }
                for (index, pass) in sent.prefix(2).enumerated() {
                    if let generator = KnownGenerators.match(
                        u: pass.u, mpinID: pass.mpinID, curve: context.services.curve)
                    {
                        return .fail("pass 1 number \(index + 1): x is the output of \(generator)")
                    }
                }
                let tried = KnownGenerators.candidates(curve: context.services.curve).count
                return .pass(
                    "no x of \(min(sent.count, 2)) pass(es) 1 is among the first \(KnownGenerators.positions) scalars of "
                        + "\(tried) known generators or the scalars 1 to \(KnownGenerators.smallScalars)")
            },
        ]
    }

    static var secrets: [ClientCase] {
        [
            ClientCase(
                "secrets.pin", .secrets, .must, title: "The PIN never appears in a request",
                source: "docs/protocol.md §6.3 (the server never sees the PIN), §6.4",
                backendDoes: "Answers a registration, a login and a login with a wrong PIN.",
                expects:
                    "Neither PIN is a JSON value, a query value or a header value of any request, or a word of its body."
            ) { context throws(ClientCaseError) in
                _ = try await context.run(.registerLogin)
                _ = try await context.run(.wrongPIN, pin: context.wrongPIN)
                for pin in [context.pin, context.wrongPIN] {
                    if let place = SecretSearch.pin(pin, in: context.exchanges) {
                        return .fail("the PIN \(pin == context.pin ? "" : "tried ")was sent: \(place)")
                    }
                }
                return .pass("neither PIN is in any of the client's \(context.exchanges.count) requests")
            },
            ClientCase(
                "secrets.token", .secrets, .must, title: "The token never appears in a request",
                source: "docs/protocol.md §6.4 (the token is never sent)",
                backendDoes: "Answers a registration and two logins.",
                expects: "The token CS − PIN·H(ID) (its encoding, or its x coordinate) is in no request."
            ) { context throws(ClientCaseError) in
                try await secretsCase(context) { cs, id, mpin, pin in
                    mpin.extractPIN(id: id, pin: Int32(pin) ?? 0, token: cs).map { [("the token", $0)] } ?? []
                }
            },
            ClientCase(
                "secrets.client-secret", .secrets, .must,
                title: "The client secret and its shares never appear in a request",
                source: "docs/protocol.md §6.4 (CS = CS1 + CS2 lives only between the shares and the token)",
                backendDoes: "Answers a registration and two logins.",
                expects: "CS, CS1 and CS2 (their encodings, or their x coordinates) are in no request."
            ) { context throws(ClientCaseError) in
                try await secretsCase(context) { cs, id, _, _ in
                    let hash = context.services.hashedID(id)
                    return [
                        ("the client secret", cs),
                        ("share 1", context.services.clientSecretShare(authority: 1, hashedID: hash)),
                        ("share 2", context.services.clientSecretShare(authority: 2, hashedID: hash)),
                    ]
                }
            },
            shareCase(
                "secrets.dta-share-off-curve", "D-TA 2's client-secret share", dtaSecretRequest, member: "clientSecret"),
            shareCase(
                "secrets.rps-share-off-curve", "the RPS's client-secret share", signatureRequest,
                member: "clientSecretShare"),
            shareCase("secrets.permit-off-curve", "time-permit share 1", permitRequest, member: "timePermit"),
            shareCase(
                "secrets.dta-permit-off-curve", "D-TA 2's time-permit share", dtaPermitRequest, member: "timePermit"),
            ClientCase(
                "secrets.shares-do-not-combine", .secrets, .must, title: "Shares that do not combine give no login",
                source: "docs/protocol.md §6.4, §6.5 (the server's pairing check)",
                backendDoes:
                    "Answers D-TA 2's client-secret share with a point of the curve made for another identity.",
                expects: "The registration may finish (the client cannot tell); the login does not return OK.",
                backend: .fault(on: Fault.dta2) { _ in
                    Fault.editJSON(only: Endpoint.clientSecretOperation) { members, _, services in
                        let other = SHA256.hash(Array("another identity".utf8))
                        let share = services.clientSecretShare(authority: 2, hashedID: other)
                        Fault.set(&members, "clientSecret", .string(MPinCrypto.Hex.encode(share)))
                    }
                }
            ) { context throws(ClientCaseError) in
                let run = try await context.run(.registerLogin)
                return Grade.refused(run, accepted: "a login with a client secret whose shares do not combine")
            },
        ]
    }

    /// A case whose backend serves a share that is not a point of the curve in `member` of
    /// `target`'s answer: the client must refuse it before it uses it.
    static func shareCase(_ id: String, _ what: String, _ target: Target, member: String) -> ClientCase {
        ClientCase(
            id, .secrets, .must, title: "\(what.prefix(1).uppercased() + what.dropFirst()) not on the curve is refused",
            source: "docs/protocol.md §6.1 (every share is a point of the curve), §6.4",
            backendDoes: "Answers \(target.what) with \(member) changed into a point that is not on the curve.",
            expects:
                "\(target.flow) does not return OK, and no pass 1 is sent with what the share would have made.",
            backend: .fault(on: target.endpoints, flavours: target.flavours) { _ in
                Fault.editJSON(only: target.operation) { members, _, services in
                    guard let value = members.last(where: { $0.name == member })?.value.stringValue else { return }
                    Fault.set(&members, member, .string(Fault.offCurve(value, curve: services.curve)))
                }
            }
        ) { context throws(ClientCaseError) in
            if target.registersFirst { _ = try await context.registered() }
            let run = try await context.run(target.flow == .register ? .registerLogin : target.flow)
            if run.allOK { return .fail("every call returned OK: the client used \(what) that is not on the curve") }
            if target.flow == .register, !context.requests(to: .pass1).isEmpty {
                return .fail("the client logged in with a token made from \(what) that is not on the curve")
            }
            if target.flow == .login, !context.requests(to: .pass1).isEmpty {
                return .fail("the client sent pass 1 with \(what) that is not on the curve")
            }
            return Grade.refused(run, accepted: "\(what) not on the curve")
        }
    }

    /// Runs a registration and two logins, then looks for each secret `secrets` names (given the
    /// client secret, the M-Pin ID, the curve's functions and the PIN) in every request.
    static func secretsCase(
        _ context: ClientCaseContext,
        _ secrets: (_ cs: [UInt8], _ id: [UInt8], _ mpin: MPin, _ pin: String) -> [(String, [UInt8])]
    ) async throws(ClientCaseError) -> Verdict {
        _ = try await context.run(.registerLogin)
        _ = try await context.run(.login)
        guard let id = context.mpinID else { return .fail("the client got no M-Pin ID: no registration to check") }
        guard let cs = context.services.clientSecret(mpinID: id) else {
            throw .suite("the backend could not make the client secret of the M-Pin ID")
        }
        let named = secrets(cs, id, MPin(curve: context.services.curve), context.pin)
        for (name, value) in named {
            if let place = SecretSearch.point(value, in: context.exchanges) {
                return .fail("\(name) was sent: \(place)")
            }
        }
        return .pass(
            "\(named.map(\.0).joined(separator: ", ")): in none of the client's \(context.exchanges.count) requests")
    }
}
