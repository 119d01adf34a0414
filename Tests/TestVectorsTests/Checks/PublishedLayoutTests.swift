import Foundation
import MPinCrypto
import TestSupport
import Testing

@testable import TestVectors

/// The format rules of AMCL's published M-Pin layouts (`MPinEnrolment.Layout`), on small files
/// made from the workbench's generated suites (`AMCLLayoutFile`): a field a format never has is not
/// demanded, a field a vector has is always checked, a field the format requires fails when missing.
@Suite("VectorVerifier: AMCL's published layouts")
struct PublishedLayoutTests {
    let verifier = VectorVerifier()
    static let count = 6

    func verify(_ layout: AMCLLayoutFile, _ vectors: [AMCLLayoutFile.Vector]) throws -> FileReport {
        let path = try layout.write(vectors)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        return try verifier.verify(path: path)
    }

    /// The failing fields of a report, in order.
    static func failedFields(_ report: FileReport) -> [String] { report.verdicts.flatMap(\.failures).map(\.field) }

    @Test("each layout made from the generated suites passes, with every key read", arguments: AMCLLayoutFile.allCases)
    func layoutPasses(layout: AMCLLayoutFile) throws {
        let vectors = try layout.vectors(count: Self.count)
        #expect(vectors.count == Self.count)
        let path = try layout.write(vectors)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let loaded = try verifier.load(path: path)
        #expect(loaded.format == (layout.isOnePass ? .onePass : .twoPass))
        #expect(loaded.curve == .bn254cx)
        let verdicts = verifier.check(loaded)
        #expect(verdicts.count == Self.count)
        #expect(verdicts.allSatisfy { $0.passed }, "\(verdicts.flatMap(\.failures).prefix(4))")
        #expect(verifier.unusedKeys(loaded).isEmpty)
    }

    @Test(
        "milagro-crypto-js two-pass: SEC, SERVER_OUTPUT and HASH_MPIN_ID_HEX are not demanded, but compared when given",
        arguments: ["SEC", "SERVER_OUTPUT", "HASH_MPIN_ID_HEX"])
    func sharesOptionalFieldsAreChecked(key: String) throws {
        let plain = try AMCLLayoutFile.jsTwoPassJSON.vectors(count: Self.count)
        let full = try AMCLLayoutFile.cTwoPassJSON.vectors(count: Self.count)
        #expect(plain.allSatisfy { $0[key] == nil })
        let before = try verify(.jsTwoPassJSON, plain)
        var given = plain
        for index in given.indices { given[index][key] = full[index][key] }
        let report = try verify(.jsTwoPassJSON, given)
        #expect(report.failed == 0)
        #expect(zip(report.verdicts, before.verdicts).allSatisfy { $0.checkedFields == $1.checkedFields + 1 })
        // A wrong value of the optional field fails that field only.
        if key == "SERVER_OUTPUT" {
            given[0][key] = .number(given[0][key] == .number(0) ? -19 : 0)
        } else {
            given[0].flipLastDigit(of: key)
        }
        let wrong = try verify(.jsTwoPassJSON, given)
        #expect(wrong.failed == 1)
        #expect(Self.failedFields(wrong) == [key])
    }

    @Test(
        "ServerSecret and SERVER_SECRET are each checked as SS1 + SS2: one changed digit fails that field",
        arguments: ["ServerSecret", "SERVER_SECRET"])
    func serverSecretMutation(key: String) throws {
        var vectors = try AMCLLayoutFile.jsTwoPassJSON.vectors(count: Self.count)
        vectors[2].flipLastDigit(of: key)
        let report = try verify(.jsTwoPassJSON, vectors)
        #expect(report.failed == 1)
        #expect(!report.verdicts[2].passed)
        #expect(Self.failedFields(report) == [key])
    }

    @Test("either server-secret key may be absent; without both, SERVER_SECRET is missing")
    func serverSecretKeys() throws {
        let vectors = try AMCLLayoutFile.jsTwoPassJSON.vectors(count: Self.count)
        for key in ["ServerSecret", "SERVER_SECRET"] {
            var dropped = vectors
            dropped[1][key] = nil
            #expect(try verify(.jsTwoPassJSON, dropped).failed == 0, "without \(key)")
        }
        var neither = vectors
        neither[1]["ServerSecret"] = nil
        neither[1]["SERVER_SECRET"] = nil
        let report = try verify(.jsTwoPassJSON, neither)
        #expect(Self.failedFields(report) == ["SERVER_SECRET"])
        #expect(report.verdicts[1].failures.first?.expected.hasPrefix("(missing") == true)
    }

