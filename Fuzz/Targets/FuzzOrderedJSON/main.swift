// OrderedJSON's parser and writer: any bytes either parse or throw a syntax error with a place;
// `parse` and `parseDocument` agree; what parses writes back (compact and canonical) to text that
// parses to the same value; every recorded position names a value of the document.
import FuzzSupport

@testable import OrderedJSON

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let value: JSONValue
    do throws(JSONSyntaxError) {
        value = try JSONParser.parse(bytes)
    } catch {
        FuzzDriver.check(error.line >= 1 && error.column >= 1, "error without a place: \(error)")
        do throws(JSONSyntaxError) {
            _ = try JSONParser.parseDocument(bytes)
            FuzzDriver.fail("parseDocument accepts what parse refuses (\(error))")
        } catch let documentError {
            FuzzDriver.check(documentError == error, "parse and parseDocument disagree: \(error) / \(documentError)")
        }
        return 0
    }
    let document: JSONDocument
    do throws(JSONSyntaxError) {
        document = try JSONParser.parseDocument(bytes)
    } catch {
        FuzzDriver.fail("parseDocument refuses what parse accepts: \(error)")
    }
    FuzzDriver.check(document.value == value, "parse and parseDocument read different values")
    for path in document.positions.keys {
        FuzzDriver.check(value.value(at: path) != nil, "a position for \(path), which names no value")
    }
    let compact = JSONWriter.compact(value)
    FuzzDriver.check((try? JSONParser.parse(compact)) == value, "the compact text does not read back: \(compact)")
    let canonical = JSONWriter.canonical(value)
    FuzzDriver.check(
        (try? JSONParser.parse(canonical)) == value.sortingMembers(),
        "the canonical text does not read back: \(canonical)")
    FuzzDriver.check(
        JSONWriter.canonical(value.sortingMembers()) == canonical, "canonical text depends on member order")
    return 0
}

FuzzDriver.run()
