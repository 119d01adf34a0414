import Dispatch
import Foundation

/// A bounded pool of worker threads for libcurl's blocking transfers, each worker owning one
/// reusable easy handle (`CurlHandle`), so connections stay open between requests (HTTP/1.1
/// keep-alive) and no thread is made per request.
///
/// * A request goes to the worker that became idle last (a stack), so consecutive requests from
///   one caller run on the same handle and reuse its connection; workers that stay idle for
///   `idleLifetime` seconds end and close their connections.
/// * At most `maximumWorkers` threads run; further requests wait in arrival order for the next
///   free worker, and that wait counts against their time limit (one whose limit runs out while it
///   waits times out then, unsent). A request cancelled while it waits is answered at once and
///   never sent.
/// * Blocking in a worker keeps libcurl's transfers off the threads that Swift concurrency runs
///   on, so many parallel requests to a server in the same process cannot starve it.
package final class CurlWorkerPool: @unchecked Sendable {
    /// What the pool has done so far, for tests and benchmarks.
    package struct Statistics: Sendable, Hashable {
        /// Worker threads started since the pool was made.
        package var threadsStarted = 0
        /// Easy handles made (one per worker, unless libcurl failed to make one).
        package var handlesCreated = 0
        /// Worker threads running now (busy or idle).
        package var liveWorkers = 0
        /// The most worker threads that ran at once.
        package var peakWorkers = 0
        /// Exchanges run by a worker (withdrawn requests are not counted).
        package var exchanges = 0
        /// New connections those exchanges opened (`CURLINFO_NUM_CONNECTS`); the rest reused one.
        package var connectionsOpened = 0
        /// Requests that found every worker busy and waited in the queue.
        package var queued = 0
    }

    /// The pool every `CurlTransport` uses unless given another.
    static let shared = CurlWorkerPool()

    package static let defaultMaximumWorkers = 64
    static let defaultIdleLifetime: Double = 30

    let maximumWorkers: Int
    let idleLifetime: Double

    private let lock = NSLock()
    private var waiting: [CurlTransfer] = []
    private var idle: [CurlWorker] = []
    private var counts = Statistics()

    /// - Parameters:
    ///   - maximumWorkers: threads at most, 1 or more (smaller values are taken as 1).
    ///   - idleLifetime: seconds an idle worker waits for work before it ends (at least 0.01).
    package init(maximumWorkers: Int = CurlWorkerPool.defaultMaximumWorkers, idleLifetime: Double = CurlWorkerPool.defaultIdleLifetime) {
        self.maximumWorkers = max(1, maximumWorkers)
        self.idleLifetime = idleLifetime.isFinite ? max(0.01, idleLifetime) : Self.defaultIdleLifetime
    }

    package var statistics: Statistics {
        lock.withLock { counts }
    }

    /// Hands `transfer` to the last idle worker, to a new worker while there are fewer than
    /// `maximumWorkers`, or else to the queue.
    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        if let worker = idle.popLast() {
            lock.unlock()
            worker.hand(transfer)
        } else if counts.liveWorkers < maximumWorkers {
            counts.liveWorkers += 1
            counts.threadsStarted += 1
            counts.peakWorkers = max(counts.peakWorkers, counts.liveWorkers)
            lock.unlock()
            CurlWorker.start(pool: self, first: transfer)
        } else {
            waiting.append(transfer)
            counts.queued += 1
            lock.unlock()
            if let limit = transfer.exchange.timeLimit {
                // Its time limit runs while it waits: if no worker has taken it by then, it times out.
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(CurlExchange.milliseconds(limit))) { [weak self] in
                    if let self, self.withdraw(transfer) { transfer.expire() }
                }
            }
        }
    }

    /// Takes `transfer` out of the queue if it still waits there; then the caller completes it.
    /// False when a worker has it (or had it): the worker completes it.
    func withdraw(_ transfer: CurlTransfer) -> Bool {
        lock.withLock {
            guard let index = waiting.firstIndex(where: { $0 === transfer }) else { return false }
            waiting.remove(at: index)
            return true
        }
    }

    /// For a worker that has finished a transfer: the next waiting one, or nil once the worker is
    /// on the idle stack.
    func next(for worker: CurlWorker) -> CurlTransfer? {
        lock.withLock {
            if !waiting.isEmpty { return waiting.removeFirst() }
            idle.append(worker)
            return nil
        }
    }

    /// For a worker whose idle wait ran out: true if it has left the pool (it ends), false if a
    /// transfer is being handed to it at this moment.
    func retire(_ worker: CurlWorker) -> Bool {
        lock.withLock {
            guard let index = idle.firstIndex(where: { $0 === worker }) else { return false }
            idle.remove(at: index)
            counts.liveWorkers -= 1
            return true
        }
    }

    /// Counts an exchange a worker ran and the connections it opened.
    func noteExchange(connectionsOpened: Int, handleCreated: Bool) {
        lock.withLock {
            counts.exchanges += 1
            counts.connectionsOpened += connectionsOpened
            if handleCreated { counts.handlesCreated += 1 }
        }
    }
}
