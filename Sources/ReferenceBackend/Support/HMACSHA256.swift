import Crypto
import Foundation
import MPinCrypto

/// HMAC-SHA256 (RFC 2104; known answers in RFC 4231) through swift-crypto's `HMAC<SHA256>`: the
/// D-TA request signatures (`signMessage` in the open-source server, docs/protocol.md §8).
enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key` (a key longer than the 64-byte block is hashed first).
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<Crypto.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// The hex MAC of a text message, as the server signs request parameters.
    static func sign(key: [UInt8], _ message: String) -> String {
        Hex.encode(mac(key: key, message: Array(message.utf8)))
    }

    /// Constant-time comparison of two hex signatures.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
