import GMPOracle
import MPinCrypto
import TestSupport
import Testing

/// Property tests: the GMP oracle against `MPinCrypto`'s generic public API (`Fp`, `Fr`,
/// `G1Point`) on about 16,600 seeded random operations per curve (at least 10,000 required).
/// Set `GMP_ORACLE_SEED` (decimal, `0x…` or `random`) to change the seed; the seed in use is
/// printed, and a mismatch names the operation, its inputs and both outputs.
@Suite struct CrossCheckTests {
    @Test func bn254cxAgreesWithOracle() { runFull(BN254CX.self) }

    @Test func bn254AgreesWithOracle() { runFull(BN254.self) }

    /// The comparison must be able to fail: corrupting one oracle answer at a time (in the
    /// first, a middle and the last comparison of a short run) must give exactly one mismatch,
    /// reported with its operation, inputs and both outputs.
    @Test func injectedFaultIsReported() throws {
        let seed = SplitMix64.seedForRun()
        var clean = CrossCheck<BN254CX>(seed: seed)
        clean.run(.small)
        try #require(clean.mismatches.isEmpty, "the short run must agree before faults are injected")
        let total = clean.comparisons
        for faultAt in [0, total / 3, total / 2, 2 * total / 3, total - 1] {
            var faulty = CrossCheck<BN254CX>(seed: seed, faultAt: faultAt)
            faulty.run(.small)
            #expect(faulty.comparisons == total)
            #expect(faulty.mismatches.count == 1, "fault at comparison \(faultAt) was not reported exactly once")
            if let mismatch = faulty.mismatches.first {
                #expect(mismatch.index == faultAt)
                #expect(mismatch.oracle != mismatch.crypto)
                let text = mismatch.description
                #expect(text.contains(mismatch.operation) && text.contains("oracle=") && text.contains("MPinCrypto="))
                #expect(mismatch.inputs.allSatisfy { text.contains($0.value) })
            }
        }
    }

    private func runFull<C: PairingCurve>(_: C.Type) {
        let seed = SplitMix64.seedForRun()
        var check = CrossCheck<C>(seed: seed)
        let clock = ContinuousClock()
        let start = clock.now
        check.run(.full)
        let elapsed = clock.now - start
        let breakdown = check.perOperation.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let operations = check.comparisons - check.inputComparisons
        print(
            "GMPOracle cross-check \(C.id.rawValue): seed \(seedString(seed)), \(operations) operations "
                + "(+\(check.inputComparisons) input conversions) compared, \(check.mismatches.count) mismatches, \(elapsed)"
        )
        print("  " + breakdown.joined(separator: " "))
        #expect(operations >= 10_000, "too few operations compared")
        for mismatch in check.mismatches.prefix(20) {
            Issue.record(Comment(rawValue: mismatch.description))
        }
        let mismatchCount = check.mismatches.count
        #expect(
            mismatchCount == 0,
            "\(mismatchCount) mismatches on \(C.id.rawValue) (first 20 above); replay with GMP_ORACLE_SEED=\(seedString(seed))"
        )
    }
}
