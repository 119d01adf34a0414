/// UTC calendar arithmetic on milliseconds since 1970, without Foundation's formatters, so that
/// every text derived from a clock is deterministic: the backend's ISO 8601 times and `issued`
/// fields, the `Date` fields of HTTP answers (IMF-fixdate, RFC 9110 §5.6.7) and the checks that
/// read them back. The one place for these sums in the package.
package enum CivilTime {
    package struct Fields: Equatable {
        package var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int

        package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second, self.millisecond) = (
                year, month, day, hour, minute, second, millisecond
            )
        }
    }

    package static func fields(milliseconds: Int64) -> Fields {
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
        return Fields(
            year: year, month: month, day: day, hour: inDay / 3_600_000, minute: inDay / 60_000 % 60,
            second: inDay / 1000 % 60, millisecond: inDay % 1000)
    }

    /// Milliseconds since 1970 of a UTC civil time.
    package static func milliseconds(_ f: Fields) -> Int64 {
        let y = f.month <= 2 ? f.year - 1 : f.year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = f.month > 2 ? f.month - 3 : f.month + 9
        let doy = (153 * mp + 2) / 5 + f.day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Int64(days) * 86_400_000
            + Int64(f.hour * 3_600_000 + f.minute * 60_000 + f.second * 1000 + f.millisecond)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the D-TA's `expires` format.
    package static func iso8601(milliseconds: Int64) -> String {
        let f = fields(milliseconds: milliseconds)
        return
            "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2))Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, with milliseconds: a cassette's clock readings (`utc`).
    package static func iso8601WithMilliseconds(milliseconds: Int64) -> String {
        let f = fields(milliseconds: milliseconds)
        return
            "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2))"
            + ".\(pad(f.millisecond, 3))Z"
    }

    /// `YYYY-MM-DD HH:MM:SS.ffffff`, the form of `issued` in an open-source M-Pin ID.
    package static func issued(milliseconds: Int64) -> String {
        let f = fields(milliseconds: milliseconds)
        return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2)) \(pad(f.hour, 2)):\(pad(f.minute, 2)):"
            + "\(pad(f.second, 2)).\(pad(f.millisecond, 3))000"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ`; nil for anything else.
    package static func parseISO8601(_ text: String) -> Int64? {
        let c = Array(text.utf8)
        guard c.count == 20, c[4] == UInt8(ascii: "-"), c[7] == UInt8(ascii: "-"), c[10] == UInt8(ascii: "T"),
            c[13] == UInt8(ascii: ":"), c[16] == UInt8(ascii: ":"), c[19] == UInt8(ascii: "Z")
        else { return nil }
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
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        return milliseconds(
            Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: 0))
    }

    /// The weekday and month names of an IMF-fixdate.
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate (RFC 9110 §5.6.7), the form of an HTTP `Date` field: `Thu, 01 Jan 2026 00:00:00 GMT`.
    /// Milliseconds are dropped (the seconds are not rounded).
    package static func httpDate(milliseconds: Int64) -> String {
        let f = fields(milliseconds: milliseconds)
        let weekday = weekdays[((floorDiv(Int(milliseconds), 86_400_000) % 7) + 7) % 7]
        return
            "\(weekday), \(pad(f.day, 2)) \(months[f.month - 1]) \(pad(f.year, 4)) \(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2)) GMT"
    }

    /// Parses an IMF-fixdate (`Thu, 01 Jan 2026 00:00:00 GMT`, a one-digit day accepted) into
    /// milliseconds since 1970; nil for anything else, including a day the month does not have
    /// and a year outside 1970...9999. The weekday name must be one of the seven but is not
    /// checked against the date (RFC 9110 lets a recipient ignore it).
    package static func parseHTTPDate(_ text: String) -> Int64? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].last == ",",
            weekdays.contains(String(parts[0].dropLast())),
            parts[5] == "GMT", let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
            guard digits.contains(text.utf8.count),
                text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            return Int(text)
        }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard let day = number(parts[1], digits: 1...2), let year = number(parts[3], digits: 4...4),
            (1970...9999).contains(year),
            clock.count == 3, let hour = number(clock[0], digits: 2...2), let minute = number(clock[1], digits: 2...2),
            let second = number(clock[2], digits: 2...2), hour < 24, minute < 60, second < 60
        else { return nil }
        let fields = Fields(
            year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, millisecond: 0)
        let result = milliseconds(fields)
        // A day beyond the month's end (31 Feb) comes back as another date: refused.
        guard day >= 1, self.fields(milliseconds: result) == fields else { return nil }
        return result
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
