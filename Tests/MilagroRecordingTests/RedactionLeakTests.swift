import FlowRecording
import Foundation
import MilagroRecording
import MPinCrypto
import Scenarios
import ScenarioTestSupport
import TestSupport
import Testing

/// The default redaction leaves no secret that can be recovered: each known derivation of the
/// client secret (SEC − TP, −(x+y)⁻¹·V, the raw draws into x) works on a plain recording and fails
/// on the redacted one made with the same seed, and every value of the plain recording is either
/// absent from the redacted one or under a field listed as public with a reason.
@Suite struct RedactionLeakTests {
    /// `authenticate` uses time permits (Milagro); `mfa-qr-login` has none (the MFA platform); the
    /// others bring OTPs, activation codes, access numbers and authorization codes.
    static let scenarios = ["authenticate", "mfa-qr-login", "otp", "register-code", "access-number-logout", "mfa-authz-login"]

    func record(_ name: String) async throws -> (plain: Cassette, redacted: Cassette) {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/\(name).yaml")
        let plain = try await recordEmbedded(script, seed: "leak")
        return (plain, Redactor(fields: Redactor.milagroFields).redact(plain))
    }

    static func outputs(_ cassette: Cassette, _ primitive: String, _ name: String) -> [String] {
        cassette.events.compactMap { event in
            guard case .crypto(let step) = event.payload, step.primitive == primitive else { return nil }
            return step.outputs.first { $0.name == name }?.value
        }
    }

    @Test(arguments: scenarios) func derivationsWorkOnPlainAndFailOnRedacted(_ name: String) async throws {
        let (plain, redacted) = try await record(name)
        let clientSecret = try #require(Self.outputs(plain, "recombineG1", "clientSecret").first)
        let xs = Self.outputs(plain, "randomScalar", "x")
        let tried = MilagroAudit.derivations(plain)
        let kinds = Set(tried.map(\.name))
        #expect(kinds == ["SEC − TP", "−(x+y)⁻¹·V", "draws → x"], "\(tried)")
        // Every draw gives its x; each derivation of the client secret gives it at a login with the
        // right PIN (after a wrong PIN, SEC is off by the PIN difference times H(ID)).
        for derivation in tried {
            let result = try #require(derivation.result.map(Hex.encode), "\(derivation)")
            if derivation.name == "draws → x" { #expect(xs.contains(result), "\(derivation)") }
        }
        for kind in ["SEC − TP", "−(x+y)⁻¹·V"] {
            #expect(tried.contains { $0.name == kind && $0.result.map(Hex.encode) == clientSecret }, "\(kind): \(tried)")
        }
        let afterRedaction = MilagroAudit.derivations(redacted)
        #expect(afterRedaction.count == tried.count)
        for derivation in afterRedaction { #expect(derivation.result == nil, "\(derivation)") }
        let report = MilagroAudit.audit(redacted)
        #expect(report.isShareable && report.clearSecrets.isEmpty, "\(report.clearSecrets)")
        #expect(!MilagroAudit.audit(plain).isShareable)
    }

    @Test(arguments: scenarios) func everyPlainValueIsGoneOrPublic(_ name: String) async throws {
        let (plain, redacted) = try await record(name)
        let text = redacted.canonicalText
        let kept = Set(MilagroAudit.fields(redacted).map(\.value))
        var leaks: [String] = []
        for (index, field, value) in MilagroAudit.fields(plain) where !value.isEmpty {
            guard kept.contains(value) || text.contains(value) else { continue }
            if Redactor.milagroPublic[field] == nil { leaks.append("event \(index): \(field) = \(value.prefix(40))") }
        }
        #expect(leaks.isEmpty, "kept in clear and not listed as public:\n\(leaks.joined(separator: "\n"))")
        for (field, reason) in Redactor.milagroPublic { #expect(reason.count > 10, "\(field): no reason given") }
    }
}
