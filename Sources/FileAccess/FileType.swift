/// The file type bits of `st_mode` (POSIX `S_IFMT` and friends; the same values on Linux and
/// Darwin) and how messages name them.
enum FileType {
    static let mask: UInt32 = 0o170000
    static let fifo: UInt32 = 0o010000
    static let characterDevice: UInt32 = 0o020000
    static let directory: UInt32 = 0o040000
    static let blockDevice: UInt32 = 0o060000
    static let regular: UInt32 = 0o100000
    static let symbolicLink: UInt32 = 0o120000
    static let socket: UInt32 = 0o140000

    /// "a FIFO (named pipe)", "a character device", ... for the type in `mode`.
    static func describe(_ mode: UInt32) -> String {
        switch mode & mask {
        case fifo: "a FIFO (named pipe)"
        case characterDevice: "a character device"
        case directory: "a directory"
        case blockDevice: "a block device"
        case regular: "a regular file"
        case symbolicLink: "a symbolic link"
        case socket: "a socket"
        default: "not a regular file"
        }
    }
}
