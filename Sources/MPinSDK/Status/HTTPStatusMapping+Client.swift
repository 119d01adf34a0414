import MilagroProtocol

extension HTTPStatusMapping {
    /// The SDK status for a non-200 HTTP status of a request made for `context` by a client of
    /// this flavour (docs/protocol.md §4; the table is `status(forHTTPStatus:in:flavour:)` of MilagroProtocol).
    public static func status(forHTTPStatus http: Int, in context: RequestContext, flavour: MPinClient.Flavour)
        -> StatusCode
    {
        status(forHTTPStatus: http, in: context, flavour: BackendFlavour(flavour))
    }
}
