import CCurl
import SDKSeams

/// One request on a reused easy handle: set up, perform, read the results.
struct CurlExchange {
    let request: HTTPRequest
    let options: CurlTransport.Options
    let cancellation: CancellationFlag?
    /// Seconds the request waited for a free worker before this exchange began; counted against
    /// its time limit.
    var waited: Double = 0

    /// The time limit of this request in seconds (its own or the transport's default), if any.
    var timeLimit: Double? { request.timeout ?? options.defaultTimeout }

    /// The error for a request that could not get a handle: the global initialisation failed, or
    /// `curl_easy_init` did.
    func noHandle() -> TransportError {
        let globalStatus = CurlGlobal.ensureInitialized()
        guard globalStatus == CURLE_OK else { return failure(globalStatus, detail: "curl_global_init failed") }
        return TransportError(kind: .other, message: "curl_easy_init failed", url: request.url)
    }

    /// The error for a request cancelled before a worker took it up.
    func cancelledBeforeSending() -> TransportError {
        TransportError(kind: .cancelled, message: "The request was cancelled before it was sent", url: request.url)
    }

    /// The error for a request whose time limit ran out while it waited for a worker: libcurl's
    /// timeout, with nothing sent.
    func timedOutWaiting() -> TransportError {
        failure(CURLE_OPERATION_TIMEDOUT, detail: "Operation timed out after \(Self.milliseconds(waited)) milliseconds with 0 bytes received")
    }

    /// Runs the exchange on `curl`, which is reset first (its open connections are kept).
    func perform(on curl: CurlHandle) throws(TransportError) -> HTTPResponse {
        curl.reset()
        if cancellation?.isCancelled == true { throw cancelledBeforeSending() }
        var remaining: Double?
        if let limit = timeLimit {
            // Waiting for a worker used up the whole limit: time out as libcurl would have, with
            // nothing sent.
            guard waited < limit else { throw timedOutWaiting() }
            remaining = limit - waited
        }
        let handle = curl.pointer
        let errorBuffer = curl.errorBuffer

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }

        let accumulator = ResponseAccumulator(cancellation: cancellation)
        let context = Unmanaged.passRetained(accumulator)
        defer { context.release() }

