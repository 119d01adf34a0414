import Testing

@testable import WorkbenchCLI

/// The numeric options' reader, in process: the range is checked, and the refusal says it.
@Suite struct BoundedNumberTests {
    func refusal(_ read: (String) throws -> some Any, _ text: String) -> String? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func integersInTheRangeAreRead() throws {
        let read = BoundedNumber.integer(1...1000)
        #expect(try read("1") == 1)
        #expect(try read("+7") == 7)
        #expect(try read("1000") == 1000)
    }

    @Test func integersOutsideTheRangeOrNotIntegersSayTheRange() {
        let read = BoundedNumber.integer(1...1000, unit: "runs")
        for text in ["0", "-1", "1001", "1e3", "1.5", " 5", ""] {
            #expect(refusal(read, text) == "must be an integer from 1 to 1000 runs", "\(text)")
        }
        #expect(
            refusal(read, "9223372036854775808")
                == "must be an integer from 1 to 1000 runs (this is beyond any integer the option can hold)")
    }

    @Test func decimalsRefuseTheLowerBoundWhenAsked() throws {
        let read = BoundedNumber.decimal(0...3600, aboveLowerBound: true, unit: "seconds")
        #expect(try read("0.5") == 0.5)
        #expect(try read("3600") == 3600)
        for text in ["0", "-1", "3600.5", "nan", "inf", "1e400", "x"] {
            #expect(refusal(read, text) == "must be a number more than 0 and at most 3600 seconds", "\(text)")
        }
        #expect(refusal(BoundedNumber.decimal(0...1), "0") == nil)
    }
}
