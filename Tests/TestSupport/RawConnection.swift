import CommonFormats
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One TCP connection to a server on 127.0.0.1, for tests that must control exactly which bytes go
/// out and when (a request head without its body, say) and see the raw bytes that come back. Every
/// read waits at most the given time; a connection that fails to open throws.
///
/// The blocking socket calls run on the connection's own dispatch queue, never on the threads of
/// Swift concurrency's pool, which the servers under test need to answer. Use a connection from
/// one task at a time.
package final class RawConnection: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// A response read off the wire: its head as sent (status line and fields, without the blank
    /// line) and the body `Content-Length` announced.
    package struct Response {
        package let head: String
        package let body: [UInt8]
        package var statusLine: String { head.components(separatedBy: "\r\n").first ?? "" }
        package var text: String { String(decoding: body, as: UTF8.self) }
        package func field(_ name: String) -> String? {
            for line in head.components(separatedBy: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingOptionalWhitespace
                }
            }
            return nil
        }
    }

    private let fd: Int32
    private let queue = DispatchQueue(label: "RawConnection")
    /// Bytes received and not yet consumed by a read.
    private var pending: [UInt8] = []

    package init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect() to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    package func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    package func send(_ bytes: [UInt8]) async throws {
        try await blocking { try self.sendNow(bytes) }
    }

    /// Reads until the bytes received hold `marker`, and returns them up to and including it.
    /// Throws when `seconds` pass first or the server closes the connection; the error says what
    /// had arrived by then.
    package func read(through marker: [UInt8], within seconds: Double) async throws -> [UInt8] {
        try await blocking { try self.readNow(through: marker, within: seconds) }
    }

    /// Reads one response: its head, then as many body bytes as its `Content-Length` says.
    package func readResponse(within seconds: Double) async throws -> Response {
        try await blocking { try self.readResponseNow(within: seconds) }
    }

    /// Whether anything arrives within `seconds` (bytes are kept for the next read); false on
    /// silence, true on bytes or on the server closing the connection.
    package func hasInput(within seconds: Double) async -> Bool {
        (try? await blocking { self.hasInputNow(within: seconds) }) ?? true
    }

    /// Whether the server closes the connection within `seconds`, with nothing more sent first:
    /// true when the socket reads end-of-file, false on silence or on bytes (kept for the next read).
    package func isClosedByServer(within seconds: Double) async -> Bool {
        (try? await blocking { self.isClosedNow(within: seconds) }) ?? false
    }

    /// Closes this side for sending (`shutdown(SHUT_WR)`); the server reads end-of-file.
    package func closeForSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    private func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    private func sendNow(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
            sent += count
        }
    }

    private func readNow(through marker: [UInt8], within seconds: Double) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let end = Self.find(marker, in: pending) {
                let taken = Array(pending[..<(end + marker.count)])
                pending.removeFirst(end + marker.count)
                return taken
            }
            try receive(
                until: deadline, waitingFor: "\(String(reflecting: String(decoding: marker, as: UTF8.self)))",
                seconds: seconds)
        }
    }

    private func readNow(count: Int, within seconds: Double) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        while pending.count < count {
            try receive(until: deadline, waitingFor: "\(count) bytes", seconds: seconds)
        }
        let taken = Array(pending[..<count])
        pending.removeFirst(count)
        return taken
    }

    private func readResponseNow(within seconds: Double) throws -> Response {
        let head = try readNow(through: Array("\r\n\r\n".utf8), within: seconds)
        let text = String(decoding: head.dropLast(4), as: UTF8.self)
        let partial = Response(head: text, body: [])
        let length = partial.field("Content-Length").flatMap(Int.init) ?? 0
        return Response(head: text, body: try readNow(count: length, within: seconds))
    }

    private func hasInputNow(within seconds: Double) -> Bool {
        if !pending.isEmpty { return true }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, Int32(seconds * 1000)) > 0
    }

    private func isClosedNow(within seconds: Double) -> Bool {
        guard pending.isEmpty else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count > 0 { pending.append(contentsOf: buffer[0..<count]) }
        return count == 0
    }

    private func receive(until deadline: Date, waitingFor what: String, seconds: Double) throws {
        let left = deadline.timeIntervalSinceNow
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = left > 0 ? poll(&poller, 1, Int32(max(1, left * 1000))) : 0
        guard ready > 0 else {
            throw Failure(
                description:
                    "waited \(seconds) s for \(what); received so far: \(String(reflecting: String(decoding: pending, as: UTF8.self)))"
            )
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else {
            throw Failure(
                description:
                    "the server closed the connection while \(what) was awaited; received: \(String(reflecting: String(decoding: pending, as: UTF8.self)))"
            )
        }
        pending.append(contentsOf: buffer[0..<count])
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
