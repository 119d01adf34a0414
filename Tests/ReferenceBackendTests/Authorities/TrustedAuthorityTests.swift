import MPinCrypto
import Testing

@testable import ReferenceBackend

/// The two D-TAs: shares that recombine into the server secret, and signatures that bind the
/// day of a time permit.
@Suite struct TrustedAuthorityTests {
    let signer = RequestSigner(appKey: Array("key".utf8))
    let mpin = MPin()

    @Test func sharesRecombine() throws {
        let s1 = Array(repeating: UInt8(0), count: 31) + [3], s2 = Array(repeating: UInt8(0), count: 31) + [4]
        let a = TrustedAuthority(name: "dta1", masterSecret: s1, appID: "app", signer: signer, mpin: mpin)
        let b = TrustedAuthority(name: "dta2", masterSecret: s2, appID: "app", signer: signer, mpin: mpin)
        let sum = Array(repeating: UInt8(0), count: 31) + [7]
        #expect(mpin.recombineG2(a.serverSecretShare, b.serverSecretShare) == mpin.serverSecret(masterSecret: sum))
        let hash = mpin.hashID(Array("id".utf8))
        #expect(
            mpin.recombineG1(a.clientSecretShare(hashMpinID: hash), b.clientSecretShare(hashMpinID: hash))
                == mpin.clientSecret(masterSecret: sum, hashedID: hash))
    }

    @Test func timePermitSignatureDays() throws {
        let authority = TrustedAuthority(name: "dta2", masterSecret: [1], appID: "app", signer: signer, mpin: mpin)
        let day: UInt32 = 20_000
        let noon = Int64(day) * 86_400_000 + 12 * 3_600_000
        let hash = String(repeating: "ab", count: 32)
        #expect(
            try authority.checkTimePermit(
                signature: signer.timePermit(hashMpinID: hash, date: day), hashMpinID: hash, now: noon) == day)
        // Yesterday's: accepted during the first hour, 408 afterwards; another hash: 401.
        let yesterday = signer.timePermit(hashMpinID: hash, date: day - 1)
        #expect(
            try authority.checkTimePermit(signature: yesterday, hashMpinID: hash, now: Int64(day) * 86_400_000 + 1000)
                == day - 1)
        #expect(throws: APIError.self) {
            try authority.checkTimePermit(signature: yesterday, hashMpinID: hash, now: noon)
        }
        #expect(throws: APIError.self) {
            try authority.checkTimePermit(
                signature: signer.timePermit(hashMpinID: "00", date: day), hashMpinID: hash, now: noon)
        }
    }
}
