import CurlTransport
import Foundation
import SDKSeams

/// The libcurl transport with each exchange on a thread of its own.
///
/// `CurlTransport.send` blocks a worker of the global dispatch queue for the whole exchange. On
/// Linux those workers are a bounded pool that the Swift concurrency executor also draws on, so
/// dozens of parallel requests to a server in the same process can take every worker and starve
/// the server's handlers until the requests time out. A dedicated thread per exchange avoids that;
/// the bytes on the wire are the same (`sendBlocking` runs the same libcurl exchange).
struct ThreadedCurlTransport: HTTPTransport {
    let inner: CurlTransport

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let inner = self.inner
        let result: Result<HTTPResponse, TransportError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(TransportError) -> HTTPResponse in try inner.sendBlocking(request) })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        return try result.get()
    }
}
