import Conformance
import MPinCrypto
import MilagroProtocol
import OrderedJSON
import ReferenceBackend
import Synchronization

/// Protocol faults: members missing, added or of the wrong JSON type, time permits for another
/// day or identity, challenges y that are no scalar (0, ≥ r) or repeat, and client settings whose
/// URLs take another form or point at another origin (docs/protocol.md §1–§3, §6).
extension ClientCatalog {
    /// A case whose backend changes the JSON answer to `target`'s request with `edit`.
    static func editCase(
        _ id: String, _ level: RequirementLevel, _ target: Target, title: String, source: String, does: String,
        expects: String,
        edit: @escaping @Sendable (inout [JSONValue.Member], FaultRequest, FaultServices) -> Void,
        grade: @escaping @Sendable (DriverRun, ClientCaseContext) -> Verdict
    ) -> ClientCase {
        ClientCase(
            "protocol.\(id)", .protocolFault, level, title: title, source: source, backendDoes: does, expects: expects,
            backend: .fault(on: target.endpoints, flavours: target.flavours) { _ in
                Fault.editJSON(only: target.operation, edit)
            }
        ) { context throws(ClientCaseError) in
            if target.registersFirst { _ = try await context.registered() }
            let flow: ClientFlow = target.flow == .register ? .registerLogin : target.flow
            return grade(try await context.run(flow), context)
        }
    }

    /// The answer without `name`: the flow must not succeed.
    static func missing(_ name: String, _ target: Target, level: RequirementLevel = .must) -> ClientCase {
        editCase(
            "\(target.name)-no-\(name.lowercased())", level, target,
            title: "\(target.what) without \(name)", source: "docs/protocol.md §3 (the members each answer holds)",
            does: "Answers \(target.what) without its member \(name).",
            expects: "The call does not return OK (RESPONSE_PARSE_ERROR is the status for it); the driver exits 0.",
            edit: { members, _, _ in members.removeAll { $0.name == name } },
            grade: { run, _ in
                Grade.refused(run, accepted: "an answer without \(name)", preferred: .responseParseError)
            })
    }

    /// The answer with `name` of another JSON type: the flow must not succeed.
    static func mistyped(_ name: String, _ value: JSONValue, _ target: Target, level: RequirementLevel = .must)
        -> ClientCase
    {
        editCase(
            "\(target.name)-\(name.lowercased())-\(value.kindName)", level, target,
            title: "\(target.what) with \(name) as a \(value.kindName)",
            source: "docs/protocol.md §3 (the members each answer holds), §1 (hex)",
            does: "Answers \(target.what) with \(name) as the JSON \(value.kindName) \(JSONWriter.compact(value)).",
            expects: "The call does not return OK (RESPONSE_PARSE_ERROR is the status for it); the driver exits 0.",
            edit: { members, _, _ in Fault.set(&members, name, value) },
            grade: { run, _ in
                Grade.refused(run, accepted: "\(name) as a \(value.kindName)", preferred: .responseParseError)
            })
    }

    /// The answer with one more member: the flow must work.
    static func extra(_ target: Target) -> ClientCase {
        editCase(
            "\(target.name)-extra-member", .should, target, title: "\(target.what) with a member it does not know",
            source: "docs/protocol.md §1 (a client reads the members it needs)",
            does: "Answers \(target.what) with one more member, \"futureMember\": {\"a\": [1, 2]}.",
            expects: "Every call returns OK.",
            edit: { members, _, _ in
                members.append(.init("futureMember", .object([.init("a", .array([1, 2]))])))
            },
            grade: { run, _ in Grade.works(run, "with an unknown member") })
    }

    /// The pass-1 answer with `y` replaced: a client SHOULD refuse it before pass 2.
    static func badChallenge(_ id: String, _ y: [UInt8], title: String, why: String) -> ClientCase {
        editCase(
            id, .should, pass1Request, title: title,
            source: "docs/protocol.md §6.4 (y is a scalar of the group, 0 < y < r); the M-Pin paper's CLIENT_2",
            does: "Answers pass 1 with y = \(why).",
            expects: "The login does not return OK and no pass 2 is sent with that y.",
            edit: { members, _, _ in Fault.set(&members, "y", .string(MPinCrypto.Hex.encode(y))) },
            grade: { run, context in
                let pass2 = context.requests(to: .pass2)
                if !pass2.isEmpty {
                    return .fail(
                        "the client sent pass 2 for y = \(why) (V = −(x+y)·SEC with a y it should have refused)")
                }
                return Grade.refused(run, accepted: "y = \(why)")
            })
    }

    /// The group order r of a curve, big-endian (r − 1 and 1 added back: Fr's own arithmetic).
    static func groupOrder(_ curve: CurveID) -> [UInt8] {
        // −1 mod r as bytes, plus one, carried by hand.
        var bytes = curve == .bn254 ? (-Fr<BN254>(reducing: [1])).bytes : (-Fr<BN254CX>(reducing: [1])).bytes
        var index = bytes.count - 1
        while index >= 0 {
            if bytes[index] == 0xFF {
                bytes[index] = 0
                index -= 1
            } else {
                bytes[index] += 1
                break
            }
        }
        return bytes
    }

