/// Finding and replacing text by its UTF-8 bytes, in time linear in the text for a fixed target.
///
/// The standard library's `String.contains(_:)`, `firstRange(of:)` and `replacing(_:with:)`
/// compare `Character`s: each step walks grapheme-cluster boundaries, which on a megabyte of text
/// costs a hundred times a byte comparison. The cassette tools search for placeholders and for
/// secrets in bodies of any size, so they compare bytes. A match is a run of bytes equal to the
/// target's; since UTF-8 is self-synchronising, a match of a valid target always starts and ends on
/// a scalar boundary. Unlike the `Character` search it also finds a target that a combining mark
/// after it joins to a wider grapheme cluster (`e` in `e\u{301}`): for a redactor that hides more,
/// never less, and replacing back gives the exact bytes again.
package enum UTF8Search {
    /// The offset of the first occurrence of `target` in `text` at or after `start`; nil when there
    /// is none or `target` is empty.
    package static func firstOffset(
        of target: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, from start: Int = 0
    ) -> Int? {
        guard let first = target.first, start >= 0, text.count >= target.count else { return nil }
        let last = text.count - target.count
        var offset = start
        while offset <= last {
            if text[offset] == first {
                var matched = 1
                while matched < target.count, text[offset + matched] == target[matched] { matched += 1 }
                if matched == target.count { return offset }
            }
            offset += 1
        }
        return nil
    }

    /// Whether `target` (non-empty) occurs in `text`, byte for byte.
    package static func contains(_ target: String, in text: String) -> Bool {
        var text = text
        return text.withUTF8 { contains(target, in: $0) }
    }

    /// Whether `target` (non-empty) occurs in `bytes`.
    package static func contains(_ target: String, in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { contains(target, in: $0) }
    }

    private static func contains(_ target: String, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        var target = target
        return target.withUTF8 { firstOffset(of: $0, in: haystack) != nil }
    }

    /// `text` with every occurrence of `target` (non-empty) replaced by `replacement`, without
    /// overlaps, left to right, and how many were replaced. `text` itself when there is none.
    package static func replacing(_ target: String, with replacement: String, in text: String) -> (
        text: String, count: Int
    ) {
        var utf8 = text, target = target
        let result = utf8.withUTF8 { haystack in
            target.withUTF8 { needle -> (text: String, count: Int)? in
                guard var found = firstOffset(of: needle, in: haystack) else { return nil }
                var out: [UInt8] = []
                out.reserveCapacity(haystack.count)
                var copied = 0, count = 0
                while true {
                    count += 1
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: haystack[copied..<found]))
                    out.append(contentsOf: replacement.utf8)
                    copied = found + needle.count
                    guard let next = firstOffset(of: needle, in: haystack, from: copied) else { break }
                    found = next
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: haystack[copied...]))
                return (String(decoding: out, as: UTF8.self), count)
            }
        }
        return result ?? (text, 0)
    }
}
