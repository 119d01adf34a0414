import FlowRecording
import Foundation
import MPinCrypto
import MilagroRecording
import SDKSeams
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// The default redaction leaves no secret that can be recovered: each known derivation of the
/// client secret (SEC − TP, −(x+y)⁻¹·V, the raw draws into x) works on a plain recording and fails
/// on the redacted one made with the same seed, and every value of the plain recording is either
/// absent from the redacted one or under a field listed as public with a reason.
@Suite struct RedactionLeakTests {
    /// `authenticate` uses time permits (Milagro); `mfa-qr-login` has none (the MFA platform); the
    /// others bring OTPs, activation codes, access numbers and authorization codes.
    static let scenarios = [
        "authenticate", "mfa-qr-login", "otp", "register-code", "access-number-logout", "mfa-authz-login",
    ]

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
        #expect(kinds.isSuperset(of: ["SEC − TP", "−(x+y)⁻¹·V", "draws → x", "seed → draws → x"]), "\(tried)")
        // Every draw gives its x; each derivation of the client secret gives it at a login with the
        // right PIN (after a wrong PIN, SEC is off by the PIN difference times H(ID)).
        for derivation in tried where !derivation.name.hasPrefix("PIN") && derivation.name != "wrong-PIN δ" {
            let result = try #require(derivation.result.map(Hex.encode), "\(derivation)")
            if derivation.name.hasSuffix("→ x") { #expect(xs.contains(result), "\(derivation)") }
        }
        for kind in ["SEC − TP", "−(x+y)⁻¹·V"] {
            #expect(
                tried.contains { $0.name == kind && $0.result.map(Hex.encode) == clientSecret }, "\(kind): \(tried)")
        }
        // The same per-login derivations are tried (the seed search and the PIN searches only run
        // where they have something to start from), and every one fails.
        let perLogin: Set<String> = ["SEC − TP", "−(x+y)⁻¹·V", "draws → x"]
        let afterRedaction = MilagroAudit.derivations(redacted)
        #expect(
            afterRedaction.filter { perLogin.contains($0.name) }.count
                == tried.filter { perLogin.contains($0.name) }.count)
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

    /// Every bundled scenario, and the events and strings of its files: nothing of the plain
    /// recording that is six characters or more survives the default redaction unless its field
    /// is listed as public (or the same text is also a public value or a URL path segment of the
    /// flow, like the seed `devicesecurity`), the seed is gone from the header and the script, and
    /// no derivation works from what the file holds: not with its seed, not with any of its strings.
    @Test(arguments: RepoPaths.library.files().map { ($0 as NSString).lastPathComponent })
    func everyBundledScenarioKeepsNothingDerivable(_ file: String) async throws {
        let path = try #require(RepoPaths.library.files().first { ($0 as NSString).lastPathComponent == file })
        let script = try ScriptParser.parse(file: path)
        // A seed of this test's own, which no default and no other string of the flow equals: what
        // the file alone gives is then what its redaction left.
        let seed = "twin " + file
        let plain = try await recordEmbedded(script, seed: seed)
        let redacted = Redactor(fields: Redactor.milagroFields).redact(plain)
        #expect(
            redacted.scenario.seed.flatMap(Placeholder.whole) != nil,
            "the seed stays in the header: \(String(describing: redacted.scenario.seed))")
        let leaks = Self.twinLeaks(plain: plain, redacted: redacted)
        #expect(leaks.isEmpty, "kept in clear and not listed as public:\n\(leaks.joined(separator: "\n"))")
        for derivation in MilagroAudit.derivations(redacted) {
            #expect(derivation.result == nil, "\(derivation)")
        }
        // The redaction of before, which kept the seed: the seed gives x, SEC and the client secret.
        let seedKept = Redactor(fields: Redactor.milagroFields.filter { $0 != Redactor.seedField }).redact(plain)
        let logins = plain.events.contains {
            if case .crypto(let step) = $0.payload { step.primitive == "client2" } else { false }
        }
        let leaked = MilagroAudit.derivations(seedKept)
        #expect(leaked.contains { $0.name == "seed → draws → x" && $0.result != nil } == logins, "\(leaked)")
        #expect(MilagroAudit.audit(seedKept).isShareable == false)
        // With the workbench's own seeds tried too, what works is the throwaway embedded backend's.
        let report = MilagroAudit.audit(redacted, seeds: [.init(seed: seed, source: "the bundled scenario's seed")])
        #expect(report.isShareable, "\(report.clearSecrets) \(report.possible)")
        #expect(report.possible.allSatisfy { $0.throwaway })
        #expect(report.possible.contains { $0.name == "−(x+y)⁻¹·V" } == logins)
    }

    /// What of the plain twin is still in the redacted one without a reason: every value of six
    /// characters or more (named values, the header's seed and the script's strings) found in the
    /// redacted file's text, unless its field is public or the same text is a public value or a
    /// URL path segment of the plain flow.
    static func twinLeaks(plain: Cassette, redacted: Cassette) -> [String] {
        let text = redacted.canonicalText
        var publicTexts: Set<String> = []
        for (_, field, value) in MilagroAudit.fields(plain) where Redactor.milagroPublic[field] != nil {
            publicTexts.insert(value)
        }
        for (_, exchange) in plain.httpExchanges {
            for segment in exchange.request.url.split(separator: "?")[0].split(separator: "/") {
                publicTexts.insert(String(segment))
            }
        }
        var values = MilagroAudit.fields(plain).map { (String($0.event), $0.field, $0.value) }
        if let seed = plain.scenario.seed { values.append(("scenario", "seed", seed)) }
        if case .object(let members)? = plain.scenario.script {
            for member in members {
                if case .string(let text) = member.value { values.append(("script", member.name, text)) }
            }
        }
        var leaks: [String] = []
        for (at, field, value) in values where value.count >= 6 && text.contains(value) {
            if Redactor.milagroPublic[field] == nil && !publicTexts.contains(value) {
                leaks.append("\(at): \(field) = \(value.prefix(40))")
            }
        }
        return leaks
    }

    /// A live recording, as `record --backend` makes one now: the SDK draws from the system's
    /// generator, the cassette names no seed, and after the default redaction no derivation works,
    /// whatever seed is tried; the twin check holds too.
    @Test func aLiveRecordingKeepsNothingDerivable() async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let plain = try await recordLive(script, random: SystemRandomSource(), seed: nil)
        #expect(plain.scenario.seed == nil)
        let redacted = Redactor(fields: Redactor.milagroFields).redact(plain)
        let leaks = Self.twinLeaks(plain: plain, redacted: redacted)
        #expect(leaks.isEmpty, "\(leaks)")
        let seeds: [MilagroAudit.SeedCandidate] = ["workbench", "replay", "leak", script.seed ?? ""].map {
            .init(seed: $0, source: "a default")
        }
        let report = MilagroAudit.audit(redacted, seeds: seeds)
        #expect(report.isShareable && report.possible.isEmpty, "\(report.possible)")
        // Unredacted, its draws give x and the client secret.
        #expect(MilagroAudit.audit(plain).possible.contains { $0.name == "−(x+y)⁻¹·V" })
    }

    /// A live recording made as `record --backend` made it before (the default seed drives the
    /// SDK): even with the seed redacted from the file, the workbench's default seed gives x
    /// (checked against U), then SEC and the client secret, and the audit names them.
    @Test func aLiveRecordingOnTheDefaultSeedIsNotShareable() async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let plain = try await recordLive(script, random: SeededRandomSource(seed: "workbench"), seed: "workbench")
        let clientSecret = try #require(Self.outputs(plain, "recombineG1", "clientSecret").first)
        let redacted = Redactor(fields: Redactor.milagroFields).redact(plain)
        let report = MilagroAudit.audit(
            redacted, seeds: [.init(seed: "workbench", source: "the workbench's default seed")])
        #expect(!report.isShareable)
        let seeded = try #require(report.possible.first { $0.name == "seed → draws → x" }, "\(report.derivations)")
        #expect(seeded.note.contains("the workbench's default seed") && !seeded.throwaway)
        #expect(
            report.possible.contains {
                $0.name == "−(x+y)⁻¹·V" && $0.result.map(Hex.encode) == clientSecret && !$0.events.isEmpty
            },
            "\(report.possible)")
        // The wrong PIN's attempt gives its PIN difference, the search over ±9,999 finding it.
        #expect(report.possible.contains { $0.name == "wrong-PIN δ" }, "\(report.possible)")
        // Without the default among the seeds, it is not found from the file alone.
        #expect(MilagroAudit.audit(redacted).possible.isEmpty)
    }

    /// With the client secret derivable, a token left in clear gives the PIN by a search of all
    /// 10,000 PINs.
    @Test func aTokenInClearGivesThePIN() async throws {
        let script = try ScriptParser.parse(file: RepoPaths.scenarios + "/authenticate.yaml")
        let plain = try await recordEmbedded(script, seed: "leak")
        let partly = Redactor(fields: ["pin"]).redact(plain)
        let found = MilagroAudit.derivations(partly).filter { $0.name == "PIN search" && $0.result != nil }
        #expect(!found.isEmpty && found.allSatisfy { $0.result == Array("1234".utf8) }, "\(found)")
    }
}
