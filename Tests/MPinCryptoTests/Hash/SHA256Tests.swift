import TestSupport
import Testing

@testable import MPinCrypto

/// FIPS 180-4 examples and the NIST short/long message boundaries.
struct SHA256Tests {
    @Test func fipsExamples() {
        #expect(
            Hex.encode(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Hex.encode(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func millionAs() {
        var h = SHA256()
        let chunk = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { h.update(chunk) }
        #expect(Hex.encode(h.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalEqualsOneShot() {
        var rng = SplitMix64(seed: 7)
        for length in [0, 1, 55, 56, 63, 64, 65, 127, 128, 1000] {
            let data = rng.bytes(length)
            var h = SHA256()
            var i = 0
            while i < data.count {
                let j = min(data.count, i + 7)
                h.update(Array(data[i..<j]))
                i = j
            }
            #expect(h.finalize() == SHA256.hash(data), "length \(length)")
        }
    }
}
