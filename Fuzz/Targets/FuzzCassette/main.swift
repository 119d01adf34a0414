// Cassettes: reading a file and decoding (JSON, format version, migrations, schema), and what
// reads a decoded cassette (lint, show, diff, the sequence diagram, redaction, the playback of
// `serve --cassette`). Reading the file gives what decoding its bytes gives; a cassette that
// decodes writes back to canonical bytes that decode to the same cassette; the playback answers
// only with statuses an HTTP server can send.
import Foundation
import FuzzSupport

@testable import FlowRecording
@testable import MilagroRecording

let file = Repository.scratch + "/cassette.json"

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    _ = CassetteLint.check(bytes: bytes, path: "fuzz.json")
    guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
        FuzzDriver.fail("cannot write \(file)")
    }
    let read = Result { () throws(CassetteError) in try CassetteFile.read(file) }
    let cassette: Cassette
    do throws(CassetteError) {
        cassette = try CassetteFile.decode(bytes)
    } catch {
        _ = error.description
        if case .failure(let readError) = read {
            FuzzDriver.check(
                readError.kind == error.kind,
                "reading the file fails with \(readError.kind), decoding with \(error.kind)")
        } else {
            FuzzDriver.fail("reading the file gives a cassette where decoding fails: \(error)")
        }
        return 0
    }
    FuzzDriver.check((try? read.get()) == cassette, "reading the file gives another cassette than decoding its bytes")
    let canonical = cassette.canonicalBytes
    do throws(CassetteError) {
        let again = try CassetteFile.decode(canonical)
        FuzzDriver.check(again == cassette, "the canonical bytes decode to another cassette")
        FuzzDriver.check(again.canonicalBytes == canonical, "the canonical bytes are not stable")
    } catch {
        FuzzDriver.fail("the canonical bytes of a decoded cassette do not decode: \(error)")
    }
    _ = CassetteLint.check(bytes: canonical, path: "fuzz.json")
    _ = CassetteTimeline.text(cassette, path: "fuzz.json")
    for (index, event) in cassette.events.enumerated() {
        _ = EventSummary.line(event)
        _ = EventSummary.place(index, event)
    }
    FuzzDriver.check(
        CassetteDiff.differences(cassette, cassette, includeTimings: true).isEmpty, "a cassette differs from itself")
    _ = CassetteDiff.text(cassette, cassette, names: ("a", "b"), includeTimings: true)
    let diagram = SequenceDiagram(map: .milagro)
    _ = diagram.mermaid(cassette)
    _ = diagram.html(cassette, title: "fuzz")
    let redacted = Redactor(fields: Redactor.milagroFields).redact(cassette)
    _ = Redactor.placeholderNames(in: redacted)
    _ = Redactor.unlistedPlaceholders(in: cassette)
    let values = Dictionary(redacted.redactions.map { ($0.placeholder, "v") }) { first, _ in first }
    FuzzDriver.check(
        (try? Redactor.restore(redacted, values: values)) != nil,
        "a redacted cassette does not restore with every value")

    for order in CassettePlayback.Order.allCases {
        let playback = CassettePlayback(
            cassette: cassette, name: "fuzz.json", order: order, servedOrigin: "http://127.0.0.1:1")
        for event in cassette.events.prefix(200) {
            guard case .http(let exchange) = event.payload else { continue }
            let answer = playback.answer(
                method: exchange.request.method, target: exchange.request.url, body: exchange.request.body)
            FuzzDriver.check((100...999).contains(answer.status), "the playback answers with status \(answer.status)")
        }
        _ = playback.routeList
    }
    return 0
}

FuzzDriver.run()
