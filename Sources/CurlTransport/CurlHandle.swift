import CCurl

/// One libcurl easy handle with its error buffer, reused for many exchanges by the worker that
/// owns it (never by two threads at once).
///
/// `curl_easy_reset` before each exchange clears every option set for the previous one but keeps
/// what the handle has learnt: its open connections (HTTP/1.1 keep-alive, at most
/// `maximumConnections` of them, the least recently used closed first), its DNS cache and TLS
/// session ids. A request to an origin the handle already talks to therefore goes out on the same
/// TCP connection, with the same bytes as on a new one.
final class CurlHandle {
    /// Connections a handle keeps open between exchanges (libcurl's default for an easy handle).
    static let maximumConnections = 5

    let pointer: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>

    /// A new easy handle, or nil when libcurl cannot make one (out of memory, or the global
    /// initialisation failed).
    init?() {
        guard CurlGlobal.ensureInitialized() == CURLE_OK, let handle = curl_easy_init() else { return nil }
        pointer = handle
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    /// Clears the options of the previous exchange and its error text; connections stay open.
    func reset() {
        curl_easy_reset(pointer)
        errorBuffer.update(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    /// New connections the last exchange opened (`CURLINFO_NUM_CONNECTS`): 0 when it reused one.
    var connectionsOpenedByLastExchange: Int {
        var count = 0
        _ = ccurl_getinfo_long(pointer, CURLINFO_NUM_CONNECTS, &count)
        return count
    }

    deinit {
        curl_easy_cleanup(pointer)
        errorBuffer.deallocate()
    }
}
