import MPinSDK
import Testing

@Suite struct HTTPStatusMappingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var context: RequestContext
        var http: Int
        var expected: StatusCode
        var flavour: MPinClient.Flavour = .mfaPlatform
        var testDescription: String { "\(context.rawValue) \(http) (\(flavour)) → \(expected.name)" }
    }

    /// Every row of docs/protocol.md §4's override table.
    static let overrides: [Row] = [
        Row(context: .getServiceDetails, http: 412, expected: .badClientVersion),
        Row(context: .register, http: 403, expected: .identityNotAuthorized),
        Row(context: .register, http: 404, expected: .registrationExpired),
        Row(context: .getClientSecret1, http: 400, expected: .identityNotVerified),
        Row(context: .getClientSecret1, http: 401, expected: .identityNotVerified),
        Row(context: .getClientSecret1, http: 404, expected: .registrationExpired),
        Row(context: .getClientSecret2, http: 408, expected: .requestExpired),
        Row(context: .getTimePermit1, http: 410, expected: .revoked),
        Row(context: .getTimePermit2, http: 410, expected: .revoked),
        Row(context: .authenticateRPA, http: 401, expected: .incorrectPIN),
        Row(context: .authenticateRPA, http: 408, expected: .requestExpired),
        Row(context: .authenticateRPA, http: 410, expected: .incorrectPIN),
        Row(context: .authenticateRPA, http: 412, expected: .incorrectAccessNumber),
        Row(context: .authenticateRPA, http: 403, expected: .identityNotAuthorized),
        Row(context: .authenticateRPA, http: 409, expected: .clientSecretExpired),
    ]

    @Test(arguments: overrides)
    func overrideRows(row: Row) {
        #expect(
            HTTPStatusMapping.status(forHTTPStatus: row.http, in: row.context, flavour: row.flavour) == row.expected)
    }

    /// The rows of the later core do not apply in the Milagro flavour.
    @Test(arguments: [
        Row(context: .getServiceDetails, http: 412, expected: .httpRequestError, flavour: .milagro),
        Row(context: .register, http: 404, expected: .httpRequestError, flavour: .milagro),
        Row(context: .getClientSecret1, http: 404, expected: .httpRequestError, flavour: .milagro),
        Row(context: .register, http: 403, expected: .identityNotAuthorized, flavour: .milagro),
    ])
    func flavourDependentRows(row: Row) {
        #expect(
            HTTPStatusMapping.status(forHTTPStatus: row.http, in: row.context, flavour: row.flavour) == row.expected)
    }

    /// 410 means REVOKED on a time permit but INCORRECT_PIN (and a block) on the login; 408 and
    /// 412 likewise depend on the request.
    @Test func contextDependence() {
        #expect(HTTPStatusMapping.status(forHTTPStatus: 410, in: .getTimePermit1) == .revoked)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 410, in: .authenticateRPA) == .incorrectPIN)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 410, in: .register) == .httpRequestError)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 408, in: .getClientSecret2) == .requestExpired)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 408, in: .getClientSecret1) == .httpRequestError)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 401, in: .authenticatePass1) == .httpRequestError)
    }

    @Test(arguments: RequestContext.allCases)
    func genericRules(context: RequestContext) {
        #expect(HTTPStatusMapping.status(forHTTPStatus: 500, in: context) == .httpServerError)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 503, in: context) == .httpServerError)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 406, in: context) == .badUserAgent)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 302, in: context) == .networkError)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 418, in: context) == .httpRequestError)
        #expect(HTTPStatusMapping.status(forHTTPStatus: 200, in: context) == .ok)
    }
}
