import ArgumentParser
import Foundation
import MPinCrypto

/// `mpin-workbench checksum`: the access-number check digit of docs/protocol.md §5.1.
struct ChecksumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checksum",
        abstract: "Check an access number's check digit, or complete six digits with it.",
        discussion: """
            An access number is seven decimal digits d1..d6 c. With S = 7·d1 + 6·d2 + ... + 2·d6 the \
            check digit is ((11 - S mod 11) mod 11) mod 10 (docs/protocol.md §5.1).

            Exit status: 0 when the access number is valid (or was completed), 1 when it is not, \
            with the reason on standard error.

            Examples:
              mpin-workbench checksum 1234560
              mpin-workbench checksum --complete 123456
            """
    )

    @Argument(help: "The 7-digit access number to check, or with --complete the first six digits.")
    var digits: String

    @Flag(name: .long, help: "Print the 7-digit access number for six digits instead of checking.")
    var complete = false

    func run() throws {
        if complete {
            guard let full = AccessNumber.complete(digits) else {
                Console.failure("'\(digits)' is not six decimal digits")
                throw ExitCode.failure
            }
            Console.line(full)
            return
        }
        if let problem = AccessNumber.problem(with: digits) {
            Console.failure("\(digits) is not a valid access number: \(problem)")
            throw ExitCode.failure
        }
        Console.line("\(digits) is valid")
    }
}
