import CCurl

/// One libcurl easy handle with its error buffer, reused for many exchanges by the thread of a
/// `CurlMultiDriver` (one exchange at a time; between exchanges it waits on the driver's free list).
///
/// `curl_easy_reset` before each exchange clears every option set for the previous one. The open
/// connections are not the handle's: while it is added to the driver's multi handle it uses that
/// handle's connection cache, shared by all its easy handles.
final class CurlHandle {
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

    /// Clears the options of the previous exchange and its error text.
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
