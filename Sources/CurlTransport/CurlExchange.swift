import CCurl
import SDKSeams

/// One request on a reused easy handle: the options that set it up, and the response or error
/// read back when libcurl has finished it. `CurlMultiDriver` runs it; the options and the header
/// rules here are the ones the doc comment of `CurlTransport` lists.
struct CurlExchange {
    let request: HTTPRequest
    let options: CurlTransport.Options
    let cancellation: CancellationFlag?
    /// Seconds the request waited in the driver's queue before this exchange began; counted
    /// against its time limit.
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

    /// The error for a request cancelled before the driver added it to its transfers.
    func cancelledBeforeSending() -> TransportError {
        TransportError(kind: .cancelled, message: "The request was cancelled before it was sent", url: request.url)
    }

    /// The error for a request cancelled while libcurl ran it: the driver took it out of its
    /// transfers (whatever was sent stays sent).
    func cancelledInFlight() -> TransportError {
        TransportError(kind: .cancelled, message: "The request was cancelled while it was in flight", url: request.url)
    }

    /// The error for a request whose time limit ran out while it waited in the driver's queue:
    /// libcurl's timeout, with nothing sent.
    func timedOutWaiting() -> TransportError {
        failure(
            CURLE_OPERATION_TIMEDOUT,
            detail: "Operation timed out after \(Self.milliseconds(waited)) milliseconds with 0 bytes received")
    }

