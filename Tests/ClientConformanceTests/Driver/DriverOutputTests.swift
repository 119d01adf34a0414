import ClientConformance
import MilagroProtocol
import Testing

/// A driver's standard output: one call line each, Milagro status names, anything else an error
/// that names the line.
@Suite struct DriverOutputTests {
    func calls(_ text: String) -> Result<[DriverCall], DriverProblem> { DriverOutput.calls(Array(text.utf8)) }

    @Test func readsCallLines() throws {
        let result = calls(
            """
            {"call": "setBackend", "status": "OK"}
            {"call":"finishAuthentication","status":"INCORRECT_PIN","message":"Wrong PIN"}\r

            """.replacing("\n\n", with: "\n"))
        let read = try result.get()
        #expect(read.map(\.name) == ["setBackend", "finishAuthentication"])
        #expect(read.map(\.status) == [.ok, .incorrectPIN])
        #expect(read[1].message == "Wrong PIN")
    }

    @Test func emptyOutputIsNoCalls() throws {
        #expect(try calls("").get().isEmpty)
    }

    @Test(arguments: [
        ("hello\n", "not JSON"),
        ("\n", "an empty line"),
        ("[1]\n", "not an object"),
        (#"{"call": "x", "status": "WRONG"}"#, "not a Milagro status name"),
        (#"{"call": "", "status": "OK"}"#, "non-empty string"),
        (#"{"status": "OK"}"#, "\"call\""),
        (#"{"call": "x", "status": 0}"#, "\"status\" must be a string"),
        (#"{"call": "x", "status": "OK", "pin": "1234"}"#, "unknown member"),
        (#"{"call": "x", "status": "OK", "message": 3}"#, "\"message\" must be a string"),
    ])
    func refusesOtherLines(line: String, why: String) {
        guard
            case .failure(.badLine(let number, _, let reason)) = calls(#"{"call": "a", "status": "OK"}"# + "\n" + line)
        else {
            Issue.record("\(line) was read as a call line")
            return
        }
        #expect(number == 2)
        #expect(reason.contains(why), "\(reason)")
    }

    @Test func namesEveryStatus() throws {
        for code in StatusCode.allCases {
            let read = try calls(#"{"call": "c", "status": "\#(code.name)"}"#).get()
            #expect(read.first?.status == code)
        }
    }
}
