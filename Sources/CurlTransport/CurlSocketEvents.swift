import CCurl
import Dispatch
import Glibc

/// What the thread of a `CurlMultiDriver` waits for, in libcurl's socket interface: the sockets
/// libcurl asks it to watch (`CURLMOPT_SOCKETFUNCTION`), libcurl's one timer
/// (`CURLMOPT_TIMERFUNCTION`), and an eventfd that submissions and cancellations write to wake it.
/// The sockets and the eventfd are watched with one epoll instance.
///
/// Unlike `curl_multi_perform`, which polls every transfer's socket at every call (it does not
/// know which one is ready), `curl_multi_socket_action` is told which socket is ready and for
/// what, so libcurl works only on the transfers that have something to do.
///
/// The eventfd is watched edge-triggered and never read by the thread: every write is a new edge,
/// so one write wakes one wait, and the thread spends no call draining it. Only the thread touches
/// an instance, apart from `wake(_:)`, which any thread may call with its eventfd.
///
/// A connection's socket stays registered while libcurl keeps the connection between transfers:
/// libcurl stops watching it when a transfer ends (`CURL_POLL_REMOVE`) and watches it again, for
/// the same events, when the next transfer reuses it, and leaving it in `epoll` saves the two
/// `epoll_ctl` calls of every exchange. It is done only for the sockets this instance opened and
/// closes for libcurl (`CURLOPT_OPENSOCKETFUNCTION`, `CURLOPT_CLOSESOCKETFUNCTION`, set on every
/// easy handle by `attach(to easy:)`), so a socket that libcurl closes is always taken out of
/// `epoll` and out of the table first: otherwise a new socket with the same descriptor number
/// could be taken for registered and never be watched. A kept socket that becomes ready while no
/// transfer watches it (the server closed the connection) is taken out of `epoll` then; libcurl
/// finds the connection dead when it looks at it next.
final class CurlSocketEvents {
    /// The epoll instance.
    let epoll: Int32
    /// The eventfd that wakes `wait`.
    let wakeup: Int32
    /// When libcurl's timer runs out (monotonic nanoseconds); nil while it has none.
    private(set) var timerDeadline: UInt64?
    /// The events each socket is registered for in `epoll` now (`EPOLLIN`, `EPOLLOUT`).
    private var registered: [Int32: UInt32] = [:]
    /// The sockets this instance opened for libcurl and has not closed yet.
    private var opened: Set<Int32> = []
    /// Registered sockets that libcurl does not watch now (kept connections).
    private var kept: Set<Int32> = []
    /// Where `epoll_wait` puts the ready descriptors and their events.
    private let readyFDs: UnsafeMutablePointer<Int32>
    private let readyEvents: UnsafeMutablePointer<UInt32>
    private static let readyCapacity: Int32 = 64
    /// The key of the eventfd in `epoll` (no socket has it).
    private static let wakeupKey: Int32 = -1

    /// A new epoll instance with its eventfd registered, or nil when the system refuses one.
    init?() {
        let epoll = ccurl_epoll_create()
        guard epoll >= 0 else { return nil }
        let wakeup = ccurl_eventfd_create()
        guard wakeup >= 0 else {
            close(epoll)
            return nil
        }
        // Keyed by -1 (no socket has it); the registration is for the eventfd itself.
        guard
            Self.control(epoll, EPOLL_CTL_ADD, wakeup, events: EPOLLIN.rawValue | EPOLLET.rawValue, key: Self.wakeupKey)
                == 0
        else {
            close(wakeup)
            close(epoll)
            return nil
        }
        self.epoll = epoll
        self.wakeup = wakeup
        readyFDs = .allocate(capacity: Int(Self.readyCapacity))
        readyEvents = .allocate(capacity: Int(Self.readyCapacity))
    }

    deinit {
        close(wakeup)
        close(epoll)
        readyFDs.deallocate()
        readyEvents.deallocate()
    }

    /// Wakes the thread waiting in `wait` on the instance whose eventfd is `wakeup` (or makes its
    /// next wait return at once). Any thread may call it while the instance lives.
    static func wake(_ wakeup: Int32) {
        ccurl_eventfd_signal(wakeup)
    }

