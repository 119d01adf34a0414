import MilagroProtocol
import OrderedJSON
import Testing

/// The cSum rule (docs/protocol.md §2, §5.2, §11 point 3), in its one implementation, against known values:
/// `cSum` missing or 0 turns the check digit off, and the digit is checked only for seven-digit
/// numbers with `accessNumberUseCheckSum` on; values read as the Milagro core reads them.
@Suite struct CheckDigitRuleTests {
    @Test(
        arguments: [
            (nil, false), (.number("0"), false), (.number("1"), true), (.number("2"), true), (.number("-1"), true),
            // Truncated as the C++ `(int)`: 0.5 is 0, 1.9 is 1.
            (.number("0.5"), false), (.number("1.9"), true), (.number("1e0"), true),
            // Not a number: as missing.
            (.string("1"), false), (.bool(true), false), (.null, false),
        ] as [(JSONValue?, Bool)])
    func cSumAllowsTheChecksum(cSum: JSONValue?, allowed: Bool) {
        #expect(CheckDigitRule.checksumAllowed(cSum: cSum) == allowed)
    }

    @Test(
        arguments: [
            (nil, nil, true), (.bool(true), .number("7"), true), (.bool(false), .number("7"), false),
            (.bool(true), .number("6"), false),
            (nil, .number("6"), false), (.bool(true), nil, true),
            // A number is a boolean that is true when not 0; another type counts as missing (true).
            (.number("0"), nil, false), (.number("2"), nil, true), (.string("false"), nil, true),
            // Digits truncated: 7.9 is 7.
            (.bool(true), .number("7.9"), true), (.bool(true), .string("7"), true),
        ] as [(JSONValue?, JSONValue?, Bool)])
    func theDigitIsCheckedForSevenDigitsWithTheChecksumOn(useCheckSum: JSONValue?, digits: JSONValue?, checked: Bool) {
        #expect(CheckDigitRule.checksDigit(useCheckSum: useCheckSum, digits: digits) == checked)
    }

    /// Both steps: the settings of each layout, and the MFA platform's (`cSum` 0) whatever it says
    /// of `accessNumberUseCheckSum`.
    @Test func theLayoutsSettings() {
        func checked(_ flavour: BackendFlavour, _ profile: BackendProfile) -> Bool {
            let members = Dictionary(
                ClientSettingsLayout.members(flavour: flavour, profile: profile, appID: "a"), uniquingKeysWith: { $1 })
            return CheckDigitRule.checksDigit(
                cSum: members["cSum"], useCheckSum: members["accessNumberUseCheckSum"],
                digits: members["accessNumberDigits"])
        }
        #expect(checked(.milagro, .default) && checked(.milagro, .milagroOSS) && checked(.milagro, .milagroHostedV3))
        #expect(!checked(.mfaPlatform, .default))
        #expect(!CheckDigitRule.checksDigit(cSum: .number("0"), useCheckSum: .bool(true), digits: .number("7")))
        #expect(!CheckDigitRule.checksDigit(cSum: nil, useCheckSum: .bool(true), digits: .number("7")))
        #expect(CheckDigitRule.checksDigit(cSum: .number("1"), useCheckSum: nil, digits: nil))
    }
}
