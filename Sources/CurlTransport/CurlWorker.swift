import Dispatch
import Foundation
import SDKSeams

/// One thread of a `CurlWorkerPool`: runs transfers one after another on its own easy handle,
/// takes the next waiting one when it finishes, and otherwise waits on the pool's idle stack
/// until a transfer is handed to it or its idle lifetime ends. A transfer may be handed to it
/// while it still delivers the previous result; the signal then ends its next wait at once.
final class CurlWorker: @unchecked Sendable {
    /// Held strongly: a pool lives while any of its workers does (at most its idle lifetime after its last request).
    private let pool: CurlWorkerPool
    private let wake = DispatchSemaphore(value: 0)
    /// Set by `hand` before it signals `wake`; read by the worker thread after the wait.
    private var handed: CurlTransfer?
    private var curl: CurlHandle?

    private init(pool: CurlWorkerPool) {
        self.pool = pool
    }

    /// Starts a worker thread that runs `first`, then serves the pool.
    static func start(pool: CurlWorkerPool, first: CurlTransfer) {
        let worker = CurlWorker(pool: pool)
        let thread = Thread {
            Thread.current.name = "curl-worker"   // the thread's name in ps, top and profiles
            worker.serve(first)
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Gives an idle worker (one just taken off the pool's idle stack) its next transfer.
    func hand(_ transfer: CurlTransfer) {
        handed = transfer
        wake.signal()
    }

    private func serve(_ first: CurlTransfer) {
        var transfer: CurlTransfer? = first
        while true {
            if let current = transfer {
                let result = run(current)
                // Back on the idle stack (or on to the next waiting transfer) before the caller
                // hears the result, so that its next request finds this worker and its connection.
                transfer = pool.next(for: self)
                current.complete(result)
                continue
            }
            if wake.wait(timeout: .now() + pool.idleLifetime) == .timedOut {
                if pool.retire(self) {
                    curl = nil   // closes this handle's connections
                    return
                }
                // Taken off the idle stack just now: `hand` signals right after, so this wait ends
                // at once; it is bounded all the same.
                while wake.wait(timeout: .now() + 1) == .timedOut {}
            }
            transfer = handed
            handed = nil
        }
    }

    private func run(_ transfer: CurlTransfer) -> Result<HTTPResponse, TransportError> {
        var created = false
        if curl == nil {
            curl = CurlHandle()
            created = curl != nil
        }
        let (result, opened) = transfer.run(on: curl)
        // Counted before the caller hears the result, so that what it reads next includes this exchange.
        pool.noteExchange(connectionsOpened: opened, handleCreated: created)
        return result
    }
}
