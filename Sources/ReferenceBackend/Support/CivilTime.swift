/// UTC calendar arithmetic on milliseconds since 1970, without Foundation's formatters, so that
/// every text the backend derives from its clock is deterministic.
enum CivilTime {
    struct Fields: Equatable {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int
    }

    static func fields(milliseconds: Int64) -> Fields {
        let ms = Int(milliseconds)
        let days = floorDiv(ms, 86_400_000)
        let inDay = ms - days * 86_400_000
        // Days to civil date (proleptic Gregorian), H. Hinnant's algorithm.
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return Fields(year: year, month: month, day: day, hour: inDay / 3_600_000, minute: inDay / 60_000 % 60,
                      second: inDay / 1000 % 60, millisecond: inDay % 1000)
    }

    /// Milliseconds since 1970 of a UTC civil time.
    static func milliseconds(_ f: Fields) -> Int64 {
        let y = f.month <= 2 ? f.year - 1 : f.year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = f.month > 2 ? f.month - 3 : f.month + 9
        let doy = (153 * mp + 2) / 5 + f.day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Int64(days) * 86_400_000 + Int64(f.hour * 3_600_000 + f.minute * 60_000 + f.second * 1000 + f.millisecond)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the D-TA's `expires` format.
    static func iso8601(milliseconds: Int64) -> String {
        let f = fields(milliseconds: milliseconds)
        return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2))Z"
    }

    /// `YYYY-MM-DD HH:MM:SS.ffffff`, the form of `issued` in an open-source M-Pin ID.
    static func issued(milliseconds: Int64) -> String {
        let f = fields(milliseconds: milliseconds)
        return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2)) \(pad(f.hour, 2)):\(pad(f.minute, 2)):"
            + "\(pad(f.second, 2)).\(pad(f.millisecond, 3))000"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ`; nil for anything else.
    static func parseISO8601(_ text: String) -> Int64? {
        let c = Array(text.utf8)
        guard c.count == 20, c[4] == UInt8(ascii: "-"), c[7] == UInt8(ascii: "-"), c[10] == UInt8(ascii: "T"),
              c[13] == UInt8(ascii: ":"), c[16] == UInt8(ascii: ":"), c[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard c[index] >= UInt8(ascii: "0"), c[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(c[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        return milliseconds(Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: 0))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
