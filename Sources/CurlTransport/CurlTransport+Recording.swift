extension CurlTransport {
    /// libcurl with the time limits of `record` and `run` and of the testing library's recordings:
    /// 60 s per request, 10 s to connect.
    package static func forRecording() -> CurlTransport {
        CurlTransport(options: .init(defaultTimeout: 60, connectTimeout: 10))
    }
}
