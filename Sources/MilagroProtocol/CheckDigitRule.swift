import OrderedJSON

/// Whether an access number carries a check digit, from the client settings (PROTOCOL §2, §5.2,
/// §11 point 3): the one statement of the `cSum` rule, for the client and for the checks.
///
/// * At `SetBackend`, a `cSum` that is missing or 0 forces `accessNumberUseCheckSum` to false
///   (`checksumAllowed(cSum:)`).
/// * `CheckAccessNumber` checks the digit only when `accessNumberUseCheckSum` (default true) holds
///   and `accessNumberDigits` (default 7) is 7 (`checksDigit(useCheckSum:digits:)`).
///
/// Values are read as the Milagro core reads them: numbers truncated to integers, a number as a
/// boolean when it is not 0, any other type as missing (`SettingValue`).
public enum CheckDigitRule {
    /// Whether the settings' `cSum` leaves `accessNumberUseCheckSum` as given: a number that is
    /// not 0. Missing, 0 or not a number, the client turns the check digit off.
    public static func checksumAllowed(cSum: JSONValue?) -> Bool {
        (SettingValue.int(cSum) ?? 0) != 0
    }

    /// Whether `CheckAccessNumber` checks the digit, from `accessNumberUseCheckSum` after the cSum
    /// rule and `accessNumberDigits`.
    public static func checksDigit(useCheckSum: JSONValue?, digits: JSONValue?) -> Bool {
        SettingValue.bool(useCheckSum, default: true) && SettingValue.int(digits, default: 7) == 7
    }

    /// Both steps at once, from the settings as the backend sent them.
    public static func checksDigit(cSum: JSONValue?, useCheckSum: JSONValue?, digits: JSONValue?) -> Bool {
        checksumAllowed(cSum: cSum) && checksDigit(useCheckSum: useCheckSum, digits: digits)
    }
}
