import MilagroProtocol
import OrderedJSON

extension MPinClient {
    /// Checks that `url` is an M-Pin backend by fetching its client settings (`TestBackend`).
    public func testBackend(_ url: String, rpsPrefix: String = Endpoint.defaultRPSPrefix) async throws(MPinError) {
        try await perform("testBackend", [NamedValue("url", url), NamedValue("rpsPrefix", rpsPrefix)]) {
            () async throws(MPinError) in
            _ = try await fetchClientSettings(url, rpsPrefix: rpsPrefix)
        }
    }

    /// Makes `url` the current backend (`SetBackend`): fetches the client settings, rewrites their
    /// relative URLs and applies the cSum rule (docs/protocol.md §2). On failure no backend is set.
    public func setBackend(_ url: String, rpsPrefix: String = Endpoint.defaultRPSPrefix) async throws(MPinError) {
        try await perform("setBackend", [NamedValue("url", url), NamedValue("rpsPrefix", rpsPrefix)]) {
            () async throws(MPinError) in
            try await setBackendImpl(url, rpsPrefix: rpsPrefix)
        }
    }

    func setBackendImpl(_ url: String, rpsPrefix: String) async throws(MPinError) {
        settings = nil
        backendURL = ""
        backendKey = ""
        let fetched = try await fetchClientSettings(url, rpsPrefix: rpsPrefix)
        backendURL = Self.trimmedURL(url)
        backendKey = Self.backendKey(url)
        settings = fetched
    }

    func fetchClientSettings(_ url: String, rpsPrefix: String) async throws(MPinError) -> ClientSettings {
        let base = Self.trimmedURL(url)
        var prefix = Substring(rpsPrefix)
        while prefix.hasPrefix("/") { prefix.removeFirst() }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let answer = try await request(
            .getClientSettings, .get, base + "/" + prefix + "/" + Endpoint.clientSettings.lastSegment)
        guard let json = answer.json, json.objectMembers != nil else {
            throw MPinError(
                .responseParseError, "The client settings are not a JSON object",
                context: .init(request: "GET \(base)/\(prefix)/clientSettings"))
        }
        return ClientSettings(response: json, backendURL: base)
    }

    /// A client setting as text (`GetClientParam`): numbers as integers, booleans as
    /// `true`/`false`, missing keys (or no backend) as an empty string.
    public func clientParameter(_ key: String) async -> String {
        (try? await perform("clientParameter", [NamedValue("key", key)], outputs: { [NamedValue("value", $0)] }) {
            () async throws(MPinError) in
            settings?.parameter(key) ?? ""
        }) ?? ""
    }

    /// The version of the Milagro core API this SDK implements (`GetVersion`).
    public nonisolated var version: String { Self.version }

    /// Adds headers sent with every request (`AddCustomHeaders`); existing names are replaced.
    public func addCustomHeaders(_ headers: HTTPHeaders) async throws(MPinError) {
        try await perform("addCustomHeaders", headers.map { NamedValue($0.name, $0.value) }) {
            () async throws(MPinError) in
            for field in headers { customHeaders.set(name: field.name, value: field.value) }
        }
    }

    /// Removes the custom headers (`ClearCustomHeaders`); the client id stays.
    public func clearCustomHeaders() async throws(MPinError) {
        try await perform("clearCustomHeaders", []) { () async throws(MPinError) in customHeaders = HTTPHeaders() }
    }

    /// The URL without trailing `/`.
    static func trimmedURL(_ url: String) -> String {
        var text = Substring(url)
        while text.hasSuffix("/") { text.removeLast() }
        return String(text)
    }

    /// The backend key: the URL without `https://` / `http://` and trailing `/` (docs/protocol.md §1).
    static func backendKey(_ url: String) -> String {
        var text = Substring(trimmedURL(url))
        for scheme in ["https://", "http://"] where text.lowercased().hasPrefix(scheme) {
            text = text.dropFirst(scheme.count)
        }
        return String(text)
    }
}