    static let jsTwoPassRequired = [
        "MPIN_ID_HEX", "SS1", "SS2", "CS1", "CS2", "CLIENT_SECRET", "DATE", "TP1", "TP2", "TIME_PERMIT", "PIN1", "PIN2",
        "TOKEN", "Y", "U", "UT", "X", "V",
    ]

    @Test(
        "milagro-crypto-js two-pass: a vector without a field the format requires fails, naming it",
        arguments: jsTwoPassRequired)
    func sharesRequiredField(key: String) throws {
        var vectors = try AMCLLayoutFile.jsTwoPassJSON.vectors(count: Self.count)
        #expect(vectors[0][key] != nil)
        vectors[0][key] = nil
        let report = try verify(.jsTwoPassJSON, vectors)
        #expect(report.failed == 1)
        #expect(!report.verdicts[0].passed)
        #expect(report.verdicts[0].failures.first?.field == key, "\(report.verdicts[0].failures)")
    }

    @Test(
        "milagro-crypto-js one-pass: a vector without a field the format requires fails, naming it",
        arguments: [
            "MPIN_ID_HEX", "SS1", "CS2", "CLIENT_SECRET", "TOKEN", "DATE", "PIN1", "PIN2", "U", "UT", "X", "Y", "SEC",
            "TimeValue",
        ])
    func sharesOnePassRequiredField(key: String) throws {
        var vectors = try AMCLLayoutFile.jsOnePassJSON.vectors(count: Self.count)
        vectors[0][key] = nil
        let report = try verify(.jsOnePassJSON, vectors)
        #expect(report.failed == 1)
        #expect(report.verdicts[0].failures.first?.field == key, "\(report.verdicts[0].failures)")
    }

    @Test(
        "milagro-crypto-c layouts: SEC, SERVER_OUTPUT and HASH_MPIN_ID_HEX are required",
        arguments: [
            (AMCLLayoutFile.cTwoPassText, "SEC"), (.cTwoPassText, "SERVER_OUTPUT"), (.cTwoPassJSON, "HASH_MPIN_ID_HEX"),
            (.cOnePassJSON, "SEC"), (.cOnePassJSON, "SERVER_OUTPUT"), (.cOnePassJSON, "HASH_MPIN_ID_HEX"),
        ])
    func masterSecretsRequired(layout: AMCLLayoutFile, key: String) throws {
        var vectors = try layout.vectors(count: Self.count)
        vectors[3][key] = nil
        let report = try verify(layout, vectors)
        #expect(report.failed == 1)
        #expect(Self.failedFields(report) == [key])
    }

    @Test("the layout is the file's: a vector of a master-secrets file without MS1 and MS2 fails, shares or not")
    func layoutIsPerFile() throws {
        var vectors = try AMCLLayoutFile.cTwoPassJSON.vectors(count: Self.count)
        vectors[4]["MS1"] = nil
        vectors[4]["MS2"] = nil
        let report = try verify(.cTwoPassJSON, vectors)
        #expect(report.failed == 1)
        #expect(Set(Self.failedFields(report)).isSuperset(of: ["MS1", "MS2"]))
    }

    @Test("a shares vector with nothing checkable fails")
    func nothingToCheck() throws {
        let report = try verify(
            .jsTwoPassJSON, [AMCLLayoutFile.Vector(fields: [("SS1", .text("00")), ("U", .text("04"))])])
        #expect(report.failed == 1)
        #expect(report.verdicts[0].failures.contains { $0.field == "(vector)" })
        #expect(report.verdicts[0].failures.contains { $0.field == "SS2" })
    }

    @Test("a field no format has fails in the shares layout too")
    func unknownField() throws {
        var vectors = try AMCLLayoutFile.jsTwoPassJSON.vectors(count: 2)
        vectors[1]["ServerSecrets"] = vectors[1]["ServerSecret"]
        let report = try verify(.jsTwoPassJSON, vectors)
        #expect(Self.failedFields(report) == ["ServerSecrets"])
    }
}
