import CommonFormats
import NIOCore

/// Who a request comes from, as the per-client quotas (`ClientQuotaTable`) and rate limits
/// (`RateLimiter`) tell clients apart: by the connection's remote address, an IPv4 address whole
/// (127.0.0.2 and 127.0.0.3 are two clients), an IPv6 address by its /64 (one host gets a whole /64
/// to pick addresses from), an IPv4-mapped IPv6 address as the IPv4 one. Every Unix-domain peer is
/// one client, and so is every request whose peer is unknown. The address is the connection's, so
/// the clients of a proxy or of one NAT are one client; no header field (`Forwarded`,
/// `X-Forwarded-For`) is believed, since any client could send one to pass for many.
struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    let description: String

    /// Requests whose peer is not known (the core driven without a connection).
    static let unknown = ClientAddress(description: "unknown")

    private init(description: String) {
        self.description = description
    }

    init(peer: SocketAddress?) {
        switch peer {
        case .v4(let address)?:
            self.init(ipv4: UInt32(bigEndian: address.address.sin_addr.s_addr))
        case .v6(let address)?:
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                self.init(ipv4: bytes[12...].reduce(0) { $0 << 8 | UInt32($1) })
            } else {
                let groups = stride(from: 0, to: 8, by: 2).map {
                    String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
                }
                self.init(description: groups.joined(separator: ":") + "::/64")
            }
        case .unixDomainSocket?:
            self.init(description: "local")
        case nil:
            self = .unknown
        }
    }

    private init(ipv4 address: UInt32) {
        self.init(description: [24, 16, 8, 0].map { String(address >> $0 & 0xFF) }.joined(separator: "."))
    }
}