    /// Hands this instance to `multi` as its socket and timer callbacks.
    func attach(to multi: UnsafeMutableRawPointer) -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        return ccurl_multi_setopt_socket_callback(multi) { _, socket, what, user, _ in
            guard let user else { return -1 }
            return Unmanaged<CurlSocketEvents>.fromOpaque(user).takeUnretainedValue().watch(socket, what: what)
        } == CURLM_OK
            && ccurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context) == CURLM_OK
            && ccurl_multi_setopt_timer_callback(multi) { _, milliseconds, user in
                guard let user else { return -1 }
                Unmanaged<CurlSocketEvents>.fromOpaque(user).takeUnretainedValue().setTimer(milliseconds)
                return 0
            } == CURLM_OK
            && ccurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context) == CURLM_OK
    }

    /// Sets `easy`'s socket open and close callbacks to this instance's, so that its connections'
    /// sockets are known from their opening to their closing (see the type's description). It must
    /// be set again after every `curl_easy_reset`; libcurl keeps them with each connection.
    func attach(easy: UnsafeMutableRawPointer) -> Bool {
        let context = Unmanaged.passUnretained(self).toOpaque()
        return ccurl_setopt_socket_callbacks(
            easy,
            { user, _, address in
                guard let user, let address else { return CURL_SOCKET_BAD }
                return Unmanaged<CurlSocketEvents>.fromOpaque(user).takeUnretainedValue().openSocket(address)
            },
            { user, socket in
                guard let user else { return Glibc.close(socket) }
                return Unmanaged<CurlSocketEvents>.fromOpaque(user).takeUnretainedValue().closeSocket(socket)
            }, context) == CURLE_OK
    }

    /// libcurl's socket opener: a socket for `address`, remembered as opened here.
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let socket = ccurl_open_socket(address)
        if socket >= 0 { opened.insert(socket) }
        return socket < 0 ? CURL_SOCKET_BAD : socket
    }

    /// libcurl's socket closer: out of `epoll` and the tables first, then closed.
    private func closeSocket(_ socket: Int32) -> Int32 {
        forget(socket)
        opened.remove(socket)
        return Glibc.close(socket)
    }

    /// Takes `socket` out of `epoll` (when registered) and out of the tables of registered and kept sockets.
    private func forget(_ socket: Int32) {
        kept.remove(socket)
        // Failure is no error: libcurl may have closed the socket already.
        if registered.removeValue(forKey: socket) != nil {
            _ = Self.control(epoll, EPOLL_CTL_DEL, socket, events: 0, key: socket)
        }
    }

    /// libcurl's socket callback: watch `socket` for `what` (`CURL_POLL_IN`, `_OUT`, `_INOUT`), or
    /// stop watching it (`CURL_POLL_REMOVE`): a socket opened here stays registered, kept (see
    /// the type's description), any other is taken out. Returns 0, or -1 when epoll refused.
    private func watch(_ socket: Int32, what: Int32) -> Int32 {
        var wanted: UInt32 = 0
        if what & Int32(CURL_POLL_IN) != 0 { wanted |= EPOLLIN.rawValue }
        if what & Int32(CURL_POLL_OUT) != 0 { wanted |= EPOLLOUT.rawValue }
        if what == Int32(CURL_POLL_REMOVE) || wanted == 0 {
            if opened.contains(socket) && registered[socket] != nil {
                kept.insert(socket)
            } else {
                forget(socket)
            }
            return 0
        }
        kept.remove(socket)
        let known = registered[socket]
        if known == wanted { return 0 }
        var status = Self.control(
            epoll, known == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, socket, events: wanted, key: socket)
        if status == EEXIST { status = Self.control(epoll, EPOLL_CTL_MOD, socket, events: wanted, key: socket) }
        if status == ENOENT { status = Self.control(epoll, EPOLL_CTL_ADD, socket, events: wanted, key: socket) }
        guard status == 0 else {
            forget(socket)
            return -1
        }
        registered[socket] = wanted
        return 0
    }

    /// `epoll_ctl` for `fd`, reported by `wait` as `key`: 0, or the errno.
    private static func control(_ epoll: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, key: Int32) -> Int32 {
        ccurl_epoll_control(epoll, operation, fd, events, key)
    }

    /// libcurl's timer callback: run out after `milliseconds` (0: at once), or never (-1).
    private func setTimer(_ milliseconds: Int) {
        timerDeadline =
            milliseconds < 0 ? nil : DispatchTime.now().uptimeNanoseconds &+ UInt64(milliseconds) * 1_000_000
    }

    /// True when libcurl's timer has run out by `now` (it then wants `CURL_SOCKET_TIMEOUT`).
    func timerDue(_ now: UInt64) -> Bool {
        timerDeadline.map { $0 <= now } ?? false
    }

    /// Waits at most `milliseconds` for a watched socket or a wakeup, then calls `action` with each
    /// ready socket and its `CURL_CSELECT_*` bits (not for the wakeup, nor for a kept socket, which
    /// is taken out of `epoll` instead).
    func wait(milliseconds: Int, _ action: (Int32, Int32) -> Void) {
        let count = ccurl_epoll_wait(epoll, readyFDs, readyEvents, Self.readyCapacity, Int32(clamping: milliseconds))
        for index in 0..<Int(max(count, 0)) {
            let socket = readyFDs[index]
            if socket == Self.wakeupKey { continue }
            if kept.contains(socket) {
                forget(socket)
                continue
            }
            let events = readyEvents[index]
            var bits: Int32 = 0
            if events & (EPOLLIN.rawValue | EPOLLHUP.rawValue) != 0 { bits |= Int32(CURL_CSELECT_IN) }
            if events & EPOLLOUT.rawValue != 0 { bits |= Int32(CURL_CSELECT_OUT) }
            if events & EPOLLERR.rawValue != 0 { bits |= Int32(CURL_CSELECT_ERR) }
            action(socket, bits)
        }
    }
}
