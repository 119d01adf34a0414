import Testing

@testable import FlowRecording

/// The one-pass search for many secrets: leftmost, then longest, matches; the same result as
/// searching for every secret at every position, on random texts over a small alphabet (so that
/// secrets overlap, share their first 8 bytes and follow one another).
@Suite struct SecretScannerTests {
    /// What the scanner must do, the slow way: at each position the longest secret that starts
    /// there (the first given among equals), else the byte.
    private func reference(_ secrets: [String], _ text: String) -> (String, [Int]) {
        let bytes = Array(text.utf8)
        let patterns = secrets.map { Array($0.utf8) }
        var out: [UInt8] = []
        var found: [Int] = []
        var position = 0
        while position < bytes.count {
            var best: Int?
            for (index, pattern) in patterns.enumerated()
            where pattern.count >= SecretScanner.minimumBytes && position + pattern.count <= bytes.count
                && bytes[position..<(position + pattern.count)].elementsEqual(pattern)
                && (best.map { pattern.count > patterns[$0].count } ?? true)
            {
                best = index
            }
            if let best {
                out += Array("<\(best)>".utf8)
                found.append(best)
                position += patterns[best].count
            } else {
                out.append(bytes[position])
                position += 1
            }
        }
        return (String(decoding: out, as: UTF8.self), found)
    }

    private func scan(_ secrets: [String], _ text: String) -> (String, [Int]) {
        let scanner = SecretScanner(secrets.enumerated().map { ($0.element, "<\($0.offset)>") })
        var found: [Int] = []
        let result = scanner.replace(in: text) { found.append($0) }
        return (result, found)
    }

    @Test func findsEverySecretLeftmostThenLongest() {
        let secrets = ["abcdefgh", "abcdefghij", "cdefghijkl", "zzzzzzzzz", "short"]
        let (text, found) = scan(secrets, "xxabcdefghijkl abcdefgh-zzzzzzzzzzzzzzzzzz short abcdefg")
        #expect(text == "xx<1>kl <0>-<3><3> short abcdefg")
        #expect(found == [1, 0, 3, 3])
        #expect(scan(secrets, "nothing here").0 == "nothing here")
        #expect(scan([], "abcdefgh").0 == "abcdefgh")
        #expect(scan(secrets, "abcdefgh").0 == "<0>")
        #expect(scan(["é€😀é€😀"], "aé€😀é€😀\u{301}").0 == "a<0>\u{301}")
    }

    @Test func agreesWithTheSlowSearchOnRandomTexts() {
        var generator = SplitMix(seed: 38)
        let alphabet = Array("ab€".unicodeScalars)
        func random(_ count: Int) -> String {
            String(String.UnicodeScalarView((0..<count).map { _ in alphabet[Int(generator.next() % 3)] }))
        }
        for round in 0..<300 {
            let secrets = (0..<Int(1 + generator.next() % 6)).map { _ in random(Int(3 + generator.next() % 9)) }
            let text = random(Int(generator.next() % 200))
            let (ours, theirs) = (scan(secrets, text), reference(secrets, text))
            #expect(ours.0 == theirs.0 && ours.1 == theirs.1, "round \(round): \(secrets) in \(text)")
        }
    }
}

/// A small deterministic generator for the random texts.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
