// mpin-ct-check: the constant-time check of the crypto core, in the ctgrind style (docs/security.md,
// "Constant-time secrets"; `make ct-check`).
//
// Every M-Pin function that works on secrets runs twice per curve through the `MPin` facade (the
// code the workbench runs; GLV on G1, GLS on G2 from the generator, and GT powers both by GLS and,
// for precomputed values outside GT, by the plain windows): once on plain inputs for the expected outputs, once with the secret
// inputs (scalars x, y, w, r, z, master-secret shares, PINs and factors, tokens, client and server
// secrets, permits, precomputed GT values) marked undefined for valgrind's memcheck. The crypto
// core marks the facts it makes public by design defined again through `SecretBoundary`; the
// outputs are marked defined before they are compared. Run under
// `valgrind --tool=memcheck --error-exitcode=1`, any branch or memory index that depends on a
// secret is a memcheck error and fails the run.
//
//   mpin-ct-check            under valgrind: the check (exit 0 when every output matches)
//   mpin-ct-check --native   without valgrind: the outputs only (nothing about timing is checked)
//   mpin-ct-check --canary   a deliberate branch and table index on a secret byte, which memcheck
//                            must report (proves that the marking works)
import CValgrindShim
import MPinCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Arguments

var native = false
var canary = false
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--native": native = true
    case "--canary": canary = true
    case "--help", "-h":
        print("usage: mpin-ct-check [--native | --canary]  (run under valgrind --tool=memcheck; see `make ct-check`)")
        exit(0)
    default:
        printError("mpin-ct-check: unknown argument '\(argument)'; expected --native, --canary or --help")
        exit(2)
    }
}
if native && canary {
    printError("mpin-ct-check: --native and --canary exclude each other")
    exit(2)
}
if ct_shim_has_valgrind() == 0 {
    printError(
        "mpin-ct-check: CValgrindShim was built without <valgrind/memcheck.h> (install the Debian package valgrind); nothing can be checked"
    )
    exit(2)
}
let underValgrind = ct_running_on_valgrind() != 0
if !underValgrind && !native {
    printError(
        "mpin-ct-check: not running under valgrind; run `make ct-check`, or pass --native to compare the outputs only")
    exit(2)
}

// MARK: - Marking

/// A copy of `bytes`, marked undefined when `on`.
func secret(_ bytes: [UInt8], _ on: Bool) -> [UInt8] {
    var copy = bytes
    if on { copy.withUnsafeMutableBytes { ct_mark_secret($0.baseAddress, $0.count) } }
    return copy
}

func secretIfAny(_ bytes: [UInt8]?, _ on: Bool) -> [UInt8]? { bytes.map { secret($0, on) } }

func secret(_ value: Int32, _ on: Bool) -> Int32 {
    var copy = value
    if on { withUnsafeMutableBytes(of: &copy) { ct_mark_secret($0.baseAddress, $0.count) } }
    return copy
}

/// An output, marked defined again (it leaves the operation under check here).
func output(_ bytes: [UInt8]?) -> String {
    guard var b = bytes else { return "nil" }
    b.withUnsafeMutableBytes { ct_declassify($0.baseAddress, $0.count) }
    return b.isEmpty ? "[]" : Hex.encode(b)
}

func output(_ value: Int?) -> String {
    guard var v = value else { return "nil" }
    withUnsafeMutableBytes(of: &v) { ct_declassify($0.baseAddress, $0.count) }
    return String(v)
}

func output(_ result: MPin.Server2Result) -> String {
    switch result {
    case .ok: return "ok"
    case .invalidPoint: return "invalidPoint"
    case .badPIN(let e, let f): return "badPIN(\(output(e)), \(output(f)))"
    }
}

