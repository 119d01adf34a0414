// Point and scalar decoding of both curves: G1 (65 and 33 bytes), G2 (128 bytes, with and without
// the subgroup check), F_p and F_r from 32 bytes and reduced from any length, F_p¹² (384 bytes),
// and the M-Pin operations that take encodings from the wire. What decodes encodes back to the
// same bytes (or the same point); what is refused is refused with a reason, never a trap.
//
// Input: the first byte picks the curve (bit 0) and the operation (the rest); the bytes after it
// are the encoding.
import FuzzSupport

@testable import MPinCrypto

func check<C: PairingCurve>(_: C.Type, curve: CurveID, operation: Int, _ payload: [UInt8]) {
    switch operation {
    case 0:
        guard let point = try? G1Point<C>.decode(payload) else { return }
        FuzzDriver.check(!point.isInfinity, "G1 decodes to infinity")
        let full = point.encoded()
        FuzzDriver.check((try? G1Point<C>.decode(full)) == point, "G1 encoding does not read back")
        FuzzDriver.check(
            (try? G1Point<C>.decode(point.encoded(compressed: true))) == point, "compressed G1 does not read back")
        if payload.count == 65 { FuzzDriver.check(full == payload, "G1 re-encodes to other bytes") }
        FuzzDriver.check(point.adding(point.negated()).isInfinity, "P - P is not infinity in G1")
    case 1:
        for subgroup in [false, true] {
            guard let point = try? G2Point<C>.decode(payload, checkSubgroup: subgroup) else { continue }
            FuzzDriver.check(point.encoded() == payload, "G2 re-encodes to other bytes")
        }
    case 2:
        if let x = Fp<C>(bytes: payload) {
            FuzzDriver.check(x.bytes == payload, "F_p re-encodes to other bytes")
        }
        let reduced = Fp<C>(reducing: payload)
        FuzzDriver.check(Fp<C>(bytes: reduced.bytes) == reduced, "a reduced F_p element is not canonical")
    case 3:
        if let x = Fr<C>(bytes: payload) {
            FuzzDriver.check(x.bytes == payload, "F_r re-encodes to other bytes")
        }
        let reduced = Fr<C>(reducing: payload)
        FuzzDriver.check(Fr<C>(bytes: reduced.bytes) == reduced, "a reduced F_r element is not canonical")
    case 4:
        if let x = Fp12<C>(bytes: payload) {
            FuzzDriver.check(x.bytes == payload, "F_p^12 re-encodes to other bytes")
        }
    default:
        // The M-Pin operations on encodings a peer sends: recombining shares, the pairing, a multiple.
        let mpin = MPin(curve: curve)
        let g1Length = 65, g2Length = 128
        _ = mpin.recombineG1(Array(payload.prefix(g1Length)), Array(payload.dropFirst(g1Length)))
        _ = mpin.recombineG2(Array(payload.prefix(g2Length)), Array(payload.dropFirst(g2Length)))
        _ = mpin.decodeG1(payload)
        _ = mpin.decodeG2(payload)
        _ = mpin.gtIsOne(payload)
        if payload.count >= g2Length + g1Length {
            _ = mpin.pairing(g2: Array(payload.prefix(g2Length)), g1: Array(payload.dropFirst(g2Length)))
        }
        _ = mpin.g1Multiple(
            scalar: Array(payload.prefix(32)), hashed: payload.count % 2 == 0, g: Array(payload.dropFirst(32)))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    guard let selector = bytes.first else { return 0 }
    let payload = Array(bytes.dropFirst())
    let operation = Int(selector >> 1) % 6
    if selector & 1 == 0 {
        check(BN254CX.self, curve: .bn254cx, operation: operation, payload)
    } else {
        check(BN254.self, curve: .bn254, operation: operation, payload)
    }
    return 0
}

FuzzDriver.run()
