import CommonFormats
import Foundation
import Hummingbird
import MPinCrypto

/// One answer of a Tornado 4.1 `RequestHandler`, built the way the open-source server's handlers
/// build theirs (tornado/web.py, tornado/httputil.py of Tornado 4.1): `clear()` starts it with
/// `Server: TornadoServer/4.1`, `Content-Type: text/html; charset=UTF-8` and `Date`, then the
/// handler class's `set_default_headers`; `write(dict)` sets the JSON content type; `finish()`
/// adds a SHA-1 `Etag` to a GET or HEAD 200 (and answers 304 when `If-None-Match` has it) and
/// `Content-Length`; `flush()` adds the `Set-Cookie` fields last. The fields go out in the
/// order of `HTTPHeaders._as_list`, a Python 2 dict (`PythonDict`). `send_error` clears the
/// headers (not the cookies) and writes the class's `write_error` body; the reason phrase is the
/// one given to `set_status`, or the standard one (`httplib.responses`).
struct TornadoAnswer: Sendable {
    var status = 200
    var reason = "OK"
    private var order = PythonDict()
    private var values: [String: [String]] = [:]
    private(set) var body: [UInt8] = []
    private var cookies: [(name: String, value: String)] = []
    private(set) var finished = false
    /// The handler class's `set_default_headers`.
    let defaultHeaders: [(String, String)]

    init(defaultHeaders: [(String, String)], date: String) {
        self.defaultHeaders = defaultHeaders
        clear(date: date)
    }

    /// `RequestHandler.clear()`.
    mutating func clear(date: String) {
        order = PythonDict(
            inserting: Array(PythonDict(inserting: ["Server", "Content-Type", "Date"], display: false).keys))
        values = ["Server": ["TornadoServer/4.1"], "Content-Type": ["text/html; charset=UTF-8"], "Date": [date]]
        for (name, value) in defaultHeaders { setHeader(name, value) }
        body = []
        status = 200
        reason = "OK"
    }

    /// `set_status(code, reason)`; without a reason, the standard phrase (`Unknown` for a code
    /// `httplib` does not know, where Tornado 4.1 raises instead).
    mutating func setStatus(_ code: Int, reason: String? = nil) {
        status = code
        self.reason = reason ?? Self.standardReason(code)
    }

    /// `set_header(name, value)`, the name normalised as `HTTPHeaders` does (`Www-Authenticate`).
    mutating func setHeader(_ name: String, _ value: String) {
        let key = Self.normalized(name)
        order.insert(key)
        values[key] = [value]
    }

    mutating func clearHeader(_ name: String) {
        let key = Self.normalized(name)
        guard values[key] != nil else { return }
        order.remove(key)
        values[key] = nil
    }

    func header(_ name: String) -> String? { values[Self.normalized(name)]?.last }

    /// The header names as they go out, in order.
    var headerNames: [String] { order.keys }

    /// `write(dict)`: the JSON (Tornado's `json_encode`) and `Content-Type: application/json; charset=UTF-8`.
    mutating func writeJSON(_ value: PythonValue) {
        setHeader("Content-Type", "application/json; charset=UTF-8")
        body += Array(PythonJSON.dumps(value, tornado: true).utf8)
    }

    /// `write(str)`: the bytes as they are, the content type unchanged.
    mutating func write(_ bytes: [UInt8]) { body += bytes }

    /// `set_cookie`: a later cookie of the same name replaces the earlier one.
    mutating func setCookie(_ name: String, _ value: String) {
        cookies.removeAll { $0.name == name }
        cookies.append((name, value))
    }

    /// `send_error(code, reason)` with the class's `write_error`.
    mutating func sendError(_ code: Int, reason: String? = nil, date: String, writeError: (inout TornadoAnswer) -> Void)
    {
        clear(date: date)
        setStatus(code, reason: reason)
        writeError(&self)
    }

    /// Tornado's default `write_error`: `<html><title>500: Internal Server Error</title>…`.
    mutating func writeDefaultError() {
        write(Array("<html><title>\(status): \(reason)</title><body>\(status): \(reason)</body></html>".utf8))
    }

    /// `finish()` and the first `flush()`: Etag and 304, Content-Length, the cookies.
    mutating func finish(method: String, ifNoneMatch: String?) {
        guard !finished else { return }
        finished = true
        if status == 200, method == "GET" || method == "HEAD", values["Etag"] == nil {
            let etag = TornadoEtag.of(body)
            setHeader("Etag", etag)
            if let wanted = ifNoneMatch,
                wanted.split(separator: ",").contains(where: { $0.trimmingOptionalWhitespace == etag || $0 == "*" })
            {
                body = []
                setStatus(304)
            }
        }
        if status == 304 {
            for name in [
                "Allow", "Content-Encoding", "Content-Language", "Content-Length", "Content-Md5", "Content-Range",
                "Content-Type", "Last-Modified",
            ] {
                clearHeader(name)
            }
        } else if values["Content-Length"] == nil {
            setHeader("Content-Length", String(body.count))
        }
        for cookie in cookies {
            order.insert("Set-Cookie")
            values["Set-Cookie", default: []].append(cookie.value)
        }
    }

    /// The answer as the server writes it (the server puts the current `Date` in its place);
    /// a HEAD's body is not sent, its `Content-Length` stays.
    func answer(method: String) -> ServerAnswer {
        var fields = HTTPFields()
        for name in order.keys {
            guard let fieldName = HTTPFields.Element.Name(name) else { continue }
            for value in values[name] ?? [] { fields.append(HTTPFields.Element(name: fieldName, value: value)) }
        }
        let code = HTTPResponse.Status(code: status, reasonPhrase: reason)
        var answer = ServerAnswer(code, headers: fields, body: method == "HEAD" ? [] : body)
        answer.reasonPhrase = reason
        return answer
    }

    /// The answer's fields as another Tornado process receives them (`HTTPHeaders` parsed from
    /// the lines in order): the order of that dict, for a proxy that copies them.
    var receivedHeaders: [(String, String)] {
        var lines: [(String, String)] = []
        for name in order.keys { for value in values[name] ?? [] { lines.append((name, value)) } }
        var parsed = PythonDict()
        var joined: [String: String] = [:]
        for (name, value) in lines {
            parsed.insert(name)
            joined[name] = joined[name].map { $0 + "," + value } ?? value
        }
        return parsed.keys.map { ($0, joined[$0] ?? "") }
    }

    /// `HTTPHeaders`' name normalisation: each dash-separated word capitalised.
    static func normalized(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false).map {
            $0.prefix(1).uppercased() + $0.dropFirst().lowercased()
        }
        .joined(separator: "-")
    }

    /// Python 2.7's `httplib.responses`.
    static func standardReason(_ code: Int) -> String {
        switch code {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 203: return "Non-Authoritative Information"
        case 204: return "No Content"
        case 205: return "Reset Content"
        case 206: return "Partial Content"
        case 300: return "Multiple Choices"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 305: return "Use Proxy"
        case 306: return "(Unused)"
        case 307: return "Temporary Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 407: return "Proxy Authentication Required"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Request Entity Too Large"
        case 414: return "Request-URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Requested Range Not Satisfiable"
        case 417: return "Expectation Failed"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Unknown"
        }
    }
}