    /// Sets `curl` up for this exchange: resets it first (its connections stay in the driver's
    /// cache), then sets every option and the header list; the response goes to `accumulator`.
    ///
    /// - Returns: the header list, which must stay alive until libcurl has finished the transfer
    ///   (the caller frees it with `curl_slist_free_all`).
    /// - Throws: `cancelledBeforeSending()` when the request was cancelled already,
    ///   `timedOutWaiting()` when its time limit ran out in the queue, `.invalidRequest` when
    ///   libcurl refused an option; nothing is allocated then.
    func configure(_ curl: CurlHandle, accumulator: ResponseAccumulator) throws(TransportError) -> UnsafeMutablePointer<
        curl_slist
    >? {
        curl.reset()
        if cancellation?.isCancelled == true { throw cancelledBeforeSending() }
        var remaining: Double?
        if let limit = timeLimit {
            // Waiting in the queue used up the whole limit: time out as libcurl would have, with
            // nothing sent.
            guard waited < limit else { throw timedOutWaiting() }
            remaining = limit - waited
        }
        let context = Unmanaged.passUnretained(accumulator).toOpaque()

        var setup = CurlSetup(handle: curl.pointer)
        setup.pointer(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(curl.errorBuffer))
        setup.string(CURLOPT_URL, request.url)
        setup.string(CURLOPT_PROTOCOLS_STR, "http,https")
        setup.long(CURLOPT_NOSIGNAL, 1)
        setup.long(CURLOPT_FOLLOWLOCATION, 0)
        setup.long(CURLOPT_PATH_AS_IS, 1)
        setup.long(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        setup.long(CURLOPT_SSL_VERIFYPEER, options.verifyTLS ? 1 : 0)
        setup.long(CURLOPT_SSL_VERIFYHOST, options.verifyTLS ? 2 : 0)
        if let remaining {
            setup.long(CURLOPT_TIMEOUT_MS, Self.milliseconds(remaining))
        }
        if let localAddress = options.localAddress {
            setup.string(CURLOPT_INTERFACE, "host!" + localAddress)
        }
        if let limit = options.maximumResponseBody {
            // A Content-Length over the limit ends the transfer before the body is read; a body
            // of unknown length is held to the limit by the write callback.
            setup.offset(CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        }
        if let wait = options.expectContinueWait {
            setup.long(CURLOPT_EXPECT_100_TIMEOUT_MS, Self.milliseconds(wait))
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

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
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
                // Fewer bytes than given: libcurl ends the transfer with CURLE_WRITE_ERROR.
                guard
                    Unmanaged<ResponseAccumulator>.fromOpaque(user).takeUnretainedValue()
                        .appendBody(UnsafeRawBufferPointer(start: data, count: length))
                else { return 0 }
            }
            return length
        }
        setup.pointer(CURLOPT_WRITEDATA, context)
        setup.callback(CURLOPT_HEADERFUNCTION) { data, size, count, user in
            let length = size * count
            if let data, let user {
                Unmanaged<ResponseAccumulator>.fromOpaque(user).takeUnretainedValue()
                    .appendHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
            }
            return length
        }
        setup.pointer(CURLOPT_HEADERDATA, context)

        if let (option, code) = setup.firstFailure {
            curl_slist_free_all(headerList)
            throw TransportError(
                kind: .invalidRequest,
                message: "curl_easy_setopt(\(option.rawValue)) failed: " + String(cString: curl_easy_strerror(code)),
                url: request.url, code: Int(code.rawValue))
        }
        return headerList
    }

    /// What a finished transfer on `curl` (set up by `configure`) gave: the response collected in
    /// `accumulator` with its status and timings, or, when libcurl's result `code` is not
    /// `CURLE_OK`, the error with libcurl's message.
    func outcome(of code: CURLcode, on curl: CurlHandle, accumulator: ResponseAccumulator) -> Result<
        HTTPResponse, TransportError
    > {
        if (code == CURLE_WRITE_ERROR && accumulator.overflowed) || code == CURLE_FILESIZE_EXCEEDED,
            let limit = options.maximumResponseBody
        {
            return .failure(
                TransportError(
                    kind: .responseTooLarge,
                    message: "the response body is more than \(limit) bytes, the most this transport takes",
                    url: request.url, code: Int(code.rawValue)))
        }
        guard code == CURLE_OK else {
            return .failure(failure(code, detail: String(cString: curl.errorBuffer)))
        }
        var status = 0
        _ = ccurl_getinfo_long(curl.pointer, CURLINFO_RESPONSE_CODE, &status)
        return .success(
            HTTPResponse(
                status: status, headers: HTTPHeaders(accumulator.headers), body: accumulator.body,
                timings: Self.timings(curl.pointer)))
    }

    private func failure(_ code: CURLcode, detail: String) -> TransportError {
        var message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if code == CURLE_OPERATION_TIMEDOUT {
            let limit = message.hasPrefix("Operation") ? timeLimit : options.connectTimeout
            message = Self.withoutElapsedTime(message, limit: limit.map(Self.milliseconds))
        } else if code == CURLE_COULDNT_CONNECT {
            message = Self.withoutConnectTime(message)
        }
        return TransportError(kind: Self.kind(of: code), message: message, url: request.url, code: Int(code.rawValue))
    }

    /// libcurl's timeout text with the measured time ("after 2001 milliseconds") replaced by the
    /// limit that was hit ("at the 2000 ms limit"), so that the same timeout gives the same message
    /// every run and a recording of it is reproducible.
    static func withoutElapsedTime(_ message: String, limit: Int?) -> String {
        guard let after = message.range(of: "after "),
            let unit = message.range(of: " milliseconds", range: after.upperBound..<message.endIndex),
            message[after.upperBound..<unit.lowerBound].allSatisfy(\.isNumber)
        else { return message }
        let replacement = limit.map { "at the \($0) ms limit" } ?? "at the time limit"
        return message.replacingCharacters(in: after.lowerBound..<unit.upperBound, with: replacement)
    }

    /// libcurl's refused-connection text without the time it measured ("Failed to connect to
    /// 127.0.0.1 port 1 after 0 ms: Couldn't connect to server" loses " after 0 ms"), which reads 1
    /// ms on a busy machine: the same refusal gives the same message every run, as a timeout does.
    static func withoutConnectTime(_ message: String) -> String {
        guard let after = message.range(of: " after "),
            let unit = message.range(of: " ms", range: after.upperBound..<message.endIndex),
            !message[after.upperBound..<unit.lowerBound].isEmpty,
            message[after.upperBound..<unit.lowerBound].allSatisfy(\.isNumber)
        else { return message }
        return message.replacingCharacters(in: after.lowerBound..<unit.upperBound, with: "")
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
        return HTTPTimings(
            dns: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
            tls: seconds(CURLINFO_APPCONNECT_TIME_T), requestSent: seconds(CURLINFO_PRETRANSFER_TIME_T),
            firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T), total: seconds(CURLINFO_TOTAL_TIME_T))
    }
}
