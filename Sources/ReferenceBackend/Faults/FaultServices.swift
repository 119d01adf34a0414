import CommonFormats
import Hummingbird
import MPinCrypto

/// What the backend offers a fault and the suite that grades a client (`ExchangeFault`): the
/// day, the D-TAs' shares for any hashed M-Pin ID and day (so that a fault can serve a time permit
/// made for another day or identity, or shares that do not combine), the signature of a time
/// permit, the client secret a registration gives (so that the suite can look for it, and the
/// token made from it, in a client's requests), and the activation link the backend mailed
/// (opened as the user would, before the client goes on).
package struct FaultServices: Sendable {
    let core: BackendCore
    /// The backend's own answer to a request, without faults.
    let answer: @Sendable (HTTPRequest) async -> ServerAnswer

    /// The curve the backend's secrets are on.
    package var curve: CurveID { core.configuration.curve }

    /// The backend's clock, in milliseconds since 1970.
    package var nowMilliseconds: Int64 { core.now }

    /// Today's day number (whole UTC days since 1970, docs/protocol.md §11.12): the date of a
    /// time permit issued now.
    package var today: UInt32 { MPin.today(unixTime: core.now / 1000) }

    /// D-TA `authority`'s (1 or 2) client-secret share for a hashed M-Pin ID: s·mapit(hash)
    /// (docs/protocol.md §8.1).
    package func clientSecretShare(authority: Int, hashedID: [UInt8]) -> [UInt8] {
        (authority == 1 ? core.dta1 : core.dta2).clientSecretShare(hashMpinID: hashedID)
    }

    /// D-TA `authority`'s (1 or 2) time-permit share for a hashed M-Pin ID and a day.
    package func timePermitShare(authority: Int, hashedID: [UInt8], date: UInt32) -> [UInt8] {
        (authority == 1 ? core.dta1 : core.dta2).timePermitShare(hashMpinID: hashedID, date: date)
    }

    /// The RPS's signature of a time-permit request for a hashed M-Pin ID and a day, as D-TA 2
    /// checks it.
    package func timePermitSignature(hashedID: [UInt8], date: UInt32) -> String {
        core.signer.timePermit(hashMpinID: Hex.encode(hashedID), date: date)
    }

    /// SHA-256 of an M-Pin ID: what the D-TAs derive its shares from (`hash_mpin_id`).
    package func hashedID(_ mpinID: [UInt8]) -> [UInt8] { core.mpin.hashID(mpinID) }

    /// The client secret of an M-Pin ID: both D-TAs' shares recombined, (s1 + s2)·H(ID)
    /// (docs/protocol.md §6.4); nil when a share cannot be made.
    package func clientSecret(mpinID: [UInt8]) -> [UInt8]? {
        let hash = core.mpin.hashID(mpinID)
        return core.mpin.recombineG1(
            core.dta1.clientSecretShare(hashMpinID: hash), core.dta2.clientSecretShare(hashMpinID: hash))
    }

    /// Opens the activation link the backend mailed for an M-Pin ID (the email activation mode,
    /// docs/backend.md "Activation modes"), as the user does: whether a link was found and
    /// answered 200.
    package func openActivationLink(mpinIDHex: String) async -> Bool {
        guard
            let link = await core.store.mailbox.last(where: { $0.kind == .link && $0.mpinID == mpinIDHex })?.value
        else { return false }
        let target = URLText.parts(link)
        let path = String(target.path) + (target.query.map { "?" + $0 } ?? "")
        let head = HTTPRequest(method: .post, scheme: "http", authority: nil, path: path.isEmpty ? "/" : path)
        return await answer(head).head.status.code == 200
    }
}
