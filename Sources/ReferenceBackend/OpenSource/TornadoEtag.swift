import MPinCrypto

/// Tornado 4.1's `compute_etag`: the SHA-1 of the body, hex, in double quotes (the `milagro-oss`
/// profile's `Etag` on a GET 200; a recording that rewrites the body recomputes it).
package enum TornadoEtag {
    package static func of(_ body: [UInt8]) -> String {
        "\"" + Hex.encode(SHA1.hash(body)) + "\""
    }
}
