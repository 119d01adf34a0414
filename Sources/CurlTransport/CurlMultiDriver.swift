import CCurl
import Dispatch
import Foundation
import SDKSeams
import Synchronization

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
package final class CurlMultiDriver: Sendable {
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
    /// Seconds a kept connection may sit unused before libcurl closes it instead of reusing it
    /// (`CURLOPT_MAXAGE_CONN`); nil keeps libcurl's 118 s.
    let connectionMaximumAge: Int?

    /// What the submitting tasks and the thread share.
    private struct Shared {
        /// Requests not yet added to the multi handle, in arrival order.
        var queue: [CurlTransfer] = []
        /// Transfers whose task was cancelled after the driver took them from the queue.
        var cancellations: [CurlTransfer] = []
        /// True from a submission that starts the thread until the thread decides to end.
        var running = false
        /// The running thread's eventfd, for `CurlSocketEvents.wake`; nil while none is usable.
        var wakeup: Int32?
        /// True while the thread waits for its sockets (or is about to): only then does a
        /// submission or cancellation wake it; otherwise its next turn finds the work anyway.
        var polling = false
        var counts = Statistics()
    }

    private let shared = Mutex(Shared())

    /// - Parameters:
    ///   - maximumTransfers: transfers in flight at most, 1 or more (smaller values are taken as 1).
    ///   - idleLifetime: seconds the thread waits for work before it ends (at least 0.01).
    ///   - connectionMaximumAge: seconds an unused kept connection stays reusable, 1 or more (smaller
    ///     values are taken as 1); nil keeps libcurl's default (118 s).
    package init(
        maximumTransfers: Int = CurlMultiDriver.defaultMaximumTransfers,
        idleLifetime: Double = CurlMultiDriver.defaultIdleLifetime, connectionMaximumAge: Int? = nil
    ) {
        self.maximumTransfers = max(1, maximumTransfers)
        self.idleLifetime = idleLifetime.isFinite ? max(0.01, idleLifetime) : Self.defaultIdleLifetime
        self.connectionMaximumAge = connectionMaximumAge.map { max(1, $0) }
    }

    package var statistics: Statistics {
        shared.withLock { $0.counts }
    }

    /// Queues `transfer` and wakes the thread, or starts it.
    func submit(_ transfer: CurlTransfer) {
        let start = shared.withLock { shared -> Bool in
            shared.queue.append(transfer)
            if shared.running {
                // Under the lock: the thread clears `wakeup` under it before closing it.
                if shared.polling, let wakeup = shared.wakeup { CurlSocketEvents.wake(wakeup) }
                return false
            }
            shared.running = true
            shared.counts.threadsStarted += 1
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in
            Thread.current.name = "curl-multi"  // the thread's name in ps, top and profiles
            serve()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// For a cancelled request: takes it out of the queue if it still waits there, and then the
    /// caller answers it (true). Otherwise (false) the driver has it: it takes it out of the multi
    /// handle at its next turn, or, if it has not added it yet, sees its cancellation flag.
    func cancel(_ transfer: CurlTransfer) -> Bool {
        shared.withLock { shared in
            if let index = shared.queue.firstIndex(where: { $0 === transfer }) {
                shared.queue.remove(at: index)
                return true
            }
            shared.cancellations.append(transfer)
            if shared.polling, let wakeup = shared.wakeup { CurlSocketEvents.wake(wakeup) }
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
        shared.withLock { $0.wakeup = events.wakeup }
        var loop = CurlMultiLoop(driver: self, multi: multi, events: events)
        while loop.turn() {}
        loop.cleanUp()
        withExtendedLifetime(events) {}
        shared.withLock { $0.counts.threadsEnded += 1 }
    }

    /// When no multi handle can be made: answers every queued request with the reason, and lets
    /// the next submission try again.
    private func failEverything() {
        let failed: [CurlTransfer] = shared.withLock { shared in
            defer {
                shared.queue.removeAll()
                shared.cancellations.removeAll()
                shared.running = false
            }
            return shared.queue
        }
        for transfer in failed {
            transfer.complete(.failure(transfer.exchange.noHandle()))
        }
    }

    // MARK: What the thread's turns read and write under the lock

    /// The cancellations asked for since the last turn.
    func takeCancellations() -> [CurlTransfer] {
        shared.withLock { shared in
            defer { shared.cancellations.removeAll() }
            return shared.cancellations
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
        shared.withLock { shared in
            var next = Taken()
            if shared.queue.isEmpty && idleEnded && shared.counts.inFlight == 0 {
                shared.running = false
                shared.wakeup = nil
                next.end = true
                return next
            }
            let count = min(max(room, 0), shared.queue.count)
            next.transfers = Array(shared.queue.prefix(count))
            shared.queue.removeFirst(count)
            var queued = 0
            shared.queue.removeAll { transfer in
                if !transfer.waitedForRoom {
                    transfer.waitedForRoom = true
                    queued += 1
                }
                guard let deadline = transfer.deadline else { return false }
                if deadline <= now {
                    next.expired.append(transfer)
                    return true
                }
                next.nextDeadline = min(next.nextDeadline ?? deadline, deadline)
                return false
            }
            shared.counts.queued += queued
            return next
        }
    }

    /// Before the thread waits for its sockets: false when a cancellation, or a queued request
    /// that fits in `room`, arrived since the turn began (the thread takes another turn at once);
    /// otherwise true, and from now on submissions and cancellations wake it.
    func beginPoll(room: Int) -> Bool {
        shared.withLock { shared in
            if !shared.cancellations.isEmpty || (room > 0 && !shared.queue.isEmpty) { return false }
            shared.polling = true
            return true
        }
    }

    /// After the wait for the sockets.
    func endPoll() {
        shared.withLock { shared in
            shared.polling = false
            shared.counts.waits += 1
        }
    }

    /// Counts a transfer added to the multi handle, and an easy handle made for it.
    func noteAdded(handleCreated: Bool) {
        shared.withLock { shared in
            shared.counts.inFlight += 1
            shared.counts.peakInFlight = max(shared.counts.peakInFlight, shared.counts.inFlight)
            if handleCreated { shared.counts.handlesCreated += 1 }
        }
    }

    /// Counts an easy handle made for a transfer that then failed to start.
    func noteHandleCreated() {
        shared.withLock { $0.counts.handlesCreated += 1 }
    }

    /// Counts a transfer taken out of the multi handle and the connections it opened.
    func noteRemoved(connectionsOpened: Int) {
        shared.withLock { shared in
            shared.counts.inFlight -= 1
            shared.counts.exchanges += 1
            shared.counts.connectionsOpened += connectionsOpened
        }
    }
}
