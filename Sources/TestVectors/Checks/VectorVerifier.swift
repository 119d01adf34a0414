import Foundation
import MPinCrypto

/// Verifies AMCL vector files: reads each, tells its format and curve, checks every vector.
///
/// ```swift
/// let verifier = VectorVerifier(curve: nil)
/// for result in verifier.verify(paths: ["../shared/vectors/amcl/js/MPIN_BN254.json"]) {
///     switch result {
///     case .success(let report): print("\(report.file): \(report.passed) passed, \(report.failed) failed")
///     case .failure(let error): print(error)
///     }
/// }
/// ```
public struct VectorVerifier: Sendable {
    /// The curve for files that do not name theirs (`--curve`); bn254cx when nil.
    public var curve: CurveID?

    public init(curve: CurveID? = nil) {
        self.curve = curve
    }

    /// One result per path, in order: a report, or the reason the file could not be read.
    public func verify(paths: [String]) -> [Result<FileReport, VectorFileError>] {
        paths.map { path in Result { () throws(VectorFileError) in try verify(path: path) } }
    }

    /// Verifies one file.
    ///
    /// - Throws: `VectorFileError` when the file is missing, unreadable, malformed (with its line),
    ///   of no known format, or holds no vectors.
    public func verify(path: String) throws(VectorFileError) -> FileReport {
        let loaded = try load(path: path)
        return FileReport(
            file: path, format: loaded.formatName, curve: loaded.curve, verdicts: check(loaded))
    }

    /// A file read and classified, not yet checked.
    public struct LoadedFile: Sendable {
        public var path: String
        public var header: String
        public var blocks: [AMCLBlock]
        public var format: VectorFormat
        public var curve: CurveID
        public var curveSource: VectorFormatDetector.CurveSource
        /// The format as reported (`arithmetic` files add their kind).
        public var formatName: String
    }

    /// Reads and classifies a file.
    public func load(path: String) throws(VectorFileError) -> LoadedFile {
        try load(text: VectorFileContents.read(path), path: path)
    }

    /// Classifies the text of a file already read; `path` names it in errors and tells the curve.
    public func load(text: String, path: String) throws(VectorFileError) -> LoadedFile {
        let header: String
        let blocks: [AMCLBlock]
        if text.drop(while: \.isWhitespace).first == "[" {
            header = ""
            blocks = try AMCLJSONReader.parse(text, file: path)
        } else {
            let document = try AMCLTextReader.parse(text, file: path)
            header = document.headerText
            blocks = document.blocks
        }
        guard !blocks.isEmpty else {
            throw VectorFileError(file: path, line: nil, message: "holds no vectors")
        }
        let keys = Set(blocks.flatMap { $0.fields.map(\.key) })
        guard let format = VectorFormatDetector.format(keys: keys, header: header) else {
            let sample = keys.sorted().prefix(8).joined(separator: ", ")
            throw VectorFileError(
                file: path, line: blocks[0].line,
                message: "not a known AMCL vector format (keys: \(sample)\(keys.count > 8 ? ", ..." : ""))")
        }
        let (curve, source) = VectorFormatDetector.curve(header: header, path: path, option: self.curve)
        var formatName = format.rawValue
        if format == .arithmetic {
            guard let kind = AMCLArithmeticKind.detect(header: header, keys: keys) else {
                throw VectorFileError(
                    file: path, line: blocks[0].line, message: "arithmetic file of an unknown kind")
            }
            formatName += "-\(kind)"
        }
        return LoadedFile(
            path: path, header: header, blocks: blocks, format: format, curve: curve, curveSource: source,
            formatName: formatName)
    }

    /// Checks every vector of a loaded file. A field that no check reads fails its vector, and so
    /// does a vector with nothing to check (see `VectorFieldLedger`).
    public func check(_ file: LoadedFile) -> [VectorVerdict] {
        var tally = VerdictTally(limit: .max, keepsPassing: true)
        check(file, into: &tally)
        return tally.kept
    }

    /// The report on a loaded file that keeps at most `limit` failing verdicts (and, when
    /// `keepsPassing`, `limit` passing ones) and counts the rest: its memory does not grow with
    /// the number of vectors that fail.
    public func report(_ file: LoadedFile, keeping limit: Int, keepsPassing: Bool = false) -> FileReport {
        var tally = VerdictTally(limit: limit, keepsPassing: keepsPassing)
        check(file, into: &tally)
        return FileReport(file: file.path, format: file.formatName, curve: file.curve, tally: tally)
    }

    /// The number of M-Pin vectors checked on all cores at once: their verdicts are tallied before
    /// the next chunk, so no more than this many are held.
    static let chunkSize = 4_096

    /// Checks every vector into `tally`, in file order.
    public func check(_ file: LoadedFile, into tally: inout VerdictTally) {
        switch file.format {
        case .twoPass, .onePass, .amclGenerated:
            let layout = MPinEnrolment.Layout.of(file.blocks)
            var start = 0
            while start < file.blocks.count {
                let chunk = Array(file.blocks[start..<min(start + Self.chunkSize, file.blocks.count)])
                start += chunk.count
                let verdicts = Self.concurrentMap(chunk) { block in
                    var ledger = Self.ledger(of: block, format: file.format, curve: file.curve, layout: layout)
                    ledger.failUnusedKeys()
                    return ledger.verdict
                }
                for verdict in verdicts { tally.add(verdict) }
            }
        case .arithmetic:
            let keys = Set(file.blocks.flatMap { $0.fields.map(\.key) })
            guard let kind = AMCLArithmeticKind.detect(header: file.header, keys: keys) else { return }
            for verdict in AMCLArithmeticVectors.check(blocks: file.blocks, kind: kind, curve: file.curve) {
                tally.add(verdict)
            }
        }
    }

    /// The checks of one M-Pin or AMCL-C block, before unused keys are failed.
    static func ledger(
        of block: AMCLBlock, format: VectorFormat, curve: CurveID, layout: MPinEnrolment.Layout
    ) -> VectorFieldLedger {
        switch format {
        case .twoPass: MPinTwoPassChecker(curve: curve, layout: layout).check(block).ledger
        case .onePass: MPinOnePassChecker(curve: curve, layout: layout).check(block)
        case .amclGenerated, .arithmetic: AMCLGeneratedChecker(curve: curve).check(block)
        }
    }

    /// Keys of a file's vectors that the M-Pin checkers read nowhere (empty for the known files).
    func unusedKeys(_ file: LoadedFile) -> Set<String> {
        guard file.format != .arithmetic else { return [] }
        let layout = MPinEnrolment.Layout.of(file.blocks)
        return Set(
            file.blocks.flatMap {
                Self.ledger(of: $0, format: file.format, curve: file.curve, layout: layout).unusedKeys
            })
    }

    /// `transform` over `items` on all cores, results in order.
    static func concurrentMap<T, R>(_ items: [T], _ transform: (T) -> R) -> [R] {
        guard items.count > 1 else { return items.map(transform) }
        let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        items.withUnsafeBufferPointer { input in
            withoutActuallyEscaping(transform) { transform in
                let box = UnsafeSendableBox(input: input, output: results, transform: transform)
                DispatchQueue.concurrentPerform(iterations: items.count) { index in
                    box.output[index] = box.transform(box.input[index])
                }
            }
        }
        return results.map { $0! }
    }
}

/// Carries the buffers of `concurrentMap` into its worker closure; each index is written once.
private struct UnsafeSendableBox<T, R>: @unchecked Sendable {
    let input: UnsafeBufferPointer<T>
    let output: UnsafeMutableBufferPointer<R?>
    let transform: (T) -> R
}