    static var protocolFaults: [ClientCase] {
        var cases: [ClientCase] = [
            extra(settingsRequest),
            missing("registerURL", settingsRequest),
            mistyped("mpinAuthServerURL", 42, settingsRequest),
            missing("mpinId", registerRequest),
            mistyped("mpinId", 42, registerRequest),
            missing("regOTT", registerRequest),
            extra(registerRequest),
            missing("clientSecretShare", signatureRequest),
            mistyped("clientSecretShare", "not hex", signatureRequest),
            missing("params", signatureRequest),
            missing("clientSecret", dtaSecretRequest),
            mistyped("clientSecret", 7, dtaSecretRequest),
            missing("timePermit", permitRequest),
            missing("date", permitRequest),
            missing("y", pass1Request),
            mistyped("y", 1234, pass1Request),
            missing("authOTT", pass2Request),
            extra(pass2Request),
        ]
        cases += [
            editCase(
                "permit-date-text", .must, permitRequest, title: "A time permit whose date is a string",
                source: "docs/protocol.md §3.4 (date, a day number)",
                does: "Answers time-permit share 1 with its date as a string (\"17085\" in place of 17085).",
                expects:
                    "The client reads it or refuses it, and ends the flow: the driver exits 0 (no crash, no hang).",
                edit: { members, _, _ in
                    if let date = members.last(where: { $0.name == "date" })?.value, case .number(let text) = date {
                        Fault.set(&members, "date", .string(text))
                    }
                },
                grade: { run, _ in Grade.survives(run, "a date as a string") }),
            editCase(
                "permit-other-day", .must, permitRequest, title: "A time permit for another day",
                source: "docs/protocol.md §3.4, §6.5 (the server checks today's permit)",
                does:
                    "Answers time-permit share 1 with yesterday's date and yesterday's share (rightly signed for today).",
                expects: "The login does not return OK (the server refuses it); the client does not report a login.",
                edit: { members, request, services in
                    guard let id = request.tail.flatMap(MPinCrypto.Hex.decode) else { return }
                    let day = services.today - 1
                    Fault.set(&members, "date", .integer(day))
                    let share = services.timePermitShare(authority: 1, hashedID: services.hashedID(id), date: day)
                    Fault.set(&members, "timePermit", .string(MPinCrypto.Hex.encode(share)))
                },
                grade: { run, _ in Grade.refused(run, accepted: "a login with yesterday's time permit") }),
            editCase(
                "permit-other-identity", .must, permitRequest, title: "A time permit for another identity",
                source: "docs/protocol.md §3.4, §6.2 (the permit is s·H(T|ID) for the user's ID)",
                does: "Answers time-permit share 1 with today's share for another M-Pin ID.",
                expects: "The login does not return OK (the server refuses it); the client does not report a login.",
                edit: { members, _, services in
                    let other = SHA256.hash(Array("another identity".utf8))
                    let share = services.timePermitShare(authority: 1, hashedID: other, date: services.today)
                    Fault.set(&members, "timePermit", .string(MPinCrypto.Hex.encode(share)))
                },
                grade: { run, _ in Grade.refused(run, accepted: "a login with another identity's time permit") }),
            badChallenge("pass1-y-zero", [UInt8](repeating: 0, count: 32), title: "A challenge y of 0", why: "0"),
            ClientCase(
                "protocol.pass1-y-order", .protocolFault, .should, title: "A challenge y equal to the group order",
                source: "docs/protocol.md §6.4 (y is a scalar of the group, 0 < y < r)",
                backendDoes: "Answers pass 1 with y = r, the order of G1 (≡ 0 mod r).",
                expects: "The login does not return OK and no pass 2 is sent with that y.",
                backend: .fault(on: [.pass1]) { _ in
                    Fault.editJSON { members, _, services in
                        Fault.set(&members, "y", .string(MPinCrypto.Hex.encode(groupOrder(services.curve))))
                    }
                }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                let run = try await context.run(.login)
                if !context.requests(to: .pass2).isEmpty {
                    return .fail("the client sent pass 2 for y = r (a y it should have refused)")
                }
                return Grade.refused(run, accepted: "y = r")
            },
            badChallenge(
                "pass1-y-max", [UInt8](repeating: 0xFF, count: 32), title: "A challenge y of 2²⁵⁶ − 1",
                why: "2²⁵⁶ − 1 (more than r)"),
            ClientCase(
                "protocol.pass1-y-repeated", .protocolFault, .may, title: "The same challenge y for two logins",
                source: "docs/protocol.md §6.4 (y is the server's fresh challenge)",
                backendDoes:
                    "Answers the first two logins' pass 1 with the same y (the second's pass 2 is then refused).",
                expects: "Informational: whether the client notices a repeated y (it cannot, keeping no y).",
                backend: .fault(on: [.pass1]) { _ in
                    let first = FirstValue()
                    return Fault.editJSON { members, _, _ in
                        guard let y = members.last(where: { $0.name == "y" })?.value.stringValue else { return }
                        Fault.set(&members, "y", .string(first.keep(y)))
                    }
                }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                let one = try await context.run(.login)
                let two = try await context.run(.login)
                return .informational(
                    "first login: \(one.outcome.name); second, with the same y: \(two.outcome.name)"
                        + (two.outcome == .ok ? "" : " (the backend refused it or the client did)"))
            },
            ClientCase(
                "protocol.settings-ws-scheme", .protocolFault, .should, title: "A ws:// URL in the settings",
                source: "docs/protocol.md §1 (wss:// and ws:// become https:// and http://)",
                backendDoes: "Gives mpinAuthServerURL as ws://host:port/rps in place of the relative /rps.",
                expects: "login: every call returns OK (passes 1 and 2 go over http://).",
                backend: .fault(on: [.clientSettings]) { _ in
                    Fault.editJSON { members, request, _ in
                        let origin = originOf(request.url)
                        Fault.set(&members, "mpinAuthServerURL", .string("ws" + origin.dropFirst(4) + Endpoint.rpsBase))
                    }
                }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                return Grade.works(try await context.run(.login), "login with a ws:// pass-1 URL")
            },
            ClientCase(
                "protocol.settings-absolute-urls", .protocolFault, .should, title: "Absolute URLs in the settings",
                source: "docs/protocol.md §1, §13 (the open-source server gives absolute URLs)",
                backendDoes: "Gives every relative URL of the settings as an absolute one on its own origin.",
                expects: "register-login: every call returns OK.",
                backend: .fault(on: [.clientSettings]) { _ in
                    Fault.editJSON { members, request, _ in
                        let origin = originOf(request.url)
                        for index in members.indices {
                            if let text = members[index].value.stringValue, text.hasPrefix("/") {
                                members[index].value = .string(origin + text)
                            }
                        }
                    }
                }
            ) { context throws(ClientCaseError) in
                Grade.works(try await context.run(.registerLogin), "register-login with absolute URLs")
            },
            ClientCase(
                "protocol.dta-other-origin", .protocolFault, .must, title: "D-TA 2 on an origin of its own",
                source: "docs/protocol.md §2 (certivoxURL), §13 (the open-source D-TA 2 on its own port)",
                backendDoes: "Gives certivoxURL on another origin, which serves D-TA 2.",
                expects: "register-login: every call returns OK, and the client asked that origin for share 2.",
                backend: .fault(on: [.clientSettings]) { origins in
                    Fault.editJSON { members, _, _ in
                        Fault.set(&members, "certivoxURL", .string(origins.alias + Endpoint.dta2.path))
                        if members.contains(where: { $0.name == "dta2URL" }) {
                            Fault.set(&members, "dta2URL", .string(origins.alias + Endpoint.dta2.path))
                        }
                    }
                }
            ) { context throws(ClientCaseError) in
                let run = try await context.run(.registerLogin)
                guard run.allOK else { return Grade.works(run, "register-login with D-TA 2 elsewhere") }
                let asked = context.exchanges.contains { $0.request.url.hasPrefix(context.origins.alias + "/dta2/") }
                return asked
                    ? .pass("register-login returned OK, with share 2 from D-TA 2's own origin")
                    : .fail("register-login returned OK, but no request went to certivoxURL's origin")
            },
            ClientCase(
                "protocol.settings-other-origin", .protocolFault, .may,
                title: "Passes 1 and 2 on another origin than the backend's",
                source: "docs/protocol.md §2 (mpinAuthServerURL); §1 (trusted domains, core next)",
                backendDoes: "Gives mpinAuthServerURL on another origin (which serves the protocol).",
                expects: "Informational: where the client sends its passes when the settings say so.",
                backend: .fault(on: [.clientSettings]) { origins in
                    Fault.editJSON { members, _, _ in
                        Fault.set(&members, "mpinAuthServerURL", .string(origins.alias + Endpoint.rpsBase))
                    }
                }
            ) { context throws(ClientCaseError) in
                _ = try await context.registered()
                let run = try await context.run(.login)
                let elsewhere = context.exchanges.filter { $0.request.url.hasPrefix(context.origins.alias) }.count
                return .informational(
                    "login \(run.outcome.name); \(elsewhere) request(s) went to the other origin the settings named")
            },
        ]
        return cases
    }

    /// `scheme://authority` of a URL.
    static func originOf(_ url: String) -> String {
        guard let range = url.range(of: "://") else { return url }
        let rest = url[range.upperBound...]
        return String(url[..<range.upperBound]) + String(rest.prefix { $0 != "/" && $0 != "?" })
    }
}

/// The first value a fault saw, given back for every later one.
final class FirstValue: Sendable {
    private let value = Mutex<String?>(nil)

    func keep(_ candidate: String) -> String {
        value.withLock { kept in
            if kept == nil { kept = candidate }
            return kept!
        }
    }
}
