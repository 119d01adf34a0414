/// A registration waiting for its signature request (the RPS's `stage:register` record).
struct RegistrationRecord: Sendable {
    var mpinID: String
    var userID: String
    var regOTT: String
    var activateKey: String
    var active: Bool
    var expires: Int64
}

/// An M-Pin ID that has been issued its client-secret share.
struct IdentityRecord: Sendable {
    var userID: String
    /// Consecutive failed authentications; at the limit the ID is blocked for good.
    var attempts = 0
}

/// A pass-1 commitment and the challenge y sent back.
struct Pass1Record: Sendable {
    var u: [UInt8]
    var ut: [UInt8]?
    var y: [UInt8]
    var expires: Int64
}

/// The verdict of pass 2, redeemable once with its authOTT.
struct AuthRecord: Sendable {
    var mpinID: String
    var userID: String
    var success: Bool
    var expires: Int64
    /// The access number or code it authenticates ("" for a direct login).
    var wid: String
    /// The OTP issued with it, when one was asked for.
    var otp: String?
}

/// A browser session waiting for a phone: an access number (Milagro) or an access code (MFA platform).
struct BrowserSession: Sendable {
    /// What the browser's poll reports (docs/protocol.md §8.2). `authenticate`: the phone's login is held
    /// for the browser; `expired`: the session is over (the browser logged in, no browser came in
    /// time, or its time ran out).
    enum Status: String, Sendable {
        case new, wid, user, authenticate, aborted, expired
    }

    var wid: String
    var webOTT: String
    var expires: Int64
    var status: Status = .new
    var userID = ""
    /// The authOTT of the latest pass 2 for this session; shown to the browser only once the
    /// phone's login has succeeded (`authenticate`).
    var authOTT = ""
    /// OIDC parameters of an authorize request (MFA platform).
    var clientID = ""
    var redirectURI = ""
    var state = ""
    /// The authorization code handed to the browser's redirect, when one was issued.
    var browserCode = ""
}

/// A browser session logged in by the demo RPA (`POST /mpinAuthenticate` with a held phone
/// login), named by its session token; the phone's `POST /logout` logs it out (docs/protocol.md §8.3).
struct RPASession: Sendable {
    var userID: String
    var loggedIn: Bool
    /// When it is forgotten (milliseconds), to bound memory.
    var expires: Int64
}

/// An OIDC authorization code (MFA platform), exchangeable once.
struct AuthorizationCode: Sendable {
    var userID: String
    var mpinID: String
    var clientID: String
    var expires: Int64
}

/// What the demo RPA "mails" to a user: an activation link or an activation code.
public struct ActivationMessage: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case link, code
    }

    public var kind: Kind
    public var userID: String
    /// The M-Pin ID being activated (links only).
    public var mpinID: String
    /// The link to open or the code to type.
    public var value: String
}

/// Time-permit share 1 of one M-Pin ID for a run of consecutive days from `first`, as the RPS
/// fetched it from D-TA 1 (`/timePermits?count=`, docs/protocol.md §8.1, §8.2).
struct KeptPermitShares: Sendable {
    var first: UInt32
    var shares: [[UInt8]]

    /// The days kept; a run that would pass the last day a `UInt32` holds ends there.
    var days: Range<UInt32> {
        let (end, overflow) = first.addingReportingOverflow(UInt32(clamping: shares.count))
        return first..<(overflow ? .max : end)
    }

    func share(for date: UInt32) -> [UInt8]? {
        days.contains(date) ? shares[Int(date - first)] : nil
    }
}
