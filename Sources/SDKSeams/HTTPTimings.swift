/// Per-phase timings of one exchange, in seconds from the start of the request, as libcurl
/// reports them (`CURLINFO_*_TIME_T`): each value is cumulative, so `dns <= connect <= tls <=
/// firstByte <= total` for a fresh connection. `tls` equals zero for plain HTTP.
public struct HTTPTimings: Sendable, Hashable, Codable {
    /// Name resolution done (`NAMELOOKUP`).
    public var dns: Double
    /// TCP connection established (`CONNECT`).
    public var connect: Double
    /// TLS handshake done (`APPCONNECT`); zero without TLS.
    public var tls: Double
    /// Request about to be sent (`PRETRANSFER`).
    public var requestSent: Double
    /// First response byte received (`STARTTRANSFER`).
    public var firstByte: Double
    /// Whole exchange (`TOTAL`).
    public var total: Double

    public init(dns: Double, connect: Double, tls: Double, requestSent: Double, firstByte: Double, total: Double) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.requestSent = requestSent
        self.firstByte = firstByte
        self.total = total
    }
}
