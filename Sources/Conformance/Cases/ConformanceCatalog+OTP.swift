import MPinSDK
import OrderedJSON

/// OTP (docs/protocol.md §3.6, §8.2, §13): pass 2 with `OTP: true` answers a six-digit OTP; the RPA
/// states its validity; no OTP for a login that asked none; a wrong PIN gets no login.
extension ConformanceCatalog {
    static let otpSource = "docs/protocol.md §3.6, §8.2"

    static var otp: [ConformanceCase] {
        [
            ConformanceCase(
                "otp.issued", .otp, .should, title: "Pass 2 answers a six-digit OTP when asked", source: otpSource,
                sends: "a login with pass 2 {OTP: true}", expects: "pass 2's OTP: six digits"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.loginOTP(user)
                guard let answer = user.wire.last("/pass2")?.response, answer.status == 200 else {
                    return .fail("pass 2 failed")
                }
                guard let otp = answer.json?["OTP"]?.stringValue else {
                    return .unimplemented("pass 2 answered no OTP")
                }
                return otp.count == 6 && otp.allSatisfy(\.isNumber)
                    ? .pass("six digits") : .fail("OTP \(otp) is not six digits")
            },
            ConformanceCase(
                "otp.validity", .otp, .should, title: "The RPA states the OTP's validity", source: otpSource + ", §13",
                sends: "an OTP login",
                expects: "the RPA's answer: expireTime, ttlSeconds, nowTime (else the SDK reports RESPONSE_PARSE_ERROR)"
            ) {
                context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let (outcome, otp) = try await context.loginOTP(user)
                guard outcome.isOK, let otp else { return .fail("the OTP login failed: \(outcome)") }
                if otp.otp.isEmpty { return .unimplemented("no OTP was issued") }
                return otp.status.code == .ok
                    ? .pass("valid \(otp.ttlSeconds) s")
                    : .nonStrict(
                        "the RPA's answer has no OTP validity, so the SDK reports \(otp.status.code.name) (as the upstream demo RPA without requestOTP)"
                    )
            },
            ConformanceCase(
                "otp.not-unasked", .otp, .should, title: "No OTP for a login that asked none", source: otpSource,
                sends: "a login with pass 2 {OTP: false}", expects: "pass 2 without an OTP (or \"0\")"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.login(user)
                guard let answer = user.wire.last("/pass2")?.response else { return .fail("no pass 2") }
                let otp = answer.json?["OTP"]?.stringValue
                return otp == nil || otp == "0" || otp == ""
                    ? .pass("no OTP") : .nonStrict("an OTP \(otp ?? "") nobody asked for")
            },
            ConformanceCase(
                "otp.wrong-pin", .otp, .must, title: "An OTP login with a wrong PIN is refused", source: otpSource,
                sends: "an OTP login with a wrong PIN", expects: "the RPA answers 401"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                let (outcome, _) = try await context.loginOTP(user, pin: user.wrongPIN)
                if outcome.isOK { return .fail("a wrong PIN logged in and got its OTP confirmed") }
                return outcome.error?.context.httpStatus == 401 ? .pass("401") : .nonStrict("refused as \(outcome)")
            },
            ConformanceCase(
                "otp.before-verdict", .otp, .may, title: "Whether pass 2 hands out an OTP before the PIN is judged",
                source: otpSource + " (upstream: the OTP is made in pass 2, before the RPA's verdict)",
                sends: "an OTP login with a wrong PIN", expects: "reported only"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                _ = try await context.loginOTP(user, pin: user.wrongPIN)
                let otp = user.wire.last("/pass2")?.response?.json?["OTP"]?.stringValue
                return .informational(
                    otp.map {
                        "pass 2 answered an OTP (\($0.count) digits) to a wrong PIN; only the RPA's verdict makes it count"
                    }
                        ?? "pass 2 answered no OTP to a wrong PIN")
            },
        ]
    }
}
