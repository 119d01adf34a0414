import CCurl
import Dispatch
import SDKSeams

/// The thread of a `CurlMultiDriver`: its multi handle, the transfers added to it (keyed by their
/// easy handle), the free easy handles, and one turn of its loop. Only that thread touches it.
///
/// A turn: take out the transfers whose task was cancelled; take queued requests while there is
/// room and answer those whose time limit ran out in the queue; add the taken ones; run libcurl's
/// timer when it has run out (`curl_multi_socket_action` with `CURL_SOCKET_TIMEOUT`, which also
/// starts the added transfers); answer the finished ones (`CURLMSG_DONE`); wait for a socket, a
/// wakeup or a timeout (`CurlSocketEvents.wait`, bounded), let libcurl work on each ready socket,
/// and answer what finished.
struct CurlMultiLoop {
    let driver: CurlMultiDriver
    let multi: UnsafeMutableRawPointer
    let events: CurlSocketEvents
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var free: [CurlHandle] = []
    /// When the thread last had nothing in flight and nothing queued (monotonic nanoseconds).
    private var idleSince: UInt64?
    private let idleNanoseconds: UInt64

    init(driver: CurlMultiDriver, multi: UnsafeMutableRawPointer, events: CurlSocketEvents) {
        self.driver = driver
        self.multi = multi
        self.events = events
        idleNanoseconds = UInt64(driver.idleLifetime * 1e9)
    }

    /// One turn; false when the thread should end (idle for its lifetime, nothing queued).
    mutating func turn() -> Bool {
        for transfer in driver.takeCancellations() {
            withdraw(transfer)
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let idleEnded = active.isEmpty && idleSince.map { now &- $0 >= idleNanoseconds } == true
        let next = driver.takeQueued(room: driver.maximumTransfers - active.count, now: now, idleEnded: idleEnded)
        if next.end { return false }
        for transfer in next.expired {
            transfer.complete(.failure(transfer.expiredWaiting()))
        }
        for transfer in next.transfers {
            add(transfer)
        }

        if !next.transfers.isEmpty || events.timerDue(now) { runTimer() }
        let finished = answerFinished()

        let later = DispatchTime.now().uptimeNanoseconds
        // Idle from the end of the last turn that had anything to do.
        if !active.isEmpty || !next.transfers.isEmpty || !next.expired.isEmpty || finished > 0 { idleSince = nil }
        if active.isEmpty && idleSince == nil { idleSince = later }
        var timeout = CurlMultiDriver.maximumPoll
        if let timer = events.timerDeadline {
            timeout = min(timeout, Self.milliseconds(from: later, to: timer))
        }
        if let deadline = next.nextDeadline {
            timeout = min(timeout, Self.milliseconds(from: later, to: deadline))
        }
        if active.isEmpty, let idleSince {
            timeout = min(timeout, Self.milliseconds(from: later, to: idleSince &+ idleNanoseconds))
        }
        // Not when requests that fit arrived meanwhile, or places came free for waiting ones.
        guard driver.beginPoll(room: driver.maximumTransfers - active.count) else { return true }
        let multi = self.multi
        var running: Int32 = 0
        events.wait(milliseconds: timeout) { socket, bits in
            _ = curl_multi_socket_action(multi, socket, bits, &running)
        }
        driver.endPoll()
        if events.timerDue(DispatchTime.now().uptimeNanoseconds) { runTimer() }
        // What finished is answered now; the next turn's idle check sees `active` as it is then.
        _ = answerFinished()
        return true
    }

    /// Lets libcurl run what its timer was set for (timeouts, and starting added transfers).
    private func runTimer() {
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, CURL_SOCKET_BAD, 0, &running)
    }

    /// Cleans up the easy handles and the multi handle (which closes the cached connections).
    /// Called after the last turn, which ends only with nothing in flight.
    mutating func cleanUp() {
        free.removeAll()  // curl_easy_cleanup
        curl_multi_cleanup(multi)
    }

    /// Sets `transfer` up on a free (or new) easy handle and adds it to the multi handle; answers
    /// it at once when that fails.
    private mutating func add(_ transfer: CurlTransfer) {
        var created = false
        let curl: CurlHandle
        if let reused = free.popLast() {
            curl = reused
        } else if let made = CurlHandle() {
            curl = made
            created = true
        } else {
            transfer.complete(.failure(transfer.exchange.noHandle()))
            return
        }
        do throws(TransportError) {
            try transfer.start(on: curl)
            if let age = driver.connectionMaximumAge {
                var setup = CurlSetup(handle: curl.pointer)
                setup.long(CURLOPT_MAXAGE_CONN, age)
            }
            guard events.attach(easy: curl.pointer) else {
                transfer.release()
                throw TransportError(
                    kind: .other, message: "curl_easy_setopt of the socket callbacks failed",
                    url: transfer.exchange.request.url)
            }
        } catch {
            free.append(curl)
            if created { driver.noteHandleCreated() }
            transfer.complete(.failure(error))
            return
        }
        let code = curl_multi_add_handle(multi, curl.pointer)
        guard code == CURLM_OK else {
            transfer.release()
            free.append(curl)
            if created { driver.noteHandleCreated() }
            transfer.complete(
                .failure(
                    TransportError(
                        kind: .other,
                        message: "curl_multi_add_handle failed: " + String(cString: curl_multi_strerror(code)),
                        url: transfer.exchange.request.url, code: Int(code.rawValue))))
            return
        }
        active[curl.pointer] = transfer
        driver.noteAdded(handleCreated: created)
    }

    /// Answers every transfer libcurl has finished since the last call; returns how many.
    private mutating func answerFinished() -> Int {
        var finished = 0
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = active.removeValue(forKey: easy), let curl = transfer.curl
            else { continue }
            // Read before the removal, which ends the message's life.
            let code = ccurl_message_result(message)
            curl_multi_remove_handle(multi, easy)
            let (result, opened) = transfer.finish(code: code)
            free.append(curl)
            // Counted before the caller hears the result, so that what it reads next includes this exchange.
            driver.noteRemoved(connectionsOpened: opened)
            transfer.complete(result)
            finished += 1
        }
        return finished
    }

    /// Takes a cancelled transfer out of the multi handle and answers it; nothing when it has
    /// finished already (or was never added: its flag stopped it then).
    private mutating func withdraw(_ transfer: CurlTransfer) {
        guard let curl = transfer.curl, active.removeValue(forKey: curl.pointer) != nil else { return }
        curl_multi_remove_handle(multi, curl.pointer)
        let opened = curl.connectionsOpenedByLastExchange
        transfer.release()
        free.append(curl)
        driver.noteRemoved(connectionsOpened: opened)
        transfer.complete(.failure(transfer.exchange.cancelledInFlight()))
    }

    /// Whole milliseconds from `now` until `deadline`, rounded up; 0 when it has passed.
    private static func milliseconds(from now: UInt64, to deadline: UInt64) -> Int {
        deadline <= now ? 0 : Int((deadline - now + 999_999) / 1_000_000)
    }
}
