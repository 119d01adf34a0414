import FlowRecording
import MPinCrypto
import MilagroProtocol
import OrderedJSON
import SDKSeams

/// The D-TAs (docs/protocol.md §3.2, §8.1): D-TA 2's client secret needs the RPS's signature over the
/// request, which expires; its parameters are checked.
extension ConformanceCatalog {
    static let dtaSource = "docs/protocol.md §3.2, §8.1"

    /// The signed parameters of a fresh registration's signature answer, as name-value pairs, and the share 1.
    static func signedParameters(_ context: ConformanceContext) async throws(ConformanceError) -> (
        pairs: [(String, String)], share1: String
    ) {
        let started = try await activeRegistration(context)
        let response = try await signature(context, started.mpinID, regOTT: started.regOTT)
        guard response.status == 200, let params = response.json?["params"]?.stringValue,
            let share = response.json?["clientSecretShare"]?.stringValue
        else {
            throw .setup("the signature answered \(response.summary)")
        }
        let pairs = params.split(separator: "&").map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        return (pairs, share)
    }

    /// `GET certivoxURL + "clientSecret?" + pairs`.
    static func clientSecret(_ context: ConformanceContext, _ pairs: [(String, String)]) async throws(ConformanceError)
        -> HTTPResponse
    {
        let query = pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return try await context.send(.get, try await context.settingURL(.certivoxURL) + "clientSecret?" + query)
    }

    /// The pairs with one value replaced (or the name dropped when `value` is nil).
    static func replacing(_ pairs: [(String, String)], _ name: String, with value: String?) -> [(String, String)] {
        pairs.compactMap { pair in
            guard pair.0 == name else { return pair }
            return value.map { (name, $0) }
        }
    }

    /// One D-TA case that tampers with the signed request and expects a refusal with no share.
    static func tamperCase(
        _ id: String, _ title: String, sends: String, preferred: Set<Int>,
        _ tamper: @escaping @Sendable ([(String, String)]) -> [(String, String)]
    ) -> ConformanceCase {
        ConformanceCase(
            "dta.\(id)", .dta, .must, title: title, source: dtaSource, sends: sends,
            expects: "a 4xx (\(preferred.sorted().map(String.init).joined(separator: "/"))) and no clientSecret"
        ) {
            context async throws(ConformanceError) in
            let (pairs, _) = try await signedParameters(context)
            let response = try await clientSecret(context, tamper(pairs))
            if response.json?["clientSecret"] != nil {
                return .fail("a client-secret share came back: \(response.status)")
            }
            return Expect.refusal(response, title.lowercased(), preferred: preferred)
        }
    }

    static var dta: [ConformanceCase] {
        [
            ConformanceCase(
                "dta.client-secret", .dta, .must, title: "D-TA 2 gives a G1 share for the signed request",
                source: dtaSource, sends: "GET certivoxURL clientSecret?<params of the signature>",
                expects: "200 {clientSecret: a point of G1}"
            ) { context async throws(ConformanceError) in
                let (pairs, _) = try await signedParameters(context)
                let response = try await clientSecret(context, pairs)
                guard response.status == 200 else { return .fail("answered \(response.summary)") }
                guard let share = response.json?["clientSecret"]?.stringValue, let bytes = Hex.decode(share),
                    MPin(curve: .bn254cx).isUncompressedG1(bytes)
                else {
                    return .fail("clientSecret is not a G1 point: \(response.excerpt)")
                }
                return .pass("a G1 share")
            },
            ConformanceCase(
                "dta.shares-differ", .dta, .should, title: "The two D-TAs hold different master secrets",
                source: dtaSource + " (two shares, s = s1 + s2)", sends: "the signature's share 1 and D-TA 2's share",
                expects: "two different points"
            ) { context async throws(ConformanceError) in
                let (pairs, share1) = try await signedParameters(context)
                let response = try await clientSecret(context, pairs)
                guard let share2 = response.json?["clientSecret"]?.stringValue else {
                    return .fail("D-TA 2 answered \(response.summary)")
                }
                return share1 == share2
                    ? .fail("both D-TAs gave the same share: one master secret, not two")
                    : .pass("the shares differ")
            },
            tamperCase(
                "signature-required", "A request without a signature is refused",
                sends: "clientSecret? without signature",
                preferred: [400, 401, 403]
            ) { replacing($0, "signature", with: nil) },
            tamperCase(
                "signature-checked", "A wrong signature is refused",
                sends: "clientSecret? with the signature's last digit changed",
                preferred: [401]
            ) { pairs in
                replacing(
                    pairs, "signature", with: pairs.first { $0.0 == "signature" }.map { flipLastHex($0.1) } ?? "00")
            },
            tamperCase(
                "hash-signed", "hash_mpin_id is covered by the signature",
                sends: "clientSecret? for another hash_mpin_id",
                preferred: [401]
            ) { pairs in
                replacing(
                    pairs, "hash_mpin_id", with: pairs.first { $0.0 == "hash_mpin_id" }.map { flipLastHex($0.1) } ?? "")
            },
            tamperCase(
                "expires-signed", "expires is covered by the signature",
                sends: "clientSecret? with expires a year later",
                preferred: [401]
            ) { pairs in
                replacing(pairs, "expires", with: pairs.first { $0.0 == "expires" }.map { laterYear($0.1) } ?? "")
            },
            tamperCase(
                "expired-signature", "An expired signature is refused",
                sends: "clientSecret? with expires in 2001 (signature unchanged)",
                preferred: [401, 408]
            ) { replacing($0, "expires", with: "2001-01-01T00%3A00%3A00Z") },
            tamperCase(
                "hash-length", "A short hash_mpin_id is refused", sends: "clientSecret? with a 10-digit hash_mpin_id",
                preferred: [400, 401, 403]
            ) { replacing($0, "hash_mpin_id", with: "0123456789") },
            tamperCase(
                "hash-not-hex", "A hash_mpin_id that is not hex is refused",
                sends: "clientSecret? with hash_mpin_id of 64 'z'",
                preferred: [400, 401, 403]
            ) { replacing($0, "hash_mpin_id", with: String(repeating: "z", count: 64)) },
            tamperCase(
                "app-id-required", "A request without app_id is refused", sends: "clientSecret? without app_id",
                preferred: [400, 401, 403]
            ) { replacing($0, "app_id", with: nil) },
        ]
    }

    /// Hex with its last digit changed.
    static func flipLastHex(_ text: String) -> String {
        guard let last = text.last else { return "0" }
        return String(text.dropLast()) + (last == "0" ? "1" : "0")
    }

    /// An ISO time (possibly percent-encoded) with its year one later.
    static func laterYear(_ text: String) -> String {
        guard let year = Int(text.prefix(4)) else { return text }
        return String(year + 1) + text.dropFirst(4)
    }
}
