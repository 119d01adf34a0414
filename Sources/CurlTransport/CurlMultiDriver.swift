import CCurl
import Dispatch
import Foundation
import SDKSeams

/// One thread that runs every libcurl transfer of the process through one multi handle, in
/// libcurl's socket interface (`curl_multi_socket_action`, with the sockets and the timer watched
/// by `CurlSocketEvents`), instead of a thread per concurrent request.
///
/// * The thread (named "curl-multi") starts with the first submission and ends after
///   `idleLifetime` seconds with no transfer in flight and none queued; it then cleans up the
///   multi handle and its easy handles, which closes their connections. A later submission starts
///   it again.
/// * Easy handles are kept on a free list and reused (`curl_easy_reset`, then the options of
///   `CurlExchange.configure`). The multi handle's connection cache is shared by all of them (at
///   most `maximumConnections` open), so consecutive requests to an origin go out on one
///   connection (HTTP/1.1 keep-alive), with the same bytes as on a new one.
/// * At most `maximumTransfers` transfers are added to the multi handle at once; further requests
///   wait in arrival order, and that wait counts against their time limit (one whose limit runs
///   out while it waits times out then, unsent).
/// * A request cancelled while it waits is answered at once and never sent; one cancelled in
///   flight is taken out of the multi handle at the driver's next turn (the cancellation wakes
///   it) and answered `.cancelled`.
/// * A submission or cancellation wakes the thread (a write to its eventfd) only while it waits or
///   is about to; otherwise its next turn finds the work anyway.
/// * Every wait of the thread is bounded: it waits at most until libcurl's timer runs out
///   (`CURLMOPT_TIMERFUNCTION`), the next time limit of a waiting request, the end of the idle
///   lifetime, and never more than `maximumPoll` milliseconds.
package final class CurlMultiDriver: @unchecked Sendable {
    /// What the driver has done so far, for tests and benchmarks.
    package struct Statistics: Sendable, Hashable {
        /// Driver threads started since the driver was made (one at a time; a new one after an idle end).
        package var threadsStarted = 0
        /// Driver threads that ended after their idle lifetime, once they had closed their connections.
        package var threadsEnded = 0
        /// Easy handles made (`curl_easy_init`); the free list reuses them.
        package var handlesCreated = 0
        /// Transfers added to the multi handle now.
        package var inFlight = 0
        /// The most transfers added to the multi handle at once.
        package var peakInFlight = 0
        /// Exchanges that left the multi handle: finished, failed or cancelled in flight (requests
        /// answered before they were added are not counted).
        package var exchanges = 0
        /// New connections those exchanges opened (`CURLINFO_NUM_CONNECTS`); the rest reused one.
        package var connectionsOpened = 0
        /// Requests that found `maximumTransfers` in flight and waited in the queue.
        package var queued = 0
        /// Waits of the thread for its sockets, its timer or a wakeup (each bounded by `maximumPoll`).
        package var waits = 0
    }

    /// The driver every `CurlTransport` uses unless given another.
    static let shared = CurlMultiDriver()

    package static let defaultMaximumTransfers = 64
    static let defaultIdleLifetime: Double = 30
    /// Connections the multi handle keeps open at most (`CURLMOPT_MAXCONNECTS`), the least
    /// recently used closed first.
    static let maximumConnections = 64
    /// The longest single wait of the thread, in milliseconds.
    static let maximumPoll = 1000

    let maximumTransfers: Int
    let idleLifetime: Double

    private let lock = NSLock()
    /// Requests not yet added to the multi handle, in arrival order.
    private var queue: [CurlTransfer] = []
    /// Transfers whose task was cancelled after the driver took them from the queue.
    private var cancellations: [CurlTransfer] = []
    /// True from a submission that starts the thread until the thread decides to end.
    private var running = false
    /// The running thread's eventfd, for `CurlSocketEvents.wake`; nil while none is usable.
    private var wakeup: Int32?
    /// True while the thread waits for its sockets (or is about to): only then does a
    /// submission or cancellation wake it; otherwise its next turn finds the work anyway.
    private var polling = false
    private var counts = Statistics()

    /// - Parameters:
    ///   - maximumTransfers: transfers in flight at most, 1 or more (smaller values are taken as 1).
    ///   - idleLifetime: seconds the thread waits for work before it ends (at least 0.01).
    package init(maximumTransfers: Int = CurlMultiDriver.defaultMaximumTransfers,
                 idleLifetime: Double = CurlMultiDriver.defaultIdleLifetime) {
        self.maximumTransfers = max(1, maximumTransfers)
        self.idleLifetime = idleLifetime.isFinite ? max(0.01, idleLifetime) : Self.defaultIdleLifetime
    }

    package var statistics: Statistics {
        lock.withLock { counts }
    }

    /// Queues `transfer` and wakes the thread, or starts it.
    func submit(_ transfer: CurlTransfer) {
        lock.lock()
        queue.append(transfer)
        if running {
            // Under the lock: the thread clears `wakeup` under it before closing it.
            if polling, let wakeup { CurlSocketEvents.wake(wakeup) }
            lock.unlock()
            return
        }
        running = true
        counts.threadsStarted += 1
        lock.unlock()
        let thread = Thread { [self] in
            Thread.current.name = "curl-multi"   // the thread's name in ps, top and profiles
            serve()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// For a cancelled request: takes it out of the queue if it still waits there, and then the
    /// caller answers it (true). Otherwise (false) the driver has it: it takes it out of the multi
    /// handle at its next turn, or, if it has not added it yet, sees its cancellation flag.
    func cancel(_ transfer: CurlTransfer) -> Bool {
        lock.withLock {
            if let index = queue.firstIndex(where: { $0 === transfer }) {
                queue.remove(at: index)
                return true
            }
            cancellations.append(transfer)
            if polling, let wakeup { CurlSocketEvents.wake(wakeup) }
            return false
        }
    }

    /// The thread: makes the multi handle, runs turns until it has been idle for `idleLifetime`,
    /// then cleans up.
    private func serve() {
        guard CurlGlobal.ensureInitialized() == CURLE_OK, let events = CurlSocketEvents() else {
            failEverything()
            return
        }
        guard let multi = curl_multi_init() else {
            failEverything()
            return
        }
        guard events.attach(to: multi) else {
            curl_multi_cleanup(multi)
            failEverything()
            return
        }
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, Self.maximumConnections)
        lock.withLock { wakeup = events.wakeup }
        var loop = CurlMultiLoop(driver: self, multi: multi, events: events)
        while loop.turn() {}
        loop.cleanUp()
        withExtendedLifetime(events) {}
        lock.withLock { counts.threadsEnded += 1 }
    }

    /// When no multi handle can be made: answers every queued request with the reason, and lets
    /// the next submission try again.
    private func failEverything() {
        let failed: [CurlTransfer] = lock.withLock {
            defer { queue.removeAll(); cancellations.removeAll(); running = false }
            return queue
        }
        for transfer in failed {
            transfer.complete(.failure(transfer.exchange.noHandle()))
        }
    }

    // MARK: What the thread's turns read and write under the lock

    /// The cancellations asked for since the last turn.
    func takeCancellations() -> [CurlTransfer] {
        lock.withLock {
            defer { cancellations.removeAll() }
            return cancellations
        }
    }

    /// What a turn takes from the queue.
    struct Taken {
        /// Requests to add now, in arrival order.
        var transfers: [CurlTransfer] = []
        /// Waiting requests whose time limit has run out: answered unsent.
        var expired: [CurlTransfer] = []
        /// The earliest time limit among the requests still waiting (monotonic nanoseconds).
        var nextDeadline: UInt64?
        /// The thread ends: it was idle for its lifetime and nothing is queued. No submission
        /// wakes it any more; the next one starts a new thread.
        var end = false
    }

    /// Up to `room` queued requests in arrival order and the waiting ones whose time limit has run
    /// out by `now`; or, with nothing in flight, nothing queued and `idleEnded`, the end.
    func takeQueued(room: Int, now: UInt64, idleEnded: Bool) -> Taken {
        lock.withLock {
            var next = Taken()
            if queue.isEmpty && idleEnded && counts.inFlight == 0 {
                running = false
                wakeup = nil
                next.end = true
                return next
            }
            let count = min(max(room, 0), queue.count)
            next.transfers = Array(queue.prefix(count))
            queue.removeFirst(count)
            queue.removeAll { transfer in
                if !transfer.waitedForRoom {
                    transfer.waitedForRoom = true
                    counts.queued += 1
                }
                guard let deadline = transfer.deadline else { return false }
                if deadline <= now {
                    next.expired.append(transfer)
                    return true
                }
                next.nextDeadline = min(next.nextDeadline ?? deadline, deadline)
                return false
            }
            return next
        }
    }

    /// Before the thread waits for its sockets: false when a cancellation, or a queued request
    /// that fits in `room`, arrived since the turn began (the thread takes another turn at once);
    /// otherwise true, and from now on submissions and cancellations wake it.
    func beginPoll(room: Int) -> Bool {
        lock.withLock {
            if !cancellations.isEmpty || (room > 0 && !queue.isEmpty) { return false }
            polling = true
            return true
        }
    }

    /// After the wait for the sockets.
    func endPoll() {
        lock.withLock {
            polling = false
            counts.waits += 1
        }
    }

    /// Counts a transfer added to the multi handle, and an easy handle made for it.
    func noteAdded(handleCreated: Bool) {
        lock.withLock {
            counts.inFlight += 1
            counts.peakInFlight = max(counts.peakInFlight, counts.inFlight)
            if handleCreated { counts.handlesCreated += 1 }
        }
    }

    /// Counts an easy handle made for a transfer that then failed to start.
    func noteHandleCreated() {
        lock.withLock { counts.handlesCreated += 1 }
    }

    /// Counts a transfer taken out of the multi handle and the connections it opened.
    func noteRemoved(connectionsOpened: Int) {
        lock.withLock {
            counts.inFlight -= 1
            counts.exchanges += 1
            counts.connectionsOpened += connectionsOpened
        }
    }
}
