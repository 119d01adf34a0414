import Foundation
import MPinCrypto

/// HMAC-SHA256 (RFC 2104; known answers in RFC 4231) over the crypto core's `SHA256`: the D-TA
/// request signatures (`signMessage` in the open-source server, docs/protocol.md §8).
///
/// HMAC(K, m) = H((K′ ⊕ opad) ‖ H((K′ ⊕ ipad) ‖ m)), where K′ is K padded with zeros to the 64-byte
/// block (a key longer than the block is hashed first), ipad = 0x36…, opad = 0x5c….
enum HMACSHA256 {
    /// SHA-256's block size in bytes.
    static let blockSize = 64

    /// The 32-byte MAC of `message` under `key`.
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
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
