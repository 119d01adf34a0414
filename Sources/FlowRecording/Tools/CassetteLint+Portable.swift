import Foundation
import OrderedJSON

extension CassetteLint {
    /// `cassette lint --portable`: what a C consumer on jansson would read differently in the file
    /// at `path` (see `PortableJSON`), in the file itself and in the body of every exchange that is
    /// JSON. Empty when there is nothing, or when the file is not JSON (the plain check reports that).
    public static func checkPortable(path: String) -> [Problem] {
        guard let bytes = try? CassetteFile.readBytes(path) else { return [] }
        return checkPortable(bytes: bytes, path: path)
    }

    /// The findings for cassette bytes: one problem per finding, `line L, column C: $.path: what`
    /// for the file, and for a body the place of its `text` (or `base64`) member followed by the
    /// place and path inside the body.
    public static func checkPortable(bytes: [UInt8], path: String) -> [Problem] {
        guard let fileFindings = PortableJSON.findings(in: bytes),
            let document = try? JSONParser.parseDocument(bytes, duplicateMembers: .keep)
        else { return [] }
        var messages = fileFindings.map(\.description)
        for (index, event) in (document.value["events"]?.arrayValue ?? []).enumerated() {
            for side in ["request", "response"] {
                guard let body = event[side]?["body"] else { continue }
                let bodyPath = JSONPath.root.member("events").index(index).member(side).member("body")
                let source: (name: String, bytes: [UInt8])
                if let text = body["text"]?.stringValue {
                    source = ("text", Array(text.utf8))
                } else if let encoded = body["base64"]?.stringValue, let data = Data(base64Encoded: encoded) {
                    source = ("base64", Array(data))
                } else {
                    continue
                }
                guard !source.bytes.isEmpty, let findings = PortableJSON.findings(in: source.bytes) else { continue }
                let sourcePath = bodyPath.member(source.name)
                let place = document.position(of: sourcePath).map { "line \($0.line), column \($0.column): " } ?? ""
                for finding in findings {
                    messages.append(
                        "\(place)\(sourcePath), the body's JSON at its line \(finding.position.line), column "
                            + "\(finding.position.column), \(finding.path): \(finding.message)")
                }
            }
        }
        return messages.map { Problem(path: path, message: $0) }
    }
}
