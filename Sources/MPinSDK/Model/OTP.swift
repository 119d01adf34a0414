/// The one-time password of `finishAuthenticationOTP` (the C++ `MPinSDK::OTP`).
public struct OTP: Sendable, Hashable {
    public var otp: String
    /// Server time when the OTP expires, in seconds since 1970.
    public var expireTime: Int
    public var ttlSeconds: Int
    /// Server time when the OTP was issued, in seconds since 1970.
    public var nowTime: Int
    /// OK when an OTP was issued; RESPONSE_PARSE_ERROR when it was not or its times are missing
    /// (the call itself still succeeds, as in the C++ core).
    public var status: MPinStatus
    /// Local time (milliseconds since 1970, from the SDK's clock) when the OTP arrived, so an app
    /// can count down `ttlSeconds` without trusting the server's clock.
    public var receivedAt: Int64

    public init(
        otp: String = "", expireTime: Int = 0, ttlSeconds: Int = 0, nowTime: Int = 0,
        status: MPinStatus = .ok, receivedAt: Int64 = 0
    ) {
        self.otp = otp
        self.expireTime = expireTime
        self.ttlSeconds = ttlSeconds
        self.nowTime = nowTime
        self.status = status
        self.receivedAt = receivedAt
    }
}