        var setup = CurlSetup(handle: handle)
        setup.pointer(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
        setup.string(CURLOPT_URL, request.url)
        setup.string(CURLOPT_PROTOCOLS_STR, "http,https")
        setup.long(CURLOPT_MAXCONNECTS, CurlHandle.maximumConnections)
        setup.long(CURLOPT_NOSIGNAL, 1)
        setup.long(CURLOPT_FOLLOWLOCATION, 0)
        setup.long(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        setup.long(CURLOPT_SSL_VERIFYPEER, options.verifyTLS ? 1 : 0)
        setup.long(CURLOPT_SSL_VERIFYHOST, options.verifyTLS ? 2 : 0)
        if let remaining {
            setup.long(CURLOPT_TIMEOUT_MS, Self.milliseconds(remaining))
        }
        if let connectTimeout = options.connectTimeout {
            setup.long(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
        }

        let sendsBody = !request.body.isEmpty || [.post, .put, .patch].contains(request.method)
        if request.method == .get && !sendsBody {
            setup.long(CURLOPT_HTTPGET, 1)
        } else {
            if sendsBody {
                setup.offset(CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
                if request.body.isEmpty {
                    setup.string(CURLOPT_COPYPOSTFIELDS, "")
                } else {
                    // COPYPOSTFIELDS copies exactly POSTFIELDSIZE bytes, so binary bodies are safe.
                    request.body.withUnsafeBytes { bytes in
                        setup.pointer(CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    }
                }
            }
            if request.method != .post || !sendsBody {
                setup.string(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            }
        }

        for field in request.headers {
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            headerList = curl_slist_append(headerList, line)
        }
        if !request.headers.contains("Accept") { headerList = curl_slist_append(headerList, "Accept:") }
        if !request.headers.contains("Expect") { headerList = curl_slist_append(headerList, "Expect:") }
        if sendsBody && !request.headers.contains("Content-Type") {
            headerList = curl_slist_append(headerList, "Content-Type:")
        }
        setup.list(CURLOPT_HTTPHEADER, headerList)

        setup.callback(CURLOPT_WRITEFUNCTION) { data, size, count, user in
            let length = size * count
            if let data, let user {
                Unmanaged<ResponseAccumulator>.fromOpaque(user).takeUnretainedValue()
                    .appendBody(UnsafeRawBufferPointer(start: data, count: length))
            }
            return length
        }
        setup.pointer(CURLOPT_WRITEDATA, context.toOpaque())
        setup.callback(CURLOPT_HEADERFUNCTION) { data, size, count, user in
            let length = size * count
            if let data, let user {
                Unmanaged<ResponseAccumulator>.fromOpaque(user).takeUnretainedValue()
                    .appendHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
            }
            return length
        }
        setup.pointer(CURLOPT_HEADERDATA, context.toOpaque())
        if cancellation != nil {
            setup.long(CURLOPT_NOPROGRESS, 0)
            setup.progress(CURLOPT_XFERINFOFUNCTION) { user, _, _, _, _ in
                guard let user else { return 0 }
                return Unmanaged<ResponseAccumulator>.fromOpaque(user).takeUnretainedValue().isCancelled ? 1 : 0
            }
            setup.pointer(CURLOPT_XFERINFODATA, context.toOpaque())
        }

        if let (option, code) = setup.firstFailure {
            throw TransportError(kind: .invalidRequest,
                                 message: "curl_easy_setopt(\(option.rawValue)) failed: " + String(cString: curl_easy_strerror(code)),
                                 url: request.url, code: Int(code.rawValue))
        }

        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            throw failure(code, detail: detail)
        }

        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: HTTPHeaders(accumulator.headers), body: accumulator.body,
                            timings: Self.timings(handle))
    }

    private func failure(_ code: CURLcode, detail: String) -> TransportError {
        var message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if code == CURLE_OPERATION_TIMEDOUT {
            let limit = message.hasPrefix("Operation") ? timeLimit : options.connectTimeout
            message = Self.withoutElapsedTime(message, limit: limit.map(Self.milliseconds))
        }
        return TransportError(kind: Self.kind(of: code), message: message, url: request.url, code: Int(code.rawValue))
    }

    /// libcurl's timeout text with the measured time ("after 2001 milliseconds") replaced by the
    /// limit that was hit ("at the 2000 ms limit"), so that the same timeout gives the same message
    /// every run and a recording of it is reproducible.
    static func withoutElapsedTime(_ message: String, limit: Int?) -> String {
        guard let after = message.range(of: "after "),
              let unit = message.range(of: " milliseconds", range: after.upperBound..<message.endIndex),
              message[after.upperBound..<unit.lowerBound].allSatisfy(\.isNumber) else { return message }
        let replacement = limit.map { "at the \($0) ms limit" } ?? "at the time limit"
        return message.replacingCharacters(in: after.lowerBound..<unit.upperBound, with: replacement)
    }

    static func kind(of code: CURLcode) -> TransportError.Kind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .hostNotFound
        case CURLE_COULDNT_CONNECT: return .connectionRefused
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ISSUER_ERROR:
            return .tls
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT: return .invalidRequest
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        default: return .other
        }
    }

    /// A time limit in whole milliseconds for libcurl: at least 1, at most Int32.max (about 24
    /// days; libcurl's own ceiling on 32-bit longs); a limit that is not a number is the shortest.
    static func milliseconds(_ seconds: Double) -> Int {
        let limit = (seconds * 1000).rounded(.up)
        guard limit.isFinite else { return limit == .infinity ? Int(Int32.max) : 1 }
        return Int(min(max(limit, 1), Double(Int32.max)))
    }

    private static func timings(_ handle: UnsafeMutableRawPointer) -> HTTPTimings {
        func seconds(_ info: CURLINFO) -> Double {
            var micro: curl_off_t = 0
            _ = ccurl_getinfo_off(handle, info, &micro)
            return Double(micro) / 1_000_000
        }
        return HTTPTimings(dns: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
                           tls: seconds(CURLINFO_APPCONNECT_TIME_T), requestSent: seconds(CURLINFO_PRETRANSFER_TIME_T),
                           firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T), total: seconds(CURLINFO_TOTAL_TIME_T))
    }
}
