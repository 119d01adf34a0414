import CommonFormats

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

    public init(method: HTTPMethod, url: String, headers: HTTPHeaders = [:], body: [UInt8] = [], timeout: Double? = nil)
    {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A request whose URL gets `query` appended, percent-encoded (`IHttpRequest::SetQueryParams`).
    ///
    /// Names and values are encoded with RFC 3986 unreserved characters kept; the pairs are joined
    /// with `&` and appended after `?` (or after `&` when the URL already has a query): the
    /// package's `QueryString.appending`.
    public init(
        method: HTTPMethod, url: String, query: [(String, String)], headers: HTTPHeaders = [:],
        body: [UInt8] = [], timeout: Double? = nil
    ) {
        self.init(
            method: method, url: QueryString.appending(query, to: url), headers: headers, body: body, timeout: timeout)
    }

    /// The body as UTF-8 text, when it is valid UTF-8.
    public var bodyText: String? {
        String(validating: body, as: UTF8.self)
    }

    /// Percent-encodes everything outside RFC 3986's unreserved set, `%XX` in upper case (the
    /// package's `QueryString.percentEncode`).
    public static func percentEncode(_ text: String) -> String {
        QueryString.percentEncode(text)
    }
}
