import DeviceSecurity
import Testing

@Suite struct ServiceResultTests {
    @Test func flagValuesAreTheDocumentsValues() {
        let expected: [(ServiceResult, Int)] = [
            (.success, 1), (.invalidMVSessionID, 2), (.accessDenied, 4), (.applicationBorrowTimeExpired, 8),
            (.deviceBorrowTimeExpired, 16), (.serviceFault, 32), (.serviceSuccess, 64), (.networkError, 128),
        ]
        for (flag, value) in expected { #expect(flag.rawValue == value) }
        #expect(ServiceResult.names.count == 8)
    }

    @Test func flagsCombineBitwise() {
        let granted: ServiceResult = [.success, .serviceSuccess]
        #expect(granted.rawValue == 65)
        let offline: ServiceResult = [.networkError, .success]
        #expect(offline.rawValue == 129)
        let firstLogin = ServiceResult.deviceBorrowTimeExpired.union(granted)
        #expect(firstLogin.rawValue == 81)
        #expect(firstLogin.isSuccess)
        #expect(!ServiceResult.accessDenied.union(.serviceSuccess).isSuccess)
    }

    @Test func namesRoundTrip() {
        #expect(ServiceResult(rawValue: 65).description == "Success|ServiceSuccess")
        #expect(ServiceResult(rawValue: 0).description == "None")
        #expect(ServiceResult(rawValue: 136).description == "ApplicationBorrowTimeExpired|NetworkError")
        #expect(ServiceResult(rawValue: 256 + 1).description == "Success|256")
        #expect(ServiceResult(names: "ServiceSuccess|Success") == [.success, .serviceSuccess])
        #expect(ServiceResult(names: "None") == [])
        #expect(ServiceResult(names: "129") == [.success, .networkError])
        #expect(ServiceResult(names: "Success|Bogus") == nil)
        for raw in 0..<256 {
            let flags = ServiceResult(rawValue: raw)
            #expect(ServiceResult(names: flags.description) == flags)
        }
    }

    @Test func loginResponseUserInfoUsesTheDocumentsKeys() {
        let response = LoginResponse(
            serviceResult: [.success, .serviceSuccess], hasAccess: true, serviceResCode: 0,
            serviceResMsg: "access granted", accessIdentifier: "product.ios.ml.myapp")
        #expect(
            response.userInfo == [
                "service_result": "65", "has_access": "1", "service_res_code": "0",
                "service_res_msg": "access granted",
            ])
    }
}
