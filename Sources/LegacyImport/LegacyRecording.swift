import CommonFormats
import FlowRecording
import MilagroProtocol
import OrderedJSON
import Scenarios

/// A recording of the Milagro C++ SDK core's test harness (`tests/common/http_recorder.cpp`), read
/// and checked: its exchanges in file order, each with the test it belongs to.
///
/// The file is a JSON array of `{request: {method, url, data, context}, response: {success, error,
/// httpStatus, headers, data}}`. The test is the part of `context` after the last `@`. Exchanges with
/// an empty context (the harness's browser helper in the access-number tests) belong to the test in
/// progress, or to the next one from the request that opens its browser session on
/// (`attributeUnnamed`).
package struct LegacyRecording: Sendable {
    /// One recorded exchange.
    package struct Exchange: Sendable {
        /// Position in the file (0-based).
        package var index: Int
        /// The line where it starts.
        package var line: Int
        /// The test it belongs to.
        package var test: String
        /// Whether its own context named the test (false: attributed to the test in progress).
        package var namesTest: Bool
        package var exchange: CassetteEvent.HTTPExchange

        package var method: String { exchange.request.method }
        package var url: String { exchange.request.url }
        package var path: String { URLText.path(exchange.request.url) }
        package var context: String { exchange.context ?? "" }
    }

    package var path: String
    package var exchanges: [Exchange]

    /// The tests, in order of first appearance, told apart by their exact text: two names that
    /// differ only in their Unicode form (`é` and `e` + U+0301, which Swift strings hold equal) are
    /// two tests, never merged.
    package var tests: [String] {
        var seen: Set<[UInt8]> = []
        return exchanges.compactMap { seen.insert(Array($0.test.utf8)).inserted ? $0.test : nil }
    }

    /// The name given to exchanges of a file whose contexts name no test at all.
    package static let unnamedTest = "unnamed"
    /// The most exchanges a file may hold (the upstream suite's run has 99).
    package static let maximumExchanges = 10_000

    /// Reads the file's bytes; every error names the file, the line and the field.
    package static func parse(_ bytes: [UInt8], path: String) throws(LegacyImporter.ImportError) -> LegacyRecording {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(bytes)
        } catch {
            throw .init(path: path, line: error.line, message: "not valid JSON: \(error.message)")
        }
        guard let items = document.value.arrayValue else {
            throw .init(
                path: path, line: nil,
                message: "expected a JSON array of recorded exchanges, found \(document.value.kindName)")
        }
        guard items.count <= maximumExchanges else {
            throw .init(
                path: path, line: document.line(of: JSONPath([.index(maximumExchanges)])),
                message: "\(items.count) recorded exchanges; a file may hold at most \(maximumExchanges)")
        }
        var exchanges: [Exchange] = []
        for (index, item) in items.enumerated() {
            exchanges.append(try exchange(item, index: index, document: document, path: path))
        }
        attributeUnnamed(&exchanges)
        return LegacyRecording(path: path, exchanges: exchanges)
    }

    /// Gives each run of exchanges without a test name to a test: the test before the run, except
    /// from a request that opens a browser session (`/rps/getAccessNumber`, `/rps/getQrUrl`) on,
    /// which starts the next test's browser side; a run before any named exchange, or one that opens
    /// a session, goes with the next named test (the last one when none follows).
    static func attributeUnnamed(_ exchanges: inout [Exchange]) {
        var position = 0
        while position < exchanges.count {
            guard !exchanges[position].namesTest else {
                position += 1
                continue
            }
            var end = position
            while end < exchanges.count, !exchanges[end].namesTest { end += 1 }
            let before = position > 0 ? exchanges[position - 1].test : nil
            let after = end < exchanges.count ? exchanges[end].test : nil
            var opened = false
            for index in position..<end {
                if [Endpoint.getAccessNumber.path, Endpoint.getQrURL.path].contains(exchanges[index].path) {
                    opened = true
                }
                exchanges[index].test = (opened ? after ?? before : before ?? after) ?? unnamedTest
            }
            position = end
        }
    }

    static func exchange(_ item: JSONValue, index: Int, document: JSONDocument, path: String) throws(LegacyImporter
        .ImportError) -> Exchange
    {
        let at = JSONPath([.index(index)])
        func fail(_ field: JSONPath, _ message: String) -> LegacyImporter.ImportError {
            var line: Int?
            var probe = field.components
            while line == nil, !probe.isEmpty {
                line = document.line(of: JSONPath(probe))
                probe.removeLast()
            }
            return .init(path: path, line: line, message: "exchange \(index): \(message)")
        }
        func name(_ field: JSONPath) -> String {
            field.components.dropFirst().map { component -> String in
                if case .member(let member) = component { return member }
                return "?"
            }.joined(separator: ".")
        }
        func value(_ field: JSONPath, required: Bool = true) throws(LegacyImporter.ImportError) -> JSONValue? {
            guard let found = document.value.value(at: field) else {
                if required { throw fail(field, "missing \(name(field))") }
                return nil
            }
            return found
        }
        func text(_ field: JSONPath, required: Bool = true) throws(LegacyImporter.ImportError) -> String {
            guard let raw = try value(field, required: required) else { return "" }
            guard let string = raw.stringValue else {
                throw fail(field, "\(name(field)) should be a string, found \(raw.kindName)")
            }
            return string
        }
        guard item.objectMembers != nil else {
            throw fail(at, "expected an object with request and response, found \(item.kindName)")
        }
        let request = at.member("request"), response = at.member("response")
        for part in [request, response] {
            guard let found = try value(part) else { continue }
            if found.objectMembers == nil {
                throw fail(part, "\(name(part)) should be an object, found \(found.kindName)")
            }
        }
        let method = try text(request.member("method"))
        guard !method.isEmpty, method.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw fail(request.member("method"), "request.method \"\(method)\" is not an HTTP method")
        }
        let url = try text(request.member("url"))
        if let problem = CassetteLint.urlProblem(url) { throw fail(request.member("url"), "request.url: \(problem)") }
        let context = try text(request.member("context"), required: false)
        let body = try text(request.member("data"), required: false)
        var exchange = CassetteEvent.HTTPExchange(
            request: .init(method: method, url: url, body: Array(body.utf8)), context: context)

        var success = true
        if let flag = try value(response.member("success"), required: false) {
            guard let bool = flag.boolValue else {
                throw fail(
                    response.member("success"), "response.success should be true or false, found \(flag.kindName)")
            }
            success = bool
        }
        let statusField = response.member("httpStatus")
        var status = 0
        if let rawStatus = try value(statusField, required: success) {
            guard let number = rawStatus.intValue else {
                throw fail(
                    statusField,
                    "response.httpStatus should be an integer, found \(rawStatus.kindName) \(JSONWriter.compact(rawStatus))"
                )
            }
            status = number
        }
        if success {
            guard (100...599).contains(status) else {
                throw fail(
                    statusField,
                    "response.httpStatus \(status) is not an HTTP status (100 to 599) though response.success is true")
            }
            var headers = HTTPHeadersValue()
            if let raw = try value(response.member("headers"), required: false) {
                guard let members = raw.objectMembers else {
                    throw fail(
                        response.member("headers"), "response.headers should be an object, found \(raw.kindName)")
                }
                guard members.count <= CassetteLimits.maximumHeaders else {
                    throw fail(
                        response.member("headers"),
                        "response.headers has \(members.count) fields; a response has at most "
                            + "\(CassetteLimits.maximumHeaders)")
                }
                for member in members {
                    let field = response.member("headers").member(member.name)
                    guard let headerValue = member.value.stringValue else {
                        throw fail(
                            field, "response.headers.\(member.name) should be a string, found \(member.value.kindName)")
                    }
                    guard CassetteLimits.isHeaderName(member.name) else {
                        throw fail(
                            field,
                            "response.headers: \(JSONDiff.brief(.string(member.name))) is not a header name "
                                + "(letters, digits and !#$%&'*+-.^_`|~; no spaces, colons, CR or LF)")
                    }
                    guard CassetteLimits.isHeaderValue(headerValue) else {
                        throw fail(
                            field,
                            "response.headers.\(member.name) has a control character (CR, LF, NUL, ...), which no header "
                                + "value may hold")
                    }
                    headers.append(name: member.name, value: headerValue)
                }
            }
            exchange.response = .init(
                status: status, headers: headers, body: Array(try text(response.member("data"), required: false).utf8))
        } else {
            guard status == 0 else {
                throw fail(
                    statusField,
                    "response.httpStatus is \(status) though response.success is false (a transport failure has 0)")
            }
            let message = try text(response.member("error"), required: false)
            exchange.error = .init(kind: LegacyImporter.errorKind(message), message: message)
        }
        let test = context.lastIndex(of: "@").map { String(context[context.index(after: $0)...]) } ?? ""
        return Exchange(
            index: index, line: document.line(of: at) ?? 1, test: test, namesTest: !test.isEmpty, exchange: exchange)
    }
}