func printError(_ message: String) {
    var bytes = Array((message + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// The package's SplitMix64, its outputs marked undefined when `secretOutputs` (the RNG of
/// RANDOM_GENERATE).
struct CheckGenerator: RandomNumberGenerator {
    var generator: SplitMix64
    let secretOutputs: Bool

    init(state: UInt64, secretOutputs: Bool) {
        generator = SplitMix64(seed: state)
        self.secretOutputs = secretOutputs
    }

    mutating func next() -> UInt64 {
        var out = generator.next()
        if secretOutputs { withUnsafeMutableBytes(of: &out) { ct_mark_secret($0.baseAddress, $0.count) } }
        return out
    }
}

// Facts the core makes public by design (SecretBoundary) are marked defined again.
SecretBoundary.declassifyHook = { ct_declassify($0.baseAddress, $0.count) }

// MARK: - The canary

if canary {
    // A branch and a table index on one secret byte: memcheck must report both.
    let byte = secret([0x5A], true)
    let table = [UInt8](0...255)
    var sum = Int(table[Int(byte[0])])
    if byte[0] & 1 == 0 { sum += 1 }
    print("canary ran (\(output([UInt8(truncatingIfNeeded: sum)])))")
    exit(0)
}

// MARK: - The operations on secrets

/// One operation: `run(on)` computes its outputs with the secret inputs marked undefined when `on`.
struct Operation {
    let name: String
    let run: (_ on: Bool) -> [String]
}

func operations(_ mpin: MPin) -> [Operation] {
    var rng = CheckGenerator(state: 0x6d70696e2d63742d, secretOutputs: false)
    let id = Array("ct-check@example.com".utf8)
    let hcid = mpin.hashID(id)
    let s1 = mpin.randomScalar(using: &rng), s2 = mpin.randomScalar(using: &rng)
    let x = mpin.randomScalar(using: &rng), y = mpin.randomScalar(using: &rng)
    let w = mpin.randomScalar(using: &rng), r = mpin.randomScalar(using: &rng)
    let z = mpin.randomScalar(using: &rng)
    let pin: Int32 = 1234, wrongPIN: Int32 = 1235
    let date: UInt32 = 19_500
    let cs1 = mpin.clientSecret(masterSecret: s1, hashedID: hcid)!
    let cs2 = mpin.clientSecret(masterSecret: s2, hashedID: hcid)!
    let cs = mpin.recombineG1(cs1, cs2)!
    let ss1 = mpin.serverSecret(masterSecret: s1)!, ss2 = mpin.serverSecret(masterSecret: s2)!
    let sst = mpin.recombineG2(ss1, ss2)!
    let token = mpin.extractPIN(id: id, pin: pin, token: cs)!
    let tp = mpin.recombineG1(
        mpin.clientPermit(date: date, masterSecret: s1, hashedID: hcid)!,
        mpin.clientPermit(date: date, masterSecret: s2, hashedID: hcid)!)!
    let (hid, htid) = mpin.server1(date: date, id: id)
    let good = mpin.client1(date: date, id: id, x: x, pin: pin, token: token, permit: tp)!
    let bad = mpin.client1(date: date, id: id, x: x, pin: wrongPIN, token: token, permit: tp)!
    let goodV = mpin.client2(x: x, y: y, sec: good.sec)!
    let badV = mpin.client2(x: x, y: y, sec: bad.sec)!
    let (pg1, pg2) = mpin.precompute(token: token, hashedID: hcid)!
    let bigZ = mpin.g1Multiple(scalar: r, hashed: true, g: hcid)!
    let bigT = mpin.g1Multiple(scalar: w, hashed: true, g: hcid)!
    let h = mpin.hashAll(hashedID: hcid, u: good.u, ut: good.ut, v: goodV, y: y, z: bigZ, t: bigT)
    let dvsZ = mpin.randomScalar(using: &rng)
    let pa = mpin.dvsKeyPair(z: dvsZ)!

    return [
        Operation(name: "RANDOM_GENERATE (the generator's output)") { on in
            var g = CheckGenerator(state: 42, secretOutputs: on)
            return [output(mpin.randomScalar(using: &g))]
        },
        Operation(name: "GET_G1_MULTIPLE x·P, x·mapit(HCID) (x)") { on in
            [
                output(mpin.g1Multiple(scalar: secret(x, on), hashed: false, g: mpin.g1Generator)),
                output(mpin.g1Multiple(scalar: secret(x, on), hashed: true, g: hcid)),
            ]
        },
        Operation(name: "GET_G2_MULTIPLE x·Q, x⁻¹·Q (x)") { on in
            [
                output(mpin.g2Multiple(scalar: secret(x, on), inverse: false, g: mpin.g2Generator)),
                output(mpin.g2Multiple(scalar: secret(x, on), inverse: true, g: mpin.g2Generator)),
            ]
        },
        Operation(name: "GET_SERVER_SECRET s·Q (master-secret share)") { on in
            [
                output(mpin.serverSecret(masterSecret: secret(s1, on))),
                output(mpin.serverSecret(masterSecret: secret(s2 + s1, on))),
            ]
        },
        Operation(name: "GET_CLIENT_SECRET, GET_CLIENT_PERMIT s·A (master-secret share)") { on in
            [
                output(mpin.clientSecret(masterSecret: secret(s1, on), hashedID: hcid)),
                output(mpin.clientPermit(date: date, masterSecret: secret(s2, on), hashedID: hcid)),
            ]
        },
        Operation(name: "RECOMBINE_G1, RECOMBINE_G2 (the shares)") { on in
            [
                output(mpin.recombineG1(secret(cs1, on), secret(cs2, on))),
                output(mpin.recombineG2(secret(ss1, on), secret(ss2, on))),
            ]
        },
        Operation(name: "EXTRACT_PIN, EXTRACT/RESTORE_FACTOR (PIN or factor, token)") { on in
            [
                output(mpin.extractPIN(id: id, pin: secret(pin, on), token: secret(cs, on))),
                output(
                    mpin.restoreFactor(id: id, factor: secret(pin, on), bits: MPin.pinBits, token: secret(token, on))),
                output(mpin.extractFactor(id: id, factor: secret(-987_654_321, on), bits: 32, token: secret(cs, on))),
                output(mpin.restoreFactor(id: id, factor: secret(77, on), bits: 7, token: secret(token, on))),
            ]
        },
        Operation(name: "CLIENT_1 (x, PIN, token, permit)") { on in
            var out: [String] = []
            for d: UInt32 in [0, date] {
                let o = mpin.client1(
                    date: d, id: id, x: secret(x, on), pin: secret(pin, on),
                    token: secret(token, on), permit: secretIfAny(d == 0 ? nil : tp, on))
                out += [output(o?.x), output(o?.sec), output(o?.u), output(o?.ut)]
            }
            return out
        },
        Operation(name: "CLIENT_2 (x, SEC)") { on in
            [output(mpin.client2(x: secret(x, on), y: y, sec: secret(good.sec, on)))]
        },
        Operation(name: "one-pass CLIENT (x, PIN, token, permit)") { on in
            let o = mpin.client(
                date: date, id: id, x: secret(x, on), pin: secret(pin, on), token: secret(token, on),
                permit: secret(tp, on), message: Array("message".utf8), timeValue: 1_700_000_000)
            return [output(o?.u), output(o?.ut), output(o?.y), output(o?.v)]
        },
        Operation(name: "SERVER_2 (y, server secret)") { on in
            [
                output(
                    mpin.server2(
                        date: date, hid: hid, htid: htid, y: secret(y, on), serverSecret: secret(sst, on),
                        u: good.u, ut: good.ut, v: goodV)),
                output(
                    mpin.server2(
                        date: date, hid: hid, htid: htid, y: secret(y, on), serverSecret: secret(sst, on),
                        u: bad.u, ut: bad.ut, v: badV, errorValues: true)),
                output(
                    mpin.server2(
                        date: 0, hid: hid, htid: nil, y: secret(y, on), serverSecret: secret(sst, on),
                        u: good.u, ut: nil, v: goodV, pa: pa)),
            ]
        },
        Operation(name: "PRECOMPUTE (token)") { on in
            let o = mpin.precompute(token: secret(token, on), hashedID: hcid)
            return [output(o?.g1), output(o?.g2)]
        },
        Operation(name: "CLIENT_KEY (G1, G2, PIN, r, x)") { on in
            [
                output(
                    mpin.clientKey(
                        g1: secret(pg1, on), g2: secret(pg2, on), pin: secret(pin, on), r: secret(r, on),
                        x: secret(x, on), h: h, t: bigT))
            ]
        },
        Operation(name: "CLIENT_KEY, G1 and G2 outside GT: the plain power after the GT test (G1, G2, PIN, r, x)") {
            on in
            // Not unitary (the GT test fails and its outcome is public): the GT power takes the plain windows.
            let outside = (0..<384).map { UInt8(truncatingIfNeeded: $0 % 32 == 0 ? 0 : $0 &* 37 &+ 11) }
            return [
                output(
                    mpin.clientKey(
                        g1: secret(outside, on), g2: secret(pg2, on), pin: secret(pin, on), r: secret(r, on),
                        x: secret(x, on), h: h, t: bigT))
            ]
        },
        Operation(name: "SERVER_KEY (server secret, w)") { on in
            [
                output(
                    mpin.serverKey(
                        z: bigZ, serverSecret: secret(sst, on), w: secret(w, on), h: h, hid: hid,
                        u: good.u, ut: good.ut))
            ]
        },
        Operation(name: "GET_DVS_KEYPAIR z⁻¹·Q (z)") { on in
            [output(mpin.dvsKeyPair(z: secret(dvsZ, on)))]
        },
    ]
}

// MARK: - Run

var failures = 0
var count = 0
for curve in [CurveID.bn254cx, .bn254] {
    let mpin = MPin(curve: curve)
    for operation in operations(mpin) {
        let expected = operation.run(false)
        let actual = operation.run(true)
        count += 1
        if expected == actual {
            print("ok        \(curve.rawValue)  \(operation.name)")
        } else {
            failures += 1
            print("MISMATCH  \(curve.rawValue)  \(operation.name)")
            for (i, (e, a)) in zip(expected, actual).enumerated() where e != a {
                print("  output \(i): expected \(e)\n            got      \(a)")
            }
        }
    }
}
let mode = underValgrind ? "under memcheck, secrets marked undefined" : "natively (constant time NOT checked)"
print("\(count - failures) of \(count) operations gave the expected outputs, \(mode)")
exit(failures == 0 ? 0 : 1)
