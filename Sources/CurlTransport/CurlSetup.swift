import CCurl

/// `curl_easy_setopt` calls through the typed shims, remembering the first failure.
struct CurlSetup {
    let handle: UnsafeMutableRawPointer
    private(set) var firstFailure: (CURLoption, CURLcode)?

    init(handle: UnsafeMutableRawPointer) {
        self.handle = handle
    }

    private mutating func check(_ option: CURLoption, _ code: CURLcode) {
        if code != CURLE_OK && firstFailure == nil { firstFailure = (option, code) }
    }

    mutating func long(_ option: CURLoption, _ value: Int) {
        check(option, ccurl_setopt_long(handle, option, value))
    }

    mutating func offset(_ option: CURLoption, _ value: curl_off_t) {
        check(option, ccurl_setopt_off(handle, option, value))
    }

    /// libcurl copies string options, so the Swift string may go away after the call.
    mutating func string(_ option: CURLoption, _ value: String) {
        check(option, ccurl_setopt_string(handle, option, value))
    }

    mutating func pointer(_ option: CURLoption, _ value: UnsafeMutableRawPointer?) {
        check(option, ccurl_setopt_pointer(handle, option, value))
    }

    mutating func list(_ option: CURLoption, _ value: UnsafeMutablePointer<curl_slist>?) {
        check(option, ccurl_setopt_slist(handle, option, value))
    }

    mutating func callback(_ option: CURLoption, _ function: ccurl_data_callback) {
        check(option, ccurl_setopt_callback(handle, option, function))
    }
}
