import Foundation
import MPinCrypto
import OrderedJSON
import TestSupport
import Testing

/// One case of `Fixtures/json-cases.json` (its `about` says where the cases come from): a
/// document, the verdicts OrderedJSON and jansson must give, and what `cassette lint --portable`
/// must report.
struct SuiteCase: CustomTestStringConvertible, Sendable {
    enum Verdict: String, Sendable { case accept, reject }

    let name: String
    let bytes: [UInt8]
    /// OrderedJSON's verdict (repeated names kept); the prefix's unless the case says otherwise.
    let ours: Verdict
    /// jansson's verdict (JSON_DECODE_ANY | JSON_ALLOW_NUL); the prefix's unless the case says otherwise.
    let jansson: Verdict
    /// The kinds of `PortableJSON.Finding` expected, sorted.
    let portable: [String]

    var testDescription: String { name }

    /// The fixture file.
    static let path = RepoPaths.path("Tests/JSONOracleTests/Fixtures/json-cases.json")

    /// Every case of the fixture; a case that cannot be read is an error naming it.
    static func all() throws -> [SuiteCase] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try JSONParser.parse(Array(data))
        guard let items = root["cases"]?.arrayValue else { throw CaseError("\(path): no `cases` array") }
        return try items.enumerated().map { index, item in try SuiteCase(item, index: index) }
    }

    init(_ item: JSONValue, index: Int) throws {
        guard let name = item["name"]?.stringValue else { throw CaseError("\(Self.path): case \(index) has no name") }
        self.name = name
        if let text = item["text"]?.stringValue {
            bytes = Array(text.utf8)
        } else if let hex = item["hex"]?.stringValue, let decoded = Hex.decode(hex) {
            bytes = decoded
        } else {
            throw CaseError("\(Self.path): \(name) has neither `text` nor valid `hex`")
        }
        let prefix: Verdict?
        switch name.prefix(2) {
        case "y_": prefix = .accept
        case "n_": prefix = .reject
        case "i_": prefix = nil
        default: throw CaseError("\(Self.path): \(name) does not start with y_, n_ or i_")
        }
        func verdict(_ field: String) throws -> Verdict {
            if let text = item[field]?.stringValue {
                guard let verdict = Verdict(rawValue: text) else {
                    throw CaseError("\(Self.path): \(name).\(field) is \(text)")
                }
                return verdict
            }
            guard let prefix else { throw CaseError("\(Self.path): \(name) is an i_ case without `\(field)`") }
            return prefix
        }
        ours = try verdict("ours")
        jansson = try verdict("jansson")
        portable = (item["portable"]?.arrayValue ?? []).compactMap(\.stringValue).sorted()
    }
}

/// A fixture that cannot be read.
struct CaseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
