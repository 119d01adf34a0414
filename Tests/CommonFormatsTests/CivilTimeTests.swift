import Foundation
import Testing

@testable import CommonFormats

/// The package's one calendar: ISO 8601 and `issued` for the backend, IMF-fixdate for HTTP `Date`
/// fields, and the parsers that read them back.
@Suite struct CivilTimeTests {
    @Test func iso8601AndIssued() {
        // 2016-10-11 is day 17085 (docs/protocol.md §11).
        #expect(
            CivilTime.iso8601(milliseconds: 17_085 * 86_400_000 + 13 * 3_600_000 + 59 * 60_000 + 16_000)
                == "2016-10-11T13:59:16Z")
        #expect(CivilTime.issued(milliseconds: 1_476_194_297_696) == "2016-10-11 13:58:17.696000")
        #expect(CivilTime.parseISO8601("2016-10-11T13:59:16Z") == 1_476_194_356_000)
        #expect(CivilTime.parseISO8601("2024-02-29T00:00:00Z") == 1_709_164_800_000)
        #expect(CivilTime.iso8601(milliseconds: 0) == "1970-01-01T00:00:00Z")
        // A cassette's clock readings, milliseconds kept, before 1970 too.
        #expect(CivilTime.iso8601WithMilliseconds(milliseconds: 1_767_225_600_007) == "2026-01-01T00:00:00.007Z")
        #expect(CivilTime.iso8601WithMilliseconds(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(CivilTime.iso8601WithMilliseconds(milliseconds: 1_476_194_297_696) == "2016-10-11T13:58:17.696Z")
        for bad in ["", "2016-10-11 13:59:16Z", "2016-13-11T13:59:16Z", "2016-10-11T24:00:00Z", "２016-10-11T13:59:16Z"]
        {
            #expect(CivilTime.parseISO8601(bad) == nil)
        }
        for ms: Int64 in [0, 951_782_400_000, 1_700_000_000_123, 4_102_444_800_000] {
            let fields = CivilTime.fields(milliseconds: ms)
            #expect(CivilTime.milliseconds(fields) == ms)
        }
    }

    @Test func httpDateKnownValues() {
        #expect(CivilTime.httpDate(milliseconds: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        // RFC 9110 §5.6.7's example.
        #expect(CivilTime.httpDate(milliseconds: 784_111_777_999) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(CivilTime.httpDate(milliseconds: 951_825_600_000) == "Tue, 29 Feb 2000 12:00:00 GMT")
        #expect(CivilTime.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777_000)
        let newYear2026: Int64 = 20_454 * 86_400_000
        #expect(CivilTime.parseHTTPDate("Thu, 1 Jan 2026 00:00:00 GMT") == newYear2026)
        for bad in [
            "", "garbage", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1969 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT ",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 November 1994 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT",
        ] {
            #expect(CivilTime.parseHTTPDate(bad) == nil, "\(bad)")
        }
    }

    /// Formatting and parsing agree with each other and with Foundation's formatter, second by
    /// second across leap days, and the weekday is the right one.
    @Test func httpDateRoundTripsAndMatchesFoundation() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var state: UInt64 = 0x6874_7470
        var checked = 0
        for _ in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // 1970 to 9999.
            let seconds = Int64(state >> 30) % 253_402_300_800
            let text = CivilTime.httpDate(milliseconds: seconds * 1000 + 999)
            #expect(text == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))), "\(seconds)")
            #expect(CivilTime.parseHTTPDate(text) == seconds * 1000, "\(text)")
            checked += 1
        }
        #expect(checked == 3_000)
    }
}
