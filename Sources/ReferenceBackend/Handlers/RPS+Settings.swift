import MilagroProtocol
import OrderedJSON

/// `GET /rps/clientSettings` and `GET /service` (docs/protocol.md §2, §3.0).
extension BackendCore {
    /// Where the client settings point the time-permit storage (docs/protocol.md §2, §8.4): every GET under
    /// it answers 404, so the SDK asks D-TA 2 for share 2.
    static let timePermitsStorageSegment = Endpoint.timePermitsStorage.lastSegment

    /// The client settings (docs/protocol.md §2), as `ClientSettingsLayout` lays them out for the
    /// backend's flavour and profile; the `milagro-oss` profile's `seedValue` is 100 random bytes,
    /// hex, drawn for each request from the backend's generator.
    func clientSettings() -> Reply {
        .json(.ok, .fields(settingsMembers(seedValue: openSource ? random.hex(100) : "")))
    }

    /// The client settings asked for by a page on `origin` (a browser's `Origin`; nil for the SDK):
    /// a page on another origin than the backend's resolves a relative URL against its own origin,
    /// so each URL setting that is a path is given with the backend's origin in front
    /// (docs/backend.md, "Browser clients"). The SDK's settings, and a same-origin page's, are as before.
    func clientSettings(origin: String?) -> Reply {
        guard let origin, origin != base.url else { return clientSettings() }
        let members = settingsMembers(seedValue: openSource ? random.hex(100) : "").map {
            member -> (String, JSONValue) in
            guard case .string(let path) = member.1, path.hasPrefix("/"), !path.hasPrefix("//") else { return member }
            return (member.0, .string(base.url + path))
        }
        return .json(.ok, .fields(members))
    }

    /// The settings' members (`ClientSettingsLayout.members`); `seedValue` is used by the
    /// `milagro-oss` and `milagro-hosted-v3` profiles only, the base URL by `milagro-oss` only.
    func settingsMembers(seedValue: String) -> [(String, JSONValue)] {
        ClientSettingsLayout.members(
            flavour: configuration.flavour, profile: configuration.profile, appID: appID, baseURL: base.url,
            seedValue: seedValue, dta2URL: dta2Base.url.isEmpty ? nil : dta2Base.url)
    }

    /// Service details for a scanned QR code's landing URL.
    func service() -> Reply {
        .ok([
            ("name", "MPin Workbench reference backend"), ("url", .string(base.url)),
            ("rps_prefix", .string(Endpoint.defaultRPSPrefix)),
            ("logo_url", ""), ("type", "online"),
        ])
    }

    /// `POST /rps/setupDone/<mpinId>` (`milagro-oss` profile, whose settings name it): the app's
    /// note that its setup is done, which the SDK core never sends (docs/protocol.md §2, §8.2). 200 with an
    /// empty body for an issued M-Pin ID, 404 for another.
    func setupDone(mpinIDHex: String) async throws(APIError) -> Reply {
        _ = try mpinIDBytes(mpinIDHex)
        guard await store.identity(mpinIDHex) != nil else { throw APIError(.notFound, "Unknown M-Pin ID") }
        return .empty(.ok)
    }
}
