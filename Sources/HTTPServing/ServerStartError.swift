/// A server on this module's plumbing (the reference backend, the plain server behind `serve --cassette`)
/// could not start: which one, on which address, and why (a port in use, an unknown host).
public struct ServerStartError: Error, Sendable, Hashable, CustomStringConvertible {
    public var server: String
    /// `http://host:port` as asked for (port 0: any free one).
    public var address: String
    public var reason: String

    public init(server: String, address: String, reason: String) {
        self.server = server
        self.address = address
        self.reason = reason
    }

    public var description: String { "The \(server) did not start on \(address): \(reason)" }
}
