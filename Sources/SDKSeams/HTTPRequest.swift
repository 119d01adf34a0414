/// One HTTP request as the SDK hands it to a transport: method, absolute URL (query included),
/// header fields in order and the exact body bytes.
public struct HTTPRequest: Sendable, Hashable {
    public var method: HTTPMethod
    /// The absolute URL, including any query string, exactly as it goes on the wire.
    public var url: String
    public var headers: HTTPHeaders
    /// The exact body bytes; empty for none.
    public var body: [UInt8]
    /// Overall time limit in seconds; nil means no limit (the Milagro core never sets one).
    public var timeout: Double?

    public init(method: HTTPMethod, url: String, headers: HTTPHeaders = [:], body: [UInt8] = [], timeout: Double? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A request whose URL gets `query` appended, percent-encoded (`IHttpRequest::SetQueryParams`).
    ///
    /// Names and values are encoded with RFC 3986 unreserved characters kept; the pairs are joined
    /// with `&` and appended after `?` (or after `&` when the URL already has a query).
    public init(method: HTTPMethod, url: String, query: [(String, String)], headers: HTTPHeaders = [:],
                body: [UInt8] = [], timeout: Double? = nil) {
        var full = url
        if !query.isEmpty {
            let encoded = query.map { "\(Self.percentEncode($0.0))=\(Self.percentEncode($0.1))" }.joined(separator: "&")
            full += (url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?") + encoded
        }
        self.init(method: method, url: full, headers: headers, body: body, timeout: timeout)
    }

    /// The body as UTF-8 text, when it is valid UTF-8.
    public var bodyText: String? {
        String(validating: body, as: UTF8.self)
    }

    /// Percent-encodes everything outside RFC 3986's unreserved set.
    public static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
