import Foundation

/// The interpreter that `python3` on the PATH starts, resolved once (`sys.executable`), for the
/// tests that start many Python processes: a run of the whole client suite through the example
/// driver starts about 160. A version manager's `python3` is often a shim script that looks for
/// the interpreter again at every start (about 100 ms of CPU each on the 2-core machine; 7 s more
/// CPU for that one run); the program it resolves to is the same. Nil when `python3` does not run.
package enum PythonInterpreter {
    package static let path: String? = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try WorkbenchProcess.launch(process) } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
}
