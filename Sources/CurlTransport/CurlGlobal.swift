import CCurl

/// `curl_global_init`, run once per process before the first handle is made (it is not thread-safe
/// itself; a `static let` initialiser runs exactly once).
enum CurlGlobal {
    static let initResult: CURLcode = ccurl_global_init_default()

    static func ensureInitialized() -> CURLcode {
        initResult
    }
}
