import Foundation
import MPinCrypto

/// Small files in the layouts of AMCL's published M-Pin vector files, made from the workbench's own
/// generated suites (`Vectors/generated/<curve>/mpin-two-pass.json`, `mpin-one-pass.json`, written
/// by `mpin-workbench vectors generate`), so that tests of those formats need no upstream data.
///
/// The layouts, as the upstream test programs read them:
/// * `cTwoPassText`, `cTwoPassJSON`: milagro-crypto-c's `testVectors/mpin/<curve>.txt`/`.json`
///   (read by `test/test_mpin_vectors_dta_ZZZ.c.in`): master secrets MS1, MS2 and every value of
///   the two-pass flow, SEC and SERVER_OUTPUT included; the JSON adds `mpin_id` and `test_no`.
/// * `cOnePassJSON`: the same repository's `<curve>OnePass.json`: `TimeValue`, and `SEC` holds the
///   final V (there is no `V`).
/// * `jsTwoPassJSON`: milagro-crypto-js's `testVectors/mpin/MPIN_<curve>.json` (read by
///   `test/test_MPIN.js`): the shares without master secrets, `ServerSecret` beside
///   `SERVER_SECRET`, no HASH_MPIN_ID_HEX, no SEC, no SERVER_OUTPUT.
/// * `jsOnePassJSON`: the same repository's `MPIN_ONE_PASS_<curve>.json`: shares, `SEC` holds V,
///   `TimeValue`, no SERVER_OUTPUT.
///
/// Vectors alternate between the suite's groups (with and without time permits) and include its
/// wrong-PIN cases; one-pass tests with a `MESSAGE` are left out (AMCL's one-pass challenge is
/// GET_Y(TimeValue, UT or U) alone). Tests edit `vectors(…)` in memory (drop, change, add a field) and `render` them.
package enum AMCLLayoutFile: String, CaseIterable, Sendable, CustomStringConvertible {
    case cTwoPassText, cTwoPassJSON, cOnePassJSON, jsTwoPassJSON, jsOnePassJSON

    package var description: String { rawValue }

    /// One field's value: hex and text are strings, DATE, PINs, TimeValue, SERVER_OUTPUT numbers.
    package enum Value: Equatable, Sendable {
        case text(String)
        case number(Int)

        package var text: String {
            switch self {
            case .text(let text): text
            case .number(let number): String(number)
            }
        }
    }

    /// One vector: its fields in the layout's order.
    package struct Vector: Sendable {
        package var fields: [(key: String, value: Value)]

        package init(fields: [(key: String, value: Value)]) {
            self.fields = fields
        }

        package subscript(key: String) -> Value? {
            get { fields.first { $0.key == key }?.value }
            set {
                if let index = fields.firstIndex(where: { $0.key == key }) {
                    if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
                } else if let newValue {
                    fields.append((key, newValue))
                }
            }
        }

        /// Changes the last hex digit of `key` (a mutation that keeps the value hex).
        package mutating func flipLastDigit(of key: String) {
            guard case .text(var text) = self[key], let last = text.popLast() else { return }
            text.append(last == "0" ? "1" : "0")
            self[key] = .text(text)
        }
    }

    /// Whether the layout is a text file of `KEY = value,` blocks (else a JSON list).
    package var isText: Bool { self == .cTwoPassText }
    package var isOnePass: Bool { self == .cOnePassJSON || self == .jsOnePassJSON }

    /// The generated suite the vectors come from.
    var suite: String { isOnePass ? "mpin-one-pass" : "mpin-two-pass" }

    /// The layout's keys in order, each with the generated suite's key it is read from.
    var keys: [(key: String, source: String)] {
        func same(_ keys: String...) -> [(String, String)] { keys.map { ($0, $0) } }
        switch self {
        case .cTwoPassText, .cTwoPassJSON:
            return same(
                "MS1", "MS2", "SS1", "SS2", "SERVER_SECRET", "MPIN_ID_HEX", "HASH_MPIN_ID_HEX", "DATE", "PIN1",
                "PIN2", "CS1", "CS2", "CLIENT_SECRET", "TP1", "TP2", "TIME_PERMIT", "TOKEN", "X", "U", "UT", "SEC",
                "Y", "V", "SERVER_OUTPUT")
        case .cOnePassJSON:
            return [("TimeValue", "TIME_VALUE")]
                + same(
                    "MS1", "MS2", "SS1", "SS2", "SERVER_SECRET", "MPIN_ID_HEX", "HASH_MPIN_ID_HEX", "DATE", "PIN1",
                    "PIN2", "CS1", "CS2", "CLIENT_SECRET", "TP1", "TP2", "TIME_PERMIT", "TOKEN", "X", "U", "UT")
                + [("SEC", "V")] + same("Y", "SERVER_OUTPUT")
        case .jsTwoPassJSON:
            return same("MPIN_ID_HEX", "SS1", "SS2") + [("ServerSecret", "SERVER_SECRET")]
                + same(
                    "SERVER_SECRET", "CS1", "CS2", "CLIENT_SECRET", "DATE", "TP1", "TP2", "TIME_PERMIT", "PIN1", "PIN2",
                    "TOKEN", "Y", "U", "UT", "X", "V")
        case .jsOnePassJSON:
            return same(
                "MPIN_ID_HEX", "SS1", "SS2", "SERVER_SECRET", "CS1", "CS2", "CLIENT_SECRET", "TOKEN", "DATE",
                "TP1", "TP2", "TIME_PERMIT", "PIN1", "PIN2", "U", "UT", "X", "Y")
                + [("SEC", "V"), ("TimeValue", "TIME_VALUE")]
        }
    }

    static let numericKeys: Set<String> = ["DATE", "PIN1", "PIN2", "SERVER_OUTPUT", "TIME_VALUE"]

    /// A file name that names the curve (`vectors verify` reads the curve from it).
    package func fileName(curve: String = "bn254cx") -> String {
        let upper = curve.uppercased()
        switch self {
        case .cTwoPassText: return "mpin_\(upper).txt"
        case .cTwoPassJSON: return "mpin_\(upper).json"
        case .cOnePassJSON: return "mpin_\(upper)OnePass.json"
        case .jsTwoPassJSON: return "MPIN_\(upper).json"
        case .jsOnePassJSON: return "MPIN_ONE_PASS_\(upper).json"
        }
    }

    /// The first `count` vectors of the committed generated suite for `curve` in this layout.
    package func vectors(curve: String = "bn254cx", count: Int) throws -> [Vector] {
        let path = RepoPaths.path("Vectors/generated/\(curve)/\(suite).json")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let groups = document["testGroups"] as? [[String: Any]]
        else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
        }
        // A one-pass test with a MESSAGE has a challenge no AMCL layout can carry: left out.
        let perGroup = groups.map { (($0["tests"] as? [[String: Any]]) ?? []).filter { $0["MESSAGE"] == nil } }
        var tests: [[String: Any]] = []
        var index = 0
        while tests.count < count, perGroup.contains(where: { index < $0.count }) {
            for group in perGroup where index < group.count && tests.count < count { tests.append(group[index]) }
            index += 1
        }
        return tests.enumerated().map { number, test in
            var vector = Vector(fields: [])
            for (key, source) in keys {
                guard let raw = test[source] else { continue }
                if Self.numericKeys.contains(source), let number = (raw as? NSNumber)?.intValue {
                    vector.fields.append((key, .number(number)))
                } else if let text = raw as? String {
                    vector.fields.append((key, .text(text)))
                }
            }
            if self == .cTwoPassJSON || self == .cOnePassJSON, case .text(let hex) = vector["MPIN_ID_HEX"] {
                vector.fields.append(("mpin_id", .text(String(decoding: Hex.decode(hex) ?? [], as: UTF8.self))))
                vector.fields.append(("test_no", .number(number)))
            }
            return vector
        }
    }

    /// The file's text: blocks of `KEY = value,` under a comment that names the curve, or a JSON list.
    package func render(_ vectors: [Vector], curve: String = "bn254cx") -> String {
        if isText {
            let blocks = vectors.map { vector in
                vector.fields.map { "\($0.key) = \($0.value.text),\n" }.joined()
            }
            return "# M-Pin two-pass vectors, curve \(curve.uppercased()), from the workbench's generated suite\n\n"
                + blocks.joined(separator: "\n")
        }
        let entries = vectors.map { vector in
            "{"
                + vector.fields.map { key, value in
                    switch value {
                    case .number(let number): "\"\(key)\": \(number)"
                    case .text(let text): "\"\(key)\": \(Self.quoted(text))"
                    }
                }.joined(separator: ", ") + "}"
        }
        return "[" + entries.joined(separator: ",\n") + "]\n"
    }

    /// Renders `vectors` into a new temporary folder under this layout's file name; returns the path.
    package func write(_ vectors: [Vector], curve: String = "bn254cx") throws -> String {
        let path = try TemporaryDirectory.make("amcl-layout") + "/" + fileName(curve: curve)
        try Data(render(vectors, curve: curve).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
